import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { listen, sendJson, serveGraphQL, type HttpListener } from "../platform/http.js";
import { formatErrorHygienically, unknownOperationIsClientError } from "../platform/errors.js";
import { operationGuard } from "../platform/limits.js";
import { DEADLINE_HEADER, OPERATION_HEADER, SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { randomUUID } from "node:crypto";
import { Logger } from "../platform/log.js";
import { InFlight } from "../platform/inflight.js";
import { operationLog } from "../platform/operation-log.js";
import { currentApiId, edgeOwnFilterChecks, inputChecks } from "../platform/input-checks.js";
import { legacyTimeFieldChecks } from "../platform/time-entry-range.js";
import { SUBGRAPH_NAMES, type GatewayConfig, type SubgraphName } from "./config.js";
import { handleCors } from "./cors.js";
import { createExploration } from "./explore.js";
import { ErrorCode } from "../platform/error-codes.js";
import { claimSpeculation, speculate, SPLIT_PART, type SpeculationContext } from "./speculate.js";

/**
 * The gateway: composes the three subgraphs (from the committed supergraph, or by introspecting
 * the live subgraphs), serves Apollo Sandbox at `/` and an offline explorer at `/explorer` outside
 * production (explore.ts), answers browser frontends of the allowed origins (cors.ts), forwards
 * the caller's credentials and the shared subgraph secret, and answers `/health` and `/ready`.
 */

interface GatewayContext extends SpeculationContext {
  authorization?: string;
  /** this operation's id, sent with its query fetches so that a subgraph shares its loaders among them (operation-scope.ts) */
  operationId: string;
  /** subgraph fetches made for this operation */
  subgraphFetches: number;
  /** when the operation's time is up (`performance.now()` time) */
  deadline: number;
}

export interface RunningGateway {
  /** `http://127.0.0.1:4000/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The operation's time is up: what the client sees for the parts that were not fetched in time. */
export class DeadlineExceededError extends GraphQLError {
  constructor() {
    super("The operation's deadline was exceeded before this subgraph answered", { extensions: { code: ErrorCode.DEADLINE_EXCEEDED } });
  }
}

/** A subgraph's answer, read whole: shared by the identical fetches in flight. */
interface SubgraphAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

/**
 * A subgraph fetch bounded by the operation's deadline (the `x-deadline-ms` header the data source
 * sets; the gateway's own requests carry none and are not bounded here). The body is read within
 * the deadline too. A subgraph's 4xx answer with a GraphQL body (a variable its scalar refuses, a
 * validation error) is handed on as a GraphQL response, so that its errors reach the client with
 * their codes, instead of a "400: Bad Request" carrying the subgraph's URL and body.
 */
async function fetchWithinDeadline(url: string, init: RequestInit & { headers: Record<string, string> }): Promise<SubgraphAnswer> {
  const header = init.headers[DEADLINE_HEADER];
  const remaining = header === undefined ? undefined : Number(header);
  if (remaining !== undefined && remaining <= 0) throw new DeadlineExceededError();
  let status: number;
  let statusText: string;
  let headers: Headers;
  let text: string;
  try {
    const res = await fetch(url, remaining === undefined ? init : { ...init, signal: AbortSignal.timeout(remaining) });
    status = res.status;
    statusText = res.statusText;
    headers = res.headers;
    text = await res.text();
  } catch (err) {
    if ((err as Error).name === "TimeoutError") throw new DeadlineExceededError();
    throw err;
  }
  if (status >= 400 && status < 500 && hasGraphQLErrors(text)) status = 200;
  return { status, statusText, headers, text };
}

/**
 * The subgraph fetcher: identical query fetches in flight (same subgraph, same caller
 * `authorization`, same body: operation and variables) are sent once and each caller parses its
 * own copy of the answer. Mutations are always sent, and no query asked after one joins a query
 * that started before it. The deadline header is left out of the key:
 * it differs by the millisecond between callers of the same fetch. A joiner whose first caller
 * ran out of time fetches on its own. The header `x-operation-id` is left out too: an operation that
 * joins another's fetch (or announcement, speculate.ts) is answered from that operation's loaders.
 */
function subgraphFetcher(inflight: InFlight<SubgraphAnswer>): (url: string, init: RequestInit & { headers: Record<string, string> }) => Promise<Response> {
  return async (url, init) => {
    const body = typeof init.body === "string" ? init.body : null;
    // the data source sends `{"query":"<operation>",...}`: a query plan's fetch is `query ...` or `{...}`
    const read = body !== null && (body.startsWith('{"query":"query') || body.startsWith('{"query":"{'));
    let answer: SubgraphAnswer;
    if (read) answer = await inflight.run(`${url}\n${init.headers.authorization ?? ""}\n${body}`, () => fetchWithinDeadline(url, init));
    else {
      // read-your-writes: no query asked after a mutation joins one that started before it
      inflight.forget();
      answer = await fetchWithinDeadline(url, init).finally(() => inflight.forget());
    }
    return answerResponse(url, answer);
  };
}

/**
 * What the data source reads of a fetch's response (ok, status, statusText, url, headers, text,
 * json), over the answer already read: a `new Response` would turn the text back into a stream
 * of bytes for the data source to decode and parse again, on every subgraph fetch.
 */
function answerResponse(url: string, answer: SubgraphAnswer): Response {
  const response = {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    statusText: answer.statusText,
    url,
    headers: answer.headers,
    redirected: false,
    bodyUsed: false,
    text: async () => answer.text,
    json: async () => JSON.parse(answer.text) as unknown,
    clone: () => answerResponse(url, answer),
  };
  return response as unknown as Response;
}

function hasGraphQLErrors(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    return Array.isArray(body.errors) && body.errors.length > 0;
  } catch {
    return false;
  }
}

class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly name: string,
    url: string,
    private readonly secret: string | null,
    inflight: InFlight<SubgraphAnswer>,
  ) {
    // Node's fetch (undici) rather than the default make-fetch-happen agent: that agent keeps idle
    // sockets forever, so after a pause longer than the subgraph server's keep-alive timeout (5 s)
    // a request could go out on a socket the server was closing (ECONNRESET, "socket hang up").
    // undici honours the server's `Keep-Alive: timeout=5` and retires sockets before it.
    super({ url, fetcher: subgraphFetcher(inflight) as unknown as RemoteGraphQLDataSource["fetcher"] });
  }

  /** A fetch the operation already started with its root fetch (speculate.ts) is answered by it. */
  override process(options: GraphQLDataSourceProcessOptions<GatewayContext>): ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]> {
    const started = claimSpeculation(this.name, options as GraphQLDataSourceProcessOptions);
    if (started) return started as ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]>;
    // a split part's errors are the whole root fetch's to report (speculate.ts)
    if (options.request.operationName?.endsWith(SPLIT_PART)) return super.process(options).then(({ errors: _dropped, ...rest }) => rest);
    return super.process(options);
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    // `context` is empty for the gateway's own requests (health checks, introspection)
    if (context && "subgraphFetches" in context) {
      context.subgraphFetches++;
      if (context.authorization) request.http?.headers.set("authorization", context.authorization);
      if (!/^\s*mutation\b/.test(request.query ?? "")) request.http?.headers.set(OPERATION_HEADER, context.operationId);
      request.http?.headers.set(DEADLINE_HEADER, String(Math.max(0, Math.floor(context.deadline - performance.now()))));
    }
    if (this.secret) request.http?.headers.set(SUBGRAPH_SECRET_HEADER, this.secret);
  }
}

