import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from "graphql";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import { Logger } from "../log.js";
import { sendJson, serveGraphQL } from "./http.js";
import { operationLog } from "./operation-log.js";
import { LoaderRegistry, toGraphQLError, type Upstream, type UpstreamSession } from "../upstream/index.js";

/** The GraphQL context of one request: its upstream session and its loaders, never shared. */
export interface SubgraphContext {
  upstream: UpstreamSession;
  loaders: LoaderRegistry;
}

/** The header the gateway sends with `SUBGRAPH_SECRET`. */
export const SUBGRAPH_SECRET_HEADER = "x-subgraph-secret";

export interface SubgraphServerOptions {
  name: string;
  schema: GraphQLSchema;
  upstream: Upstream;
  /** 0 picks a free port */
  port: number;
  /** default 127.0.0.1 */
  host?: string;
  /** when set, only requests carrying it in `x-subgraph-secret` are served */
  secret?: string | null;
  logger?: Logger;
}

export interface RunningSubgraph {
  name: string;
  /** the GraphQL endpoint, `http://127.0.0.1:4001/graphql` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves one subgraph over HTTP: GraphQL at `/` and `/graphql`, liveness at `/health`. */
export async function startSubgraph(options: SubgraphServerOptions): Promise<RunningSubgraph> {
  const logger = options.logger ?? new Logger(options.name);
  const apollo = new ApolloServer<SubgraphContext>({
    schema: options.schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // traces are for Apollo Studio usage reporting, which this project does not use
    plugins: [ApolloServerPluginInlineTraceDisabled(), operationLog<SubgraphContext>(logger, (ctx) => ({ upstreamCalls: ctx.upstream?.calls.total ?? 0 }))],
    formatError: formatUpstreamError(logger),
  });
  await apollo.start();

  const secret = options.secret ? Buffer.from(options.secret) : null;

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      logger.error("request failed", { error: String(err) });
      if (!res.headersSent) sendJson(res, 500, { errors: [{ message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://subgraph.local");
    if (url.pathname === "/health") return sendJson(res, 200, { status: "ok", subgraph: options.name });
    if (url.pathname !== "/" && url.pathname !== "/graphql") {
      return sendJson(res, 404, { errors: [{ message: "Not found" }] });
    }
    if (secret && !secretMatches(req.headers[SUBGRAPH_SECRET_HEADER], secret)) {
      return sendJson(res, 403, {
        errors: [{ message: "This subgraph only answers its gateway", extensions: { code: "FORBIDDEN" } }],
      });
    }
    const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization : undefined;
    await serveGraphQL(apollo, req, res, async () => ({
      upstream: options.upstream.session({ authorization }),
      loaders: new LoaderRegistry(),
    }));
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
  const host = options.host && !["0.0.0.0", "::"].includes(options.host) ? options.host : "127.0.0.1";

  return {
    name: options.name,
    url: `http://${host}:${port}/graphql`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await apollo.stop();
    },
  };
}

function secretMatches(header: string | string[] | undefined, secret: Buffer): boolean {
  if (typeof header !== "string") return false;
  const given = Buffer.from(header);
  return given.length === secret.length && timingSafeEqual(given, secret);
}

/**
 * Upstream failures become GRAPH.md's error codes; anything unexpected is logged and masked so
 * that no upstream body, token or stack trace reaches a caller.
 */
export function formatUpstreamError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof GraphQLError && original.extensions?.code) {
      return { ...formatted, message: original.message, extensions: { ...original.extensions } };
    }
    if (formatted.extensions?.code && formatted.extensions.code !== "INTERNAL_SERVER_ERROR") return formatted;
    const mapped = toGraphQLError(original);
    if (mapped.extensions?.code === "INTERNAL_SERVER_ERROR") {
      logger.error("resolver failed", { error: original instanceof Error ? original.stack ?? original.message : String(original), path: formatted.path });
    }
    return { ...formatted, message: mapped.message, extensions: { ...mapped.extensions } };
  };
}
