# syntax=docker/dockerfile:1
# One image for every component; the command chooses it (docs/deploying.md):
#   node dist/gateway.mjs | dist/people.mjs | dist/organisation.mjs | dist/legacy-time.mjs
#   | dist/directory.mjs (the in-process directory service) | dist/start.mjs (all in one, the default)
# Node 22 LTS, the supported line (package.json `engines`: >= 22.15).

FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# production dependencies only: esbuild (a dependency) compiles the bundles
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY platform ./platform
COPY directory ./directory
COPY subgraphs ./subgraphs
COPY gateway ./gateway
RUN node scripts/build.mjs

FROM node:22-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY scripts/healthcheck.mjs ./scripts/healthcheck.mjs
COPY schema ./schema
COPY operations ./operations
COPY gateway/explorer ./gateway/explorer
# the image's `node` user (uid 1000); nothing it runs writes to /app
USER node
EXPOSE 4000 4001 4002 4003 4010
# liveness only (/health); compose and Kubernetes name each component's port
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# node itself is PID 1's command, not npm or a shell, so that SIGTERM reaches it (platform/lifecycle.ts)
CMD ["node", "dist/start.mjs"]