export async function startGateway(config: GatewayConfig, logger = new Logger("gateway", config.logLevel)): Promise<RunningGateway> {
  const urlOf = (name: string): string => {
    if (!(SUBGRAPH_NAMES as readonly string[]).includes(name)) throw new Error(`unknown subgraph "${name}" in the supergraph`);
    return config.subgraphUrls[name as SubgraphName];
  };
  // Left on, @apollo/gateway sends anonymous usage metrics to Apollo and probes cloud metadata
  // addresses at start-up. A facade over a company's directory does not call out unless told to.
  process.env.APOLLO_TELEMETRY_DISABLED ??= "true";
  // one for every subgraph: a mutation of one subgraph may change what another answers
  const inflight = new InFlight<SubgraphAnswer>((err) => err instanceof DeadlineExceededError);
  const gateway = new ApolloGateway({
    supergraphSdl:
      config.compose === "introspect"
        ? new IntrospectAndCompose({
            subgraphs: SUBGRAPH_NAMES.map((name) => ({ name, url: config.subgraphUrls[name] })),
          })
        : await readSupergraph(config.supergraphPath, config.prefix),
    buildService: ({ name }) => new SubgraphDataSource(name, urlOf(name), config.subgraphSecret, inflight),
    // entity fetches a root lookup by id makes predictable start with the root fetch (speculate.ts)
    // and the later entity fetches of GATEWAY_PREFETCH's subgraphs are announced to them at once,
    // and a root lookup's fetch is split so that what later fetches need answers first
    experimental_didResolveQueryPlan: (options) => speculate(options as unknown as Parameters<typeof speculate>[0], config.prefetch, config.splitRootFetch),
    // the gateway's own info messages (schema loaded, ...) go to debug: at info, the log is one
    // line per operation
    logger: {
      debug: (m) => logger.debug(String(m)),
      info: (m) => logger.debug(String(m)),
      warn: (m) => logger.warn(String(m)),
      error: (m) => logger.error(String(m)),
    },
  });

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: !config.production,
    includeStacktraceInErrorResponses: config.debugErrors,
    hideSchemaDetailsFromClientErrors: config.production && !config.debugErrors,
    formatError: formatErrorHygienically({ logger, production: config.production, debug: config.debugErrors }),
    // the process that runs the gateway owns shutdown (close the HTTP server, then stop): Apollo's
    // own SIGTERM handler would stop it under in-flight requests and re-raise the signal
    stopOnTerminationSignals: false,
    plugins: [
      // the exploration pages are served by explore.ts, one per operation
      ApolloServerPluginLandingPageDisabled(),
      unknownOperationIsClientError<GatewayContext>(),
      ...(config.auth === "forward" ? [requireCredentials()] : []),
      // the subgraphs' argument checks, run on the whole operation before the first subgraph fetch,
      // so that a bad argument of a field planned after another subgraph's fetch costs nothing
      inputChecks<GatewayContext>({ ids: currentApiId, fields: { ...legacyTimeFieldChecks, ...edgeOwnFilterChecks }, prefix: config.prefix }),
      operationLog<GatewayContext>(logger, (ctx) => ({ subgraphFetches: ctx.subgraphFetches })),
    ],
  });
  // the limits are measured against the API schema the gateway serves (list fields, `first`)
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema: loaded }) => {
    apiSchema = loaded;
  });
  const checkLimits = operationGuard(config.limits, () => apiSchema, logger);
  await apollo.start();
  const exploration = await createExploration(config);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://gateway.local").pathname;
    if (path === "/health") return sendJson(res, 200, { status: "ok" });
    if (path === "/ready") {
      const subgraphs = await checkSubgraphs(config);
      const ready = Object.values(subgraphs).every((s) => s === "ok");
      return sendJson(res, ready ? 200 : 503, { status: ready ? "ready" : "unavailable", subgraphs });
    }
    if (await exploration.handle(req, res, path)) return;
    if (path !== "/" && path !== "/graphql") return sendJson(res, 404, { errors: [{ message: "Not found" }] });
    if (handleCors(config.corsOrigins, req, res)) return;
    const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization : undefined;
    await serveGraphQL(apollo, req, res, async () => ({ authorization, operationId: randomUUID(), subgraphFetches: 0, deadline: performance.now() + config.deadlineMs }), checkLimits);
  }

  let http: HttpListener;
  try {
    http = await listen(handle, { port: config.port, host: config.host, logger });
  } catch (err) {
    await apollo.stop();
    throw err;
  }

  return {
    url: `${http.origin}/`,
    port: http.port,
    async close() {
      await http.close();
      await apollo.stop();
    },
  };
}

