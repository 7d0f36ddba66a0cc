# syntax=docker/dockerfile:1
# One image for every component; the command chooses it (docs/deploying.md):
#   node dist/gateway.mjs | dist/people.mjs | dist/organisation.mjs | dist/legacy-time.mjs
#   | dist/directory.mjs (the in-process directory service) | dist/start.mjs (all in one, the default)
# Node 22 LTS, the supported line (package.json `engines`: >= 22.15). The base is pinned by digest
# (the tag is for the reader): a rebuild gets the same system; update both together.

FROM node:22-slim@sha256:83f487e0a63425e5b4d146fb5e5be574bcbe1b7b843d3ebafdd95eaf7767a7e5 AS build
WORKDIR /app
COPY package.json package-lock.json ./
# production dependencies only: esbuild (a dependency) compiles the bundles
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY platform ./platform
COPY contract ./contract
COPY directory ./directory
COPY subgraphs ./subgraphs
COPY gateway ./gateway
COPY schema ./schema
COPY operations ./operations
RUN node scripts/build.mjs
# the tracer, a development dependency (its version is package.json's), beside the install, not in it
RUN npm install --prefix /tools --no-save --no-audit --no-fund @vercel/nft@1.11.5
# the runtime files: the bundles, what they read, and the files of node_modules they load
RUN NFT_MODULE=/tools/node_modules/@vercel/nft/out/index.js node scripts/runtime.mjs /runtime

FROM node:22-slim@sha256:83f487e0a63425e5b4d146fb5e5be574bcbe1b7b843d3ebafdd95eaf7767a7e5
ENV NODE_ENV=production \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /runtime ./
# the image's `node` user (uid 1000); nothing it runs writes to /app
USER node
EXPOSE 4000 4001 4002 4003 4010 9464
# liveness of the component the container runs (its command's port: scripts/healthcheck.mjs)
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# node itself is PID 1's command, not npm or a shell, so that SIGTERM reaches it (platform/lifecycle.ts)
CMD ["node", "dist/start.mjs"]
