import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { ApolloServerPluginInlineTrace } from "@apollo/server/plugin/inlineTrace";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import type { GraphQLSchema } from "graphql";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";
import { Logger } from "../../../platform/log.js";
import { listen, sendJson, serveGraphQL } from "../../../platform/http.js";
import { formatErrorHygienically, unknownOperationIsClientError } from "../../../platform/errors.js";
import { DEFAULT_OPERATION_LIMITS, operationGuard, type OperationLimits } from "../../../platform/limits.js";
import { operationLog } from "../../../platform/operation-log.js";
import { CALLER_PATH, DEADLINE_HEADER, OPERATION_HEADER, SUBGRAPH_SECRET_HEADER } from "../../../platform/headers.js";
import { OperationScopes } from "./operation-scope.js";
import { guardEntities } from "./entities.js";
import { verifiedCursorPayload } from "./cursors.js";
import { currentApiId, inputChecks, type FieldChecks, type IdRule } from "../../../platform/input-checks.js";
import { fieldRuleChecks, type FieldRules } from "../../../platform/field-rules.js";
import { toGraphQLError, type LoaderScope, type Upstream, type UpstreamSession } from "../upstream/index.js";
import { ErrorCode, errorBody } from "../../../platform/error-codes.js";
import { processMetrics } from "../../../platform/metrics.js";
import type { Lifecycle } from "../../../platform/lifecycle.js";
import { cachedCheck } from "../../../platform/readiness.js";
import type { ChangeFeed } from "../events/feed.js";
import { STREAM_PATH, subscriptionStream } from "./subscriptions.js";
import { operationSelections, type OperationSelections } from "./embedded.js";
import { fileLinkMinter, filesBaseOf, serveFileLink, type FileLinkMinter } from "./files.js";
import { FILES_PATH, FileLinks } from "../../../platform/file-links.js";

/** The GraphQL context of one request: its upstream session and its loaders, never shared. */
export interface SubgraphContext {
  upstream: UpstreamSession;
  /** the request's loaders: the session's own, or those of the gateway operation it is part of (operation-scope.ts) */
  loaders: LoaderScope;
  /** the server's logger (the audit lines of writes) */
  logger?: Logger;
  /** mints the links of the request's file fields (files.ts): absent outside a server (a resolver then answers no link) */
  files?: FileLinkMinter;
  /** what the operation selects, set once it is known to run (embedded.ts) */
  operation?: OperationSelections;
  /** SUBGRAPH_MECHANISMS_OFF: the round-saving mechanisms turned off, for measuring them */
  mechanismsOff?: ReadonlySet<string>;
  /** on a subscription (subscriptions.ts): the process's change feed, the bound of a subscriber's queue, and a fresh context per event */
  changes?: { feed: ChangeFeed; queue: number; eventContext: () => SubgraphContext };
}

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
  /** SUBGRAPH_LANDING_PAGE=sandbox: Apollo Sandbox for a browser at `/graphql` (default: none) */
  landingPage?: boolean;
  logger?: Logger;
  /** GRAPHQL_MAX_*: the operation limits, the gateway's own (default DEFAULT_OPERATION_LIMITS) */
  limits?: OperationLimits;
  /** NODE_ENV=production: no "Did you mean" suggestions in errors */
  production?: boolean;
  /** GRAPHQL_DEBUG_ERRORS: unmasked errors with stack traces (never in production use) */
  debugErrors?: boolean;
  /** the rule of the ids this subgraph's arguments carry (default: the current API's) */
  ids?: IdRule;
  /** the id rule of particular fields' arguments by coordinate, where it is not `ids` */
  idsByField?: Readonly<Record<string, IdRule>>;
  /** argument rules of particular fields, run before the operation (field-rules.ts, input-checks.ts) */
  fieldRules?: FieldRules;
  /** argument checks of particular fields, run before the operation after their rules (input-checks.ts) */
  fieldChecks?: FieldChecks;
  /** GRAPH_PREFIX the schema was built with, so that the input checks know its names */
  prefix?: string | null;
  /** the process's lifecycle, when this subgraph faces callers itself (platform/lifecycle.ts) */
  lifecycle?: Lifecycle;
  /**
   * routes beside GraphQL, by path, answered without the subgraph secret (the directory's event
   * deliveries, which carry their own signature)
   */
  routes?: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;
  /** the process's change feed: with it, the schema's subscriptions are served at STREAM_PATH (subscriptions.ts) */
  changes?: { feed: ChangeFeed; queue: number };
}