async function readSupergraph(path: string, prefix: string | null): Promise<string> {
  let sdl: string;
  try {
    sdl = await readFile(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read the supergraph ${path} (GATEWAY_SUPERGRAPH): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  // subgraphs namespaced otherwise than the supergraph would answer every operation with errors
  const employee = `${prefix ?? ""}Employee`;
  if (!new RegExp(`^type ${employee}\\b`, "m").test(sdl)) {
    throw new Error(
      `the supergraph ${path} does not match GRAPH_PREFIX=${prefix ?? ""} (it has no type ${employee}): ` +
        "compose one from subgraphs built with the same GRAPH_PREFIX, or set GATEWAY_SUPERGRAPH",
    );
  }
  return sdl;
}

/** `/ready`: every subgraph answers its `/health`. */
async function checkSubgraphs(config: GatewayConfig): Promise<Record<SubgraphName, string>> {
  const entries = await Promise.all(
    SUBGRAPH_NAMES.map(async (name) => {
      const health = new URL("/health", config.subgraphUrls[name]);
      try {
        const res = await fetch(health, { signal: AbortSignal.timeout(2000) });
        return [name, res.ok ? "ok" : `status ${res.status}`] as const;
      } catch (err) {
        return [name, (err as Error).name === "TimeoutError" ? "timeout" : "unreachable"] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<SubgraphName, string>;
}

/** Forward mode: an operation that reads data needs the caller's bearer token. */
function requireCredentials(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document, operationName }) {
          if (/^Bearer\s+\S+/i.test(contextValue.authorization ?? "")) return;
          if (isIntrospectionOnly(document, operationName)) return;
          throw new GraphQLError("A bearer token is required: send `Authorization: Bearer <token>` of the directory service", {
            extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } },
          });
        },
      };
    },
  };
}

function isIntrospectionOnly(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  if (!operation || operation.operation !== "query") return false;
  return operation.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && (s.name.value === "__schema" || s.name.value === "__type" || s.name.value === "__typename"),
  );
}
