import { ApolloGateway, IntrospectAndCompose } from "@apollo/gateway";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { listen, sendJson, serveGraphQL, type HttpListener } from "../platform/http.js";
import { formatErrorHygienically, unknownOperationIsClientError } from "../platform/errors.js";
import { operationGuard } from "../platform/limits.js";
import { CALLER_PATH, SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { canonicalAuthorization, isBearer } from "../platform/credentials.js";
import { processMetrics } from "../platform/metrics.js";
import { responseRequestId } from "../platform/request-scope.js";
import { loadOperations, OPERATIONS_DIR } from "./operations.js";
import { randomUUID } from "node:crypto";
import { Logger } from "../platform/log.js";
import { InFlight } from "../platform/inflight.js";
import { processLifecycle } from "../platform/lifecycle.js";
import { cachedCheck, probeUrl, type Readiness } from "../platform/readiness.js";
import { operationLog } from "../platform/operation-log.js";
import { currentApiId, inputChecks } from "../platform/input-checks.js";
import { checkCursorShape } from "../platform/user-input.js";
import { argumentRefusalsAsRequestErrors } from "./argument-refusals.js";
import { fileRoute } from "./files.js";
import { FILES_PATH } from "../platform/file-links.js";
import { fieldRuleChecks, parseFieldRules } from "../platform/field-rules.js";
import committedFieldRules from "../schema/field-checks.json" with { type: "json" };
import { SUBGRAPH_NAMES, type GatewayConfig, type SubgraphName } from "./config.js";
import { handleCors } from "./cors.js";
import { GATEWAY_STREAM_PATH, subscriptionService } from "./subscriptions.js";
import { createExploration } from "./explore.js";
import { ErrorCode } from "../platform/error-codes.js";
import { introspectionOnly, readManifest, trustedDocuments } from "./trusted-documents.js";
import { ApqStore } from "./apq-store.js";
import { apolloSeams } from "./apollo/seams.js";
import { identicalOperations } from "./identical-operations.js";
import { DeadlineExceededError, post, subgraphFetcher, type SubgraphAnswer } from "./subgraph-fetch.js";
import type { GatewayContext } from "./subgraph-source.js";
import { rateLimitGate, type CallerVerdict } from "./rate-limits.js";
import { RefusedTokens } from "../platform/refused-tokens.js";
import { SharedState } from "../platform/shared-state.js";

/**
 * The gateway: composes the three subgraphs (from the committed supergraph, or by introspecting
 * the live subgraphs), serves Apollo Sandbox at `/` and an offline explorer at `/explorer` outside
 * production (explore.ts), answers browser frontends of the allowed origins (cors.ts), forwards
 * the caller's credentials and the shared subgraph secret, and answers `/health` and `/ready`.
 */

export interface RunningGateway {
  /** `http://127.0.0.1:4000/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The subgraphs' field rules (an edge's own filter, the time-entry ranges), by coordinate without
 * GRAPH_PREFIX: `npm run schema` writes them from the subgraphs' declarations, so that the gateway
 * applies them without loading anything of `subgraphs/`; a table that is not one stops the start.
 */
const FIELD_RULES = parseFieldRules(committedFieldRules, "schema/field-checks.json");

/** What a test may inject: the versions gateway/apollo/'s check reads (apollo/seams.ts). */
export interface GatewayInjections {
  apolloVersions?: { gateway: string; queryPlanner: string };
}

export async function startGateway(config: GatewayConfig, logger = new Logger("gateway", config.logLevel), injected: GatewayInjections = {}): Promise<RunningGateway> {
  // the state the replicas share (REDIS_URL): APQ documents, refused tokens, per-client limits
  const shared = new SharedState(config.shared, logger);
  const refusedTokens = new RefusedTokens(config.auth === "forward" ? config.refusedTokenTtlSeconds : 0, shared);
  const gateway = await apolloGateway(config, logger, refusedTokens, injected);
  // one store for Apollo Server and for the admission step that reads a hash's document before it
  const apqStore = new ApqStore(shared, config.apqTtlSeconds, config.apqCacheBytes);

  const apollo = new ApolloServer<GatewayContext>({
    gateway,
    introspection: !config.production,
    includeStacktraceInErrorResponses: config.debugErrors,
    hideSchemaDetailsFromClientErrors: config.production && !config.debugErrors,
    formatError: formatErrorHygienically({ logger, production: config.production, debug: config.debugErrors }),
    // the process that runs the gateway owns shutdown (close the HTTP server, then stop): Apollo's
    // own SIGTERM handler would stop it under in-flight requests and re-raise the signal
    stopOnTerminationSignals: false,
    // APQ, shared by every gateway replica through Redis when there is one (apq-store.ts)
    persistedQueries: { cache: apqStore, ttl: config.apqTtlSeconds },
    plugins: [
      // the exploration pages are served by explore.ts, one per operation
      ApolloServerPluginLandingPageDisabled(),
      unknownOperationIsClientError<GatewayContext>(),
      ...(config.auth === "forward" ? [requireCredentials()] : []),
      // the subgraphs' argument checks, run on the whole operation before the first subgraph fetch,
      // so that a bad argument of a field planned after another subgraph's fetch costs nothing; their
      // field rules from the table `npm run schema` writes (docs/graph.md#field-rules)
      inputChecks<GatewayContext>({ ids: currentApiId, after: (cursor) => checkCursorShape(cursor), fields: fieldRuleChecks(FIELD_RULES), prefix: config.prefix }),
      // an argument a subgraph refused answers as one the checks above refused (argument-refusals.ts)
      argumentRefusalsAsRequestErrors<GatewayContext>(),
      // after every check: an identical query of the same caller in flight answers this one
      identicalOperations<GatewayContext>((ctx) => ctx.deadline),
      operationLog<GatewayContext>(logger, (ctx) => ({ subgraphFetches: ctx.subgraphFetches })),
    ],
  });
  // the limits are measured against the API schema the gateway serves (list fields, `first`)
  let apiSchema: GraphQLSchema | undefined;
  gateway.onSchemaLoadOrUpdate(({ apiSchema: loaded }) => {
    apiSchema = loaded;
  });
  const checkLimits = operationGuard(config.limits, () => apiSchema, logger);
  // the frontends' operations are always metric labels of their own (metrics.ts caps the others);
  // a deployment without `operations/` only has the capped ones
  if (existsSync(OPERATIONS_DIR)) processMetrics().knowOperations(loadOperations().map((o) => o.name));
  const forward = config.auth === "forward";
  const meter = rateLimitGate({
    limits: config.rateLimits,
    forward,
    shared,
    refusedTokens,
    ...(forward ? { verifyCaller: callerVerifier(config), acceptedTtlSeconds: config.refusedTokenTtlSeconds } : {}),
  });
  const admit = trustedDocuments({
    mode: config.trustedDocuments,
    manifest: readManifest(config.trustedDocumentsManifest),
    introspection: !config.production,
    logger,
    apq: (hash) => apqStore.document(hash),
  });
  await apollo.start();
  // subscriptions: the same gates, then the owning subgraph's stream and each event's node through this Apollo (subscriptions.ts)
  const subscriptions = subscriptionService({
    apollo,
    schema: () => apiSchema,
    admit,
    checkLimits,
    meter,
    clientOf: meter.clientOf,
    filesBase: (req) => config.publicUrl ?? requestOrigin(req, http.origin),
    ownerUrl: config.subgraphUrls.people,
    secret: config.subgraphSecret,
    forward,
    deadlineMs: config.deadlineMs,
    settings: config.subscriptions,
    logger,
  });
  // as the stop begins, not at its end: an open stream would hold the drain to its deadline
  const unwatchStop = processLifecycle.onStop(() => subscriptions.drain());
  const exploration = await createExploration(config);
  const checkSubgraphs = subgraphsCheck(config, logger);
  const readiness = cachedCheck(checkSubgraphs, config.readyIntervalMs ?? 0);
  // once at start, outside the kept answer, so that a SUBGRAPH_SECRET that differs is logged even
  // where nothing probes
  void checkSubgraphs();
  const serveFile = fileRoute({ subgraphUrl: config.subgraphUrls.people, secret: config.subgraphSecret, logger, meter: meter.request });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://gateway.local").pathname;
    if (path === "/health") return sendJson(res, 200, { status: "ok" });
    if (path === "/metrics" && !processMetrics().onOwnPort) return processMetrics().scrape(res);
    if (path === "/ready") {
      const { ready, checks } = await readiness();
      return sendJson(res, ready ? 200 : 503, { status: ready ? "ready" : "unavailable", subgraphs: checks });
    }
    if (await exploration.handle(req, res, path)) return;
    // file links (gateway/files.ts): forwarded to the subgraph that opens them and streams the bytes
    if (path.startsWith(FILES_PATH)) return serveFile(req, res, path);
    if (path !== "/" && path !== "/graphql" && path !== GATEWAY_STREAM_PATH) return sendJson(res, 404, { errors: [{ message: "Not found" }] });
    if (handleCors(config.corsOrigins, req, res, config.corsAllowedHeaders)) return;
    if (path === GATEWAY_STREAM_PATH) return subscriptions.sse(req, res);
    // forwarded as the directory reads it, one spelling per token (platform/credentials.ts)
    const authorization = canonicalAuthorization(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined);
    await serveGraphQL(apollo, req, res, async () => ({ authorization, filesBase: config.publicUrl ?? requestOrigin(req, http.origin), operationId: randomUUID(), subgraphFetches: 0, deadline: performance.now() + config.deadlineMs, requestId: responseRequestId(res) }), checkLimits, { admit, meter, requestErrors4xx: true });
  }

  let http: HttpListener;
  let webSocket: { close(): Promise<void> } | null = null;
  try {
    // its log lines are given the request id (request-scope.ts): none is kept for its requests' code
    http = await listen(handle, { port: config.port, host: config.host, logger, lifecycle: processLifecycle, implicitScope: false });
    webSocket = subscriptions.attachWebSocket(http.server);
  } catch (err) {
    unwatchStop();
    await apollo.stop();
    await shared.close();
    throw err;
  }

  return {
    url: `${http.origin}/`,
    port: http.port,
    async close() {
      // the drain: every subscription has ended cleanly (a `complete`) as the stop began; a close without a signal ends them here
      unwatchStop();
      subscriptions.drain();
      await webSocket?.close();
      await http.close();
      await apollo.stop();
      await shared.close();
    },
  };
}

/**
 * The origin a request reached the gateway at, for the file links of its answer when
 * GATEWAY_PUBLIC_URL is unset: its `Host` (a host name or address and a port, nothing else), else
 * the listener's own origin. A made-up `Host` only changes the links of its own answer.
 */
function requestOrigin(req: IncomingMessage, own: string): string {
  const host = req.headers.host;
  return typeof host === "string" && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : own;
}

/** The gateway proper: the supergraph, a data source per subgraph, and gateway/apollo/'s patches where they apply (apollo/seams.ts). */
async function apolloGateway(config: GatewayConfig, logger: Logger, refusedTokens: RefusedTokens, injected: GatewayInjections): Promise<ApolloGateway> {
  const urlOf = (name: string): string => {
    if (!(SUBGRAPH_NAMES as readonly string[]).includes(name)) throw new Error(`unknown subgraph "${name}" in the supergraph`);
    return config.subgraphUrls[name as SubgraphName];
  };
  // Left on, @apollo/gateway sends anonymous usage metrics to Apollo and probes cloud metadata
  // addresses at start-up. A facade over a company's directory does not call out unless told to.
  process.env.APOLLO_TELEMETRY_DISABLED ??= "true";
  // one for every subgraph: a mutation of one subgraph may change what another answers
  const inflight = new InFlight<SubgraphAnswer>((err) => err instanceof DeadlineExceededError);
  const rememberRefusedToken = async (init: { headers: Record<string, string> }, answer: SubgraphAnswer) => {
    // forward mode: a subgraph's answer says the directory refused the caller's token with 401
    const authorization = init.headers.authorization;
    if (config.auth === "forward" && authorization && answer.text.includes("UNAUTHENTICATED") && directoryRefusedToken(answer.text)) {
      await refusedTokens.remember(authorization);
    }
  };
  const seams = apolloSeams({ maxBatch: config.limits.rootFields, versions: injected.apolloVersions }, logger);
  return new ApolloGateway({
    supergraphSdl:
      config.compose === "introspect"
        ? new IntrospectAndCompose({
            subgraphs: SUBGRAPH_NAMES.map((name) => ({ name, url: config.subgraphUrls[name] })),
          })
        : await readSupergraph(config.supergraphPath, config.prefix),
    buildService: ({ name }) => seams.dataSource(name, urlOf(name), config.subgraphSecret, subgraphFetcher(name, inflight, rememberRefusedToken)),
    // its OpenTelemetry spans (gateway.request, .plan, .fetch...; docs/observability.md) without
    // the operation's text or the errors' messages, which may carry the caller's values
    telemetry: { includeDocument: false, recordExceptions: false },
    // the gateway's own info messages (schema loaded, ...) go to debug: at info, the log is one
    // line per operation
    logger: {
      debug: (m) => logger.debug(String(m)),
      info: (m) => logger.debug(String(m)),
      warn: (m) => logger.warn(String(m)),
      error: (m) => logger.error(String(m)),
    },
  });
}

/**
 * A subgraph's answer carries the directory's 401 for the caller's token: an error whose code is
 * UNAUTHENTICATED and whose upstream status is 401 (subgraphs/shared/upstream/errors.ts). Read
 * from the errors only, never from the answer's text, which a caller's aliases and values can fill.
 */
function directoryRefusedToken(text: string): boolean {
  let errors: unknown;
  try {
    errors = (JSON.parse(text) as { errors?: unknown }).errors;
  } catch {
    return false;
  }
  return (
    Array.isArray(errors) &&
    errors.some((e: { extensions?: { code?: unknown; upstream?: { status?: unknown } } } | null) => e?.extensions?.code === ErrorCode.UNAUTHENTICATED && e.extensions.upstream?.status === 401)
  );
}

/**
 * Forward mode: whether the directory knows a token, asked of the people subgraph's CALLER_PATH
 * (one directory call at most) before an operation of a token not seen a moment ago fans out
 * (docs/security.md#unverified-tokens). A subgraph that cannot say (unreachable, another team's
 * without the route) leaves the operation to the subgraphs' own checks.
 */
function callerVerifier(config: GatewayConfig): (authorization: string) => Promise<CallerVerdict> {
  const url = new URL(CALLER_PATH, config.subgraphUrls.people).href;
  return async (authorization) => {
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    if (config.subgraphSecret) headers[SUBGRAPH_SECRET_HEADER] = config.subgraphSecret;
    try {
      const answer = await post(url, { method: "GET", headers }, performance.now() + config.deadlineMs, true);
      const caller = answer.status === 200 ? (JSON.parse(answer.text) as { caller?: unknown }).caller : undefined;
      return caller === "accepted" || caller === "refused" ? caller : "unknown";
    } catch {
      return "unknown";
    }
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

/**
 * `/ready` (platform/readiness.ts): every subgraph answers its `/ready` (started, not draining; a
 * subgraph's upstream is not part of it). A subgraph that has no `/ready` (another team's, 404)
 * counts as ready when its `/health` answers. The probe carries the gateway's SUBGRAPH_SECRET (empty
 * for none): a subgraph whose own differs answers 403, which would refuse every operation as
 * FORBIDDEN, so the gateway is not ready and says why in its log, once per subgraph until it agrees.
 */
function subgraphsCheck(config: GatewayConfig, logger: Logger): () => Promise<Readiness> {
  const headers = { [SUBGRAPH_SECRET_HEADER]: config.subgraphSecret ?? "" };
  const refusing = new Set<SubgraphName>();
  const probe = async (name: SubgraphName, path: string): Promise<string> => {
    const state = await probeUrl(new URL(path, config.subgraphUrls[name]), 2000, headers);
    if (state === "status 404" && path === "/ready") return probe(name, "/health");
    if (state !== "status 403") {
      refusing.delete(name);
      return state;
    }
    if (!refusing.has(name)) {
      refusing.add(name);
      logger.error("a subgraph refuses this gateway's SUBGRAPH_SECRET: every operation it takes part in answers FORBIDDEN; set the same SUBGRAPH_SECRET on the gateway and every subgraph", {
        subgraph: name,
        setting: "SUBGRAPH_SECRET",
        gatewayHasSecret: config.subgraphSecret !== null,
      });
    }
    return "forbidden: SUBGRAPH_SECRET differs";
  };
  return async () => {
    const entries = await Promise.all(SUBGRAPH_NAMES.map(async (name) => [name, await probe(name, "/ready")] as const));
    return { ready: entries.every(([, state]) => state === "ok"), checks: Object.fromEntries(entries) };
  };
}

/** Forward mode: an operation that reads data needs the caller's bearer token. */
function requireCredentials(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, document, operationName }) {
          if (isBearer(contextValue.authorization)) return;
          if (introspectionOnly(document, operationName)) return;
          throw new GraphQLError("A bearer token is required: send `Authorization: Bearer <token>` of the directory service", {
            extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } },
          });
        },
      };
    },
  };
}
