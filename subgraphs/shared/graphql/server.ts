import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from "graphql";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";
import { Logger } from "../log.js";
import { listen, sendJson, serveGraphQL } from "./http.js";
import { operationLog } from "./operation-log.js";
import { guardEntities } from "./entities.js";
import { currentApiId, inputChecks, type FieldChecks, type IdRule } from "./input-checks.js";
import { toGraphQLError, type LoaderScope, type Upstream, type UpstreamSession } from "../upstream/index.js";

/** The GraphQL context of one request: its upstream session and its loaders, never shared. */
export interface SubgraphContext {
  upstream: UpstreamSession;
  /** the session's own loader registry (`upstream.loaders`): one per request */
  loaders: LoaderScope;
}

/** The header with the ms the gateway still allows the request (an integer). */
export const DEADLINE_HEADER = "x-deadline-ms";

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
  /** the rule of the ids this subgraph's arguments carry (default: the current API's) */
  ids?: IdRule;
  /** argument checks of particular fields, run before the operation (input-checks.ts) */
  fieldChecks?: FieldChecks;
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
  const ids = options.ids ?? currentApiId;
  // representations carry the current API's ids whatever the subgraph's own ids are
  guardEntities(options.schema, { max: options.upstream.config.maxRepresentations, ids: currentApiId });
  const apollo = new ApolloServer<SubgraphContext>({
    schema: options.schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // the process's own SIGINT/SIGTERM handlers close the HTTP server first (runSubgraphMain);
    // Apollo's would stop it and re-raise the signal before they finish
    stopOnTerminationSignals: false,
    // traces are for Apollo Studio usage reporting, which this project does not use
    plugins: [
      ApolloServerPluginInlineTraceDisabled(),
      inputChecks<SubgraphContext>({ ids, cursors: options.upstream.cursors, fields: options.fieldChecks }),
      operationLog<SubgraphContext>(logger, (ctx) => ({ upstreamCalls: ctx.upstream?.calls.total ?? 0 })),
    ],
    formatError: formatUpstreamError(logger),
  });
  await apollo.start();

  const secret = options.secret ? digest(options.secret) : null;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const received = performance.now();
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
    const asked = deadlineOf(req.headers[DEADLINE_HEADER]) ?? options.upstream.config.deadlineMs;
    await serveGraphQL(apollo, req, res, async () => {
      // the deadline runs from the request's receipt: reading its body counts
      const deadlineMs = Math.max(0, Math.min(asked, options.upstream.config.deadlineMs) - (performance.now() - received));
      const upstream = options.upstream.session({ authorization, deadlineMs });
      return { upstream, loaders: upstream.loaders };
    });
  }

  const http = await listen(handle, { port: options.port, host: options.host || "127.0.0.1", logger });
  return {
    name: options.name,
    url: `${http.origin}/graphql`,
    port: http.port,
    async close() {
      await http.close();
      await apollo.stop();
    },
  };
}

/** `x-deadline-ms` as ms, or undefined when absent or not a whole number (the configured default applies). */
function deadlineOf(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Compares digests, so that neither the secret's content nor its length shows in the timing. */
function secretMatches(header: string | string[] | undefined, secret: Buffer): boolean {
  return typeof header === "string" && timingSafeEqual(digest(header), secret);
}

/**
 * Upstream failures become GRAPH.md's error codes; anything unexpected is logged and masked so
 * that no upstream body, token or stack trace reaches a caller.
 */
export function formatUpstreamError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof GraphQLError && original.extensions?.code) {
      // `http` sets the answer's status (Apollo Server reads it before this hook) and is not for the caller
      const { http: _http, ...extensions } = original.extensions;
      return { ...formatted, message: original.message, extensions };
    }
    if (formatted.extensions?.code && formatted.extensions.code !== "INTERNAL_SERVER_ERROR") return formatted;
    const mapped = toGraphQLError(original);
    if (mapped.extensions?.code === "INTERNAL_SERVER_ERROR") {
      logger.error("resolver failed", { error: original instanceof Error ? original.stack ?? original.message : String(original), path: formatted.path });
    }
    return { ...formatted, message: mapped.message, extensions: { ...mapped.extensions } };
  };
}