export interface RunningSubgraph {
  name: string;
  /** the GraphQL endpoint, `http://127.0.0.1:4001/graphql` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves one subgraph over HTTP: GraphQL at `/` and `/graphql`, liveness at `/health`, readiness at
 * `/ready` (serving, not draining), its upstream's state at `/health/upstream` and in `upstream_up`
 * (platform/readiness.ts).
 */
export async function startSubgraph(options: SubgraphServerOptions): Promise<RunningSubgraph> {
  const logger = options.logger ?? new Logger(options.name);
  const ids = options.ids ?? currentApiId;
  // representations carry the current API's ids whatever the subgraph's own ids are
  guardEntities(options.schema, { max: options.upstream.config.maxRepresentations, ids: currentApiId });
  const apollo = new ApolloServer<SubgraphContext>({
    schema: options.schema,
    introspection: true,
    includeStacktraceInErrorResponses: options.debugErrors ?? false,
    hideSchemaDetailsFromClientErrors: (options.production ?? false) && !options.debugErrors,
    // the process's own SIGINT/SIGTERM handlers close the HTTP server first (runSubgraphMain);
    // Apollo's would stop it and re-raise the signal before they finish
    stopOnTerminationSignals: false,
    // no APQ: the gateway sends whole documents, and a hash would be run without the operation
    // limits, which read the document before Apollo does (docs/security.md#every-request-path)
    persistedQueries: false,
    plugins: [
      // federated traces (ftv1) for a gateway or Apollo Router that asks for them with
      // `apollo-federation-include-trace: ftv1`; a request without that header costs nothing.
      // Error messages and extensions in a trace are masked: a trace must not show what the
      // answer's own error masking hides
      ApolloServerPluginInlineTrace({ includeErrors: { masked: true } }),
      // no field has a cache hint, so every answer is `no-store`: said once per response instead
      // of computing a cache policy in a hook around every field resolved (the default plugin)
      ApolloServerPluginCacheControlDisabled(),
      noStore(),
      options.landingPage ? ApolloServerPluginLandingPageLocalDefault({ embed: { runTelemetry: false, endpointIsEditable: false }, includeCookies: false }) : ApolloServerPluginLandingPageDisabled(),
      unknownOperationIsClientError<SubgraphContext>(),
      inputChecks<SubgraphContext>({
        ids,
        ...(options.idsByField ? { idsByField: options.idsByField } : {}),
        after: (cursor) => verifiedCursorPayload(options.upstream.cursors, cursor),
        fields: fieldRuleChecks(options.fieldRules ?? {}, options.fieldChecks),
        prefix: options.prefix,
      }),
      operationLog<SubgraphContext>(logger, (ctx) => ({ upstreamCalls: ctx.upstream?.calls.total ?? 0 })),
      // after every check: a refused operation never gets here and costs no call
      selections(options),
    ],
    // upstream failures get the graph's error codes; anything unexpected is logged and masked so
    // that no upstream body, token or stack trace reaches a caller
    formatError: formatErrorHygienically({ logger, production: options.production ?? false, debug: options.debugErrors ?? false, classify: toGraphQLError }),
  });
  await apollo.start();

  const secret = options.secret ? digest(options.secret) : null;
  const fileLinkConfig = options.upstream.config.fileLinks;
  const fileLinks = new FileLinks(fileLinkConfig?.secret ?? options.upstream.config.cursorSecret, fileLinkConfig?.ttlSeconds ?? 300);
  const scopes = new OperationScopes();
  // with a secret, every request that reaches the check comes from the gateway (handle() refuses
  // the others), whose batches of entity fetches count as the client operation they serve
  const checkLimits = operationGuard(options.limits ?? DEFAULT_OPERATION_LIMITS, () => options.schema, logger, { gatewayBatches: secret !== null });
  const upstreamCheck = cachedCheck(() => options.upstream.readiness(), options.upstream.config.readyIntervalMs);
  const unwatchCheck = processMetrics().watchUpstreamCheck(options.name, upstreamCheck);

  const stream = options.changes
    ? subscriptionStream({
        schema: options.schema,
        checkLimits,
        lifecycle: options.lifecycle,
        context: (authorization): SubgraphContext => {
          const changes = options.changes!;
          // each event is read in a context of its own: the record as it is now, with the subscriber's credentials
          const eventContext = (): SubgraphContext => {
            const upstream = options.upstream.session({ authorization, deadlineMs: options.upstream.config.deadlineMs });
            return { upstream, loaders: upstream.loaders, logger };
          };
          return { ...eventContext(), changes: { feed: changes.feed, queue: changes.queue, eventContext } };
        },
      })
    : null;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const received = performance.now();
    const url = new URL(req.url ?? "/", "http://subgraph.local");
    if (url.pathname === "/health") return sendJson(res, 200, { status: "ok", subgraph: options.name });
    // for the scraper, which carries no subgraph secret
    if (url.pathname === "/metrics" && !processMetrics().onOwnPort) return processMetrics().scrape(res);
    // draining answers 503 before this (platform/http.ts shutdownGate)
    if (url.pathname === "/ready") {
      // the gateway's probe carries its secret (empty for none): a gateway whose SUBGRAPH_SECRET
      // differs is told so, rather than count this subgraph ready and be refused every operation;
      // a probe without the header (the orchestrator's) is answered as before
      const sent = req.headers[SUBGRAPH_SECRET_HEADER];
      if (secret && sent !== undefined && !secretMatches(sent, secret)) {
        return sendJson(res, 403, { status: "forbidden", subgraph: options.name, reason: "SUBGRAPH_SECRET differs from this subgraph's" });
      }
      return sendJson(res, 200, { status: "ready", subgraph: options.name });
    }
    if (url.pathname === "/health/upstream") {
      const { ready, checks } = await upstreamCheck();
      return sendJson(res, ready ? 200 : 503, { status: ready ? "ok" : "unavailable", subgraph: options.name, upstream: checks });
    }
    const route = options.routes?.[url.pathname];
    if (route) return route(req, res);
    const filePath = url.pathname.startsWith(FILES_PATH);
    if (url.pathname !== "/" && url.pathname !== "/graphql" && url.pathname !== CALLER_PATH && !filePath && !(stream && url.pathname === STREAM_PATH)) {
      return sendJson(res, 404, { errors: [{ message: "Not found" }] });
    }
    // a file link is its own authorisation, with or without the subgraph secret: its seal binds the
    // target and the expiry, the gateway adds no right to it when it forwards it, and a link that
    // does not open is refused before any upstream call (files.ts). So a router other than the
    // gateway, which a browser's `<img src>` reaches without the secret, serves it too
    // (docs/gateways.md#file-links).
    if (filePath) return serveFileLink(req, res, fileLinks, options.upstream, logger);
    if (secret && !secretMatches(req.headers[SUBGRAPH_SECRET_HEADER], secret)) {
      return sendJson(res, 403, errorBody(ErrorCode.FORBIDDEN, "This subgraph only answers its gateway"));
    }
    const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization : undefined;
    // the gateway's check of a caller it has not seen (docs/security.md#unverified-tokens)
    if (url.pathname === CALLER_PATH) return sendJson(res, 200, { caller: await options.upstream.verifyCaller(authorization) });
    // its stream path, or a subscription sent to `/graphql` asking for a stream only (the way a
    // gateway's HTTP executor sends one: Hive Gateway's, docs/gateways.md#subscriptions-on-other-gateways)
    if (stream && (url.pathname === STREAM_PATH || req.headers.accept === "text/event-stream")) return stream(req, res);
    const files = fileLinkMinter(fileLinks, options.upstream, filesBaseOf(req, fileLinkConfig?.baseUrl ?? null, http.origin));
    const asked = deadlineOf(req.headers[DEADLINE_HEADER]) ?? options.upstream.config.deadlineMs;
    const operationId = req.headers[OPERATION_HEADER];
    let release = () => {};
    try {
      await serveGraphQL(apollo, req, res, async () => {
        // the deadline runs from the request's receipt: reading its body counts
        const deadlineMs = Math.max(0, Math.min(asked, options.upstream.config.deadlineMs) - (performance.now() - received));
        const upstream = options.upstream.session({ authorization, deadlineMs });
        // the loaders of the gateway operation this request is part of, when it says so (operation-scope.ts)
        const mechanismsOff = options.upstream.config.mechanismsOff;
        const shared = typeof operationId === "string" && !mechanismsOff?.has("operation-scope") ? operationId : undefined;
        const scope = scopes.acquire(shared, authorization, upstream.loaders, Math.min(deadlineMs, SCOPE_KEEP_MS));
        release = scope.release;
        return { upstream, loaders: scope.loaders, logger, files, mechanismsOff };
      }, checkLimits);
    } finally {
      release();
    }
  }

  const http = await listen(handle, { port: options.port, host: options.host || "127.0.0.1", logger, lifecycle: options.lifecycle });
  return {
    name: options.name,
    url: `${http.origin}/graphql`,
    port: http.port,
    async close() {
      unwatchCheck();
      await http.close();
      await apollo.stop();
    },
  };
}

/** Every answer `no-store`: no field has a cache hint (said once per response, see startSubgraph). */
function noStore(): ApolloServerPlugin<SubgraphContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          response.http.headers.set("cache-control", "no-store");
        },
      };
    },
  };
}

/** What the operation selects, for the embedded prefetch and the reads that start at once. */
function selections(options: SubgraphServerOptions): ApolloServerPlugin<SubgraphContext> {
  return {
    async requestDidStart() {
      return {
        async executionDidStart({ contextValue, document, schema }) {
          contextValue.operation = operationSelections(schema, document, options.prefix ?? null);
        },
      };
    },
  };
}

/** How long an operation's shared loaders outlive its last request at most (operation-scope.ts). */
const SCOPE_KEEP_MS = 5000;

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
