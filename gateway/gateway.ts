import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { createBatchingExecutor, getBatchingExecutor } from "@graphql-tools/batch-execute";
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { GraphQLError, Kind, parse, print, type DocumentNode, type FieldNode, type GraphQLSchema } from "graphql";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { LRUCache } from "lru-cache";
import { keepAliveAgents, wroteToClosedSocket } from "../platform/keep-alive.js";
import { listen, sendJson, serveGraphQL, type HttpListener } from "../platform/http.js";
import { formatErrorHygienically, unknownOperationIsClientError } from "../platform/errors.js";
import { operationGuard } from "../platform/limits.js";
import { CALLER_PATH, DEADLINE_HEADER, LOAD_HEADER, OPERATION_HEADER, REQUEST_ID_HEADER, SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { canonicalAuthorization, isBearer } from "../platform/credentials.js";
import { processMetrics } from "../platform/metrics.js";
import { processLoad, type LoadMeter } from "../platform/load.js";
import { endClientSpan, injectTraceContext, responseRequestId, startClientSpan } from "../platform/request-scope.js";
import { loadOperations, OPERATIONS_DIR } from "./operations.js";
import { randomUUID } from "node:crypto";
import { Logger } from "../platform/log.js";
import { InFlight } from "../platform/inflight.js";
import { processLifecycle } from "../platform/lifecycle.js";
import { cachedCheck, probeUrl, type Readiness } from "../platform/readiness.js";
import { operationLog } from "../platform/operation-log.js";
import { currentApiId, inputChecks } from "../platform/input-checks.js";
import { fieldRuleChecks, parseFieldRules } from "../platform/field-rules.js";
import committedFieldRules from "../schema/field-checks.json" with { type: "json" };
import { SUBGRAPH_NAMES, type GatewayConfig, type SubgraphName } from "./config.js";
import { handleCors } from "./cors.js";
import { createExploration } from "./explore.js";
import { ErrorCode } from "../platform/error-codes.js";
import { claimSpeculation, speculate, SpeculationBrake, SPLIT_PART, type SpeculationContext } from "./speculate.js";
import { introspectionOnly, readManifest, trustedDocuments } from "./trusted-documents.js";
import { ApqStore } from "./apq-store.js";
import { identicalOperations } from "./identical-operations.js";
import { installResultShaping } from "./result-shaping.js";
import { distinctRepresentations, expandEntities } from "./representations.js";
import { rateLimitGate, type CallerVerdict } from "./rate-limits.js";
import { RefusedTokens } from "../platform/refused-tokens.js";
import { SharedState } from "../platform/shared-state.js";

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
  /** the request's id (x-request-id), passed to the subgraphs */
  requestId?: string;
  /** when the operation's time is up (`performance.now()` time) */
  deadline: number;
}

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

/** The operation's time is up: what the client sees for the parts that were not fetched in time. */
export class DeadlineExceededError extends GraphQLError {
  constructor() {
    super("The operation's deadline was exceeded before this subgraph answered", { extensions: { code: ErrorCode.DEADLINE_EXCEEDED } });
  }
}

/**
 * A mutation fetch that was sent and got no answer (the operation's deadline passed, the
 * connection dropped, a proxy's 502 or 504): the subgraph may have applied the write, so the
 * client is told so, and what to do, rather than DEADLINE_EXCEEDED or SUBGRAPH_UNAVAILABLE, which
 * would invite a blind retry (docs/graph.md#error-codes).
 */
export class WriteOutcomeUnknownError extends GraphQLError {
  constructor(subgraph: string) {
    super(`The ${subgraph} subgraph did not answer this write in time; it may or may not have been applied: read the item again before retrying`, {
      extensions: { code: ErrorCode.WRITE_OUTCOME_UNKNOWN, subgraph },
    });
  }
}

/**
 * What a mutation fetch leaves its subgraph of the operation's time: its deadline ends this much
 * before the gateway's, so that the subgraph's own account of the write (applied, refused,
 * WRITE_OUTCOME_UNKNOWN once its retries are cut) comes back before the gateway stops waiting.
 * A fifth of the time left, at most a second.
 */
function writeDeadlineMs(remaining: number): number {
  return Math.max(1, Math.floor(remaining - Math.min(1000, remaining / 5)));
}

/** connection errors raised before anything of the request was sent: a write that meets one was not applied */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** A request written to a kept-alive socket the subgraph had closed: it never read it (platform/keep-alive.ts). */
class UnreadRequestError extends Error {}

/**
 * A subgraph that cannot be reached (connection refused or reset, DNS) or answers 502, 503 or 504
 * (a proxy's, or its own while it stops): the client sees which part of the graph is missing and
 * that retrying may help, never the subgraph's address (docs/graph.md#error-codes).
 */
export class SubgraphUnavailableError extends GraphQLError {
  constructor(subgraph: string) {
    super(`The ${subgraph} subgraph cannot be reached; retry later`, { extensions: { code: ErrorCode.SUBGRAPH_UNAVAILABLE, subgraph, retryable: true } });
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
async function fetchWithinDeadline(subgraph: string, url: string, init: RequestInit & { headers: Record<string, string> }, read: boolean): Promise<SubgraphAnswer> {
  const header = init.headers[DEADLINE_HEADER];
  const remaining = header === undefined ? undefined : Number(header);
  // nothing sent yet: the deadline is the truth, even for a write
  if (remaining !== undefined && remaining <= 0) throw new DeadlineExceededError();
  const deadline = remaining === undefined ? undefined : performance.now() + remaining;
  // the data source sends `{"query":"mutation ...`: the fetch of a plan's mutation fields
  const write = typeof init.body === "string" && init.body.startsWith('{"query":"mutation');
  if (write && remaining !== undefined) init.headers[DEADLINE_HEADER] = String(writeDeadlineMs(remaining));
  let answer: SubgraphAnswer;
  const metrics = processMetrics();
  const stopTimer = metrics.subgraphFetchDuration.startTimer({ subgraph });
  // the hop's CLIENT span, under @apollo/gateway's (INTERNAL) `gateway.fetch`: one per request sent
  const span = startClientSpan("POST", subgraphTarget(url), { "directory_graph.subgraph": subgraph }, init.headers);
  try {
    answer = await post(url, init, deadline, read);
  } catch (err) {
    const timeout = err instanceof DeadlineExceededError;
    endClientSpan(span, { failure: timeout ? "timeout" : "unreachable" });
    metrics.subgraphFetches.inc({ subgraph, status: timeout ? "timeout" : "error" });
    stopTimer();
    if (write && !(err instanceof UnreadRequestError) && !NOT_SENT.has((err as NodeJS.ErrnoException).code ?? "")) throw new WriteOutcomeUnknownError(subgraph);
    if (timeout) throw err;
    // the subgraph could not be reached or dropped the connection (ECONNREFUSED, ECONNRESET,
    // ENOTFOUND, ...): retryable, and named without its address
    throw new SubgraphUnavailableError(subgraph);
  }
  endClientSpan(span, { status: answer.status });
  metrics.subgraphFetches.inc({ subgraph, status: String(answer.status) });
  stopTimer();
  // a subgraph's own 503 refuses before running (it is stopping); a proxy's 502 or 504 may come after the write ran
  if (write && (answer.status === 502 || answer.status === 504)) throw new WriteOutcomeUnknownError(subgraph);
  if (answer.status === 502 || answer.status === 503 || answer.status === 504) throw new SubgraphUnavailableError(subgraph);
  if (answer.status >= 400 && answer.status < 500 && hasGraphQLErrors(answer.text)) answer.status = 200;
  return answer;
}

/**
 * Keep-alive agents for the subgraph requests, whose idle sockets retire a second before the
 * `Keep-Alive: timeout=5` the subgraph server announces (platform/keep-alive.ts; the data
 * source's default agent kept them for ever).
 */
const agents = keepAliveAgents();

/**
 * One subgraph request over node:http, its answer read whole: what the data source needs of a
 * fetch, without the WHATWG Request, Response and body streams Node's fetch builds on every call
 * (the largest cost of the gateway's own per-request work in its profile after the subgraphs'
 * batching; Hive Gateway's fetch is node:http too).
 */
function post(url: string, init: RequestInit & { headers: Record<string, string> }, deadline: number | undefined, read: boolean): Promise<SubgraphAnswer> {
  return new Promise((resolve, reject) => {
    const target = subgraphTarget(url);
    const secure = target.protocol === "https:";
    const send = secure ? httpsRequest : httpRequest;
    let timedOut = false;
    const fail = (err: unknown) => {
      clearTimeout(timer);
      reject(timedOut ? new DeadlineExceededError() : err);
    };
    const req = send(target, { method: init.method ?? "POST", headers: init.headers, agent: secure ? agents.https : agents.http }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", fail);
      res.once("end", () => {
        clearTimeout(timer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        resolve({ status: res.statusCode ?? 502, statusText: res.statusMessage ?? "", headers, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    // the deadline ends the request and the reading of its answer: one timer, where an
    // AbortSignal.timeout and the listeners node:http hangs on it were a twentieth of the
    // gateway's CPU (bench/results.md)
    const timer = deadline === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, Math.max(0, deadline - performance.now())).unref();
    // a read written to a socket the subgraph had just closed goes again, once, on a new one; a
    // write does not: whether it was read is not known
    req.once("error", (err) => {
      if (!timedOut && read && wroteToClosedSocket(req, err)) {
        clearTimeout(timer);
        resolve(post(url, init, deadline, false));
      } else fail(!timedOut && wroteToClosedSocket(req, err) ? new UnreadRequestError() : err);
    });
    req.end(typeof init.body === "string" ? init.body : undefined);
  });
}

/** The subgraphs' URLs, parsed once: a gateway fetches the same three over and over. */
const subgraphTargets = new LRUCache<string, URL>({ max: 64, memoMethod: (url) => new URL(url) });
const subgraphTarget = (url: string): URL => subgraphTargets.memo(url);

/**
 * The subgraph fetcher: identical query fetches in flight (same subgraph, same caller
 * `authorization`, same body: operation and variables) are sent once and each caller parses its
 * own copy of the answer. Mutations are always sent, and no query asked after one joins a query
 * that started before it. The deadline header is left out of the key:
 * it differs by the millisecond between callers of the same fetch. A joiner whose first caller
 * ran out of time fetches on its own. The header `x-operation-id` is left out too: an operation that
 * joins another's fetch (or announcement, speculate.ts) is answered from that operation's loaders.
 */
function subgraphFetcher(
  subgraph: string,
  inflight: InFlight<SubgraphAnswer>,
  rememberRefusedToken: (init: RequestInit & { headers: Record<string, string> }, answer: SubgraphAnswer) => Promise<void>,
  brake: SpeculationBrake,
): (url: string, init: RequestInit & { headers: Record<string, string> }) => Promise<Response> {
  return async (url, init) => {
    const body = typeof init.body === "string" ? init.body : null;
    // the data source sends `{"query":"<operation>",...}`: a query plan's fetch is `query ...` or `{...}`
    const read = body !== null && (body.startsWith('{"query":"query') || body.startsWith('{"query":"{'));
    let answer: SubgraphAnswer;
    if (read) answer = await inflight.run(`${url}\n${init.headers.authorization ?? ""}\n${body}`, () => fetchWithinDeadline(subgraph, url, init, true));
    else {
      // read-your-writes: no query asked after a mutation joins one that started before it
      inflight.forget();
      answer = await fetchWithinDeadline(subgraph, url, init, false).finally(() => inflight.forget());
    }
    brake.report(subgraph, answer.headers.get(LOAD_HEADER));
    await rememberRefusedToken(init, answer);
    return new AnswerResponse(url, answer) as unknown as Response;
  };
}

/**
 * What the data source reads of a fetch's response (ok, status, statusText, url, headers, text,
 * json), over the answer already read: a `new Response` would turn the text back into a stream
 * of bytes for the data source to decode and parse again, on every subgraph fetch. A class rather
 * than an object of closures: the bundle keeps function names (scripts/bundle.mjs), which costs a
 * property definition for each closure made, three on every fetch.
 */
class AnswerResponse {
  readonly redirected = false;
  readonly bodyUsed = false;
  constructor(
    readonly url: string,
    private readonly answer: SubgraphAnswer,
  ) {}
  get ok(): boolean {
    return this.answer.status >= 200 && this.answer.status < 300;
  }
  get status(): number {
    return this.answer.status;
  }
  get statusText(): string {
    return this.answer.statusText;
  }
  get headers(): Headers {
    return this.answer.headers;
  }
  async text(): Promise<string> {
    return this.answer.text;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.answer.text) as unknown;
  }
  clone(): AnswerResponse {
    return new AnswerResponse(this.url, this.answer);
  }
}

function hasGraphQLErrors(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: unknown };
    return Array.isArray(body.errors) && body.errors.length > 0;
  } catch {
    return false;
  }
}

type ProcessOptions = GraphQLDataSourceProcessOptions<GatewayContext>;
type ProcessResult = ReturnType<RemoteGraphQLDataSource<GatewayContext>["process"]>;
/** the source texts of the queries a batch merges, in its order (`batchSources`) */
const SOURCES = Symbol("batched query sources");
/** What `getBatchingExecutor` is handed and hands back, in the shapes of @graphql-tools/utils. */
interface BatchRequest {
  document: DocumentNode;
  variables?: Record<string, unknown>;
  operationType?: "query";
  context?: ProcessOptions;
  extensions?: { [SOURCES]?: string[] };
}
type BatchExecutor = (request: BatchRequest) => Promise<unknown>;

const MAX_PARSED_QUERIES = 2000;
/** the source text of each query the batching executor is handed (`batchShape`), so that a fetch sent alone is sent as the plan wrote it */
const querySources = new WeakMap<DocumentNode, string>();
/**
 * Parsed subgraph queries, as the batching executor is handed them: a plan's fetches are the same
 * few strings, operation after operation. Only the operation's top-level fields are kept, their
 * names and aliases (null when a top-level selection is not a field: such a query goes alone).
 * That is all batch-execute reads of a document beyond merging it, and it merges each document
 * again on every batch, visiting all of it: with whole documents that was a sixteenth of the
 * gateway's CPU in its profile (bench/results.md). What is sent is the text of the whole
 * queries merged, by the list of their texts (`batchText`).
 */
const batchShapes = new LRUCache<string, { shape: DocumentNode | null }>({
  max: MAX_PARSED_QUERIES,
  memoMethod: (query) => {
    const operation = parse(query, { noLocation: true }).definitions[0];
    if (operation?.kind !== Kind.OPERATION_DEFINITION || operation.operation !== "query" || !operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD)) return { shape: null };
    const fields = operation.selectionSet.selections.map((field) => ({ kind: field.kind, alias: field.alias, name: field.name }) as FieldNode);
    // no variable definitions either: batch-execute then renames the variables without visiting the document
    const shape: DocumentNode = { kind: Kind.DOCUMENT, definitions: [{ kind: operation.kind, operation: operation.operation, name: operation.name, selectionSet: { kind: Kind.SELECTION_SET, selections: fields } }] };
    querySources.set(shape, query);
    return { shape };
  },
});
/**
 * The text of each batch, by the texts it merges: a plan batches the same fetches operation after
 * operation, and merging and printing them again each time was a twentieth of the gateway's CPU.
 * On a miss, the whole queries are merged by batch-execute itself (`mergedText`), so that the text
 * and the answer's split agree on its aliases and variable names.
 */
const batchTexts = new LRUCache<string, Promise<string>>({ max: MAX_PARSED_QUERIES, memoMethod: (sources) => mergedText(sources.split("\u0000")) });

/** The queries `sources` merged as batch-execute merges them, printed: its executor, handed them at once, captures the merged request. */
async function mergedText(sources: string[]): Promise<string> {
  let merged: DocumentNode | undefined;
  const capture = createBatchingExecutor((async (request: { document: DocumentNode }) => {
    merged = request.document;
    return { data: {} };
  }) as never);
  await Promise.all(sources.map((source) => capture({ document: parse(source, { noLocation: true }), operationType: "query" } as never)));
  return print(merged!);
}

/**
 * The batching executor's extensions reducer: it collects the source text of each query merged,
 * in the merge's order (which names their prefixes), under a symbol that is never sent.
 */
function batchSources(merged: { [SOURCES]?: string[] }, request: BatchRequest): { [SOURCES]?: string[] } {
  return { [SOURCES]: [...(merged[SOURCES] ?? []), querySources.get(request.document)!] };
}

function batchText(batched: BatchRequest): string | Promise<string> {
  const alone = querySources.get(batched.document);
  if (alone !== undefined) return alone;
  return batchTexts.memo(batched.extensions![SOURCES]!.join("\u0000"));
}

class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly name: string,
    url: string,
    private readonly secret: string | null,
    inflight: InFlight<SubgraphAnswer>,
    rememberRefusedToken: Parameters<typeof subgraphFetcher>[2],
    brake: SpeculationBrake,
  ) {
    // node:http with keep-alive agents (`post`) rather than the default make-fetch-happen agent:
    // that agent keeps idle sockets forever, so after a pause longer than the subgraph server's
    // keep-alive timeout (5 s) a request could go out on a socket the server was closing
    // (ECONNRESET, "socket hang up"). Node's agent honours the server's `Keep-Alive: timeout=5`.
    super({ url, fetcher: subgraphFetcher(name, inflight, rememberRefusedToken, brake) as unknown as RemoteGraphQLDataSource["fetcher"] });
  }

  /**
   * A fetch the operation already started with its root fetch (speculate.ts) is answered by it.
   * The other queries one operation sends this subgraph at the same time (a plan's parallel
   * entity fetches: organisation's legal entity, templates, departments, qualifications and
   * categories of EmployeeProfile) go as one HTTP request, their fields aliased and variables
   * renamed apart by @graphql-tools/batch-execute (what Hive Gateway does), and each gets its own
   * part of the answer: one subgraph request pipeline and one round trip instead of five, which is
   * most of what separated our throughput from Hive Gateway's (see bench/results.md).
   * Mutations are sent one by one, in the plan's order.
   */
  override process(options: ProcessOptions): ProcessResult {
    const started = claimSpeculation(this.name, options as GraphQLDataSourceProcessOptions);
    if (started) return started as ProcessResult;
    const { request } = options;
    // a split part's errors are the whole root fetch's to report (speculate.ts)
    if (request.operationName?.endsWith(SPLIT_PART)) return super.process(options).then(({ errors: _dropped, ...rest }) => rest);
    // only entity fetches that carry representations are batched. The others go alone: a root
    // fetch is its stage's only fetch to that subgraph (batched, OrgChart's `department(id)` was
    // read on its own instead of from the department list its announcement starts: 5 calls for a
    // floor of 4), a split part must answer before the whole fetch it runs beside, and an
    // announcement (no representation) is known to the subgraph by its operation name, which a
    // batch renames.
    const representations = request.variables?.representations;
    if (!Array.isArray(representations) || representations.length === 0) return super.process(options);
    // each entity once per fetch, answered at each place it appears (representations.ts)
    const distinct = distinctRepresentations(representations);
    if (!distinct) return this.processEntities(options);
    const once = { ...options, request: { ...request, variables: { ...request.variables, representations: distinct.representations } } } as ProcessOptions;
    return this.processEntities(once).then((answer) => expandEntities(answer, distinct)) as ProcessResult;
  }

  /** An entity fetch: batched with the operation's other queries to this subgraph at the same time. */
  private processEntities(options: ProcessOptions): ProcessResult {
    const { context, request } = options;
    if (!context || !("subgraphFetches" in context) || !request.query) return super.process(options);
    const { shape } = batchShapes.memo(request.query);
    if (!shape) return super.process(options);
    const batch = getBatchingExecutor(context, this.sendBatch as never, undefined, batchSources as never) as unknown as BatchExecutor;
    return batch({ document: shape, variables: request.variables as Record<string, unknown> | undefined, operationType: "query", context: options }) as ProcessResult;
  }

  /** One request for the queries batched together (or the one query alone, as the plan wrote it). */
  private readonly sendBatch = async (batched: BatchRequest): ProcessResult => {
    const options = batched.context!;
    const query = await batchText(batched);
    return super.process({ ...options, request: { ...options.request, query, variables: batched.variables } } as ProcessOptions);
  };

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    // `context` is empty for the gateway's own requests (health checks, introspection)
    if (context && "subgraphFetches" in context) {
      context.subgraphFetches++;
      if (context.authorization) request.http?.headers.set("authorization", context.authorization);
      if (!/^\s*mutation\b/.test(request.query ?? "")) request.http?.headers.set(OPERATION_HEADER, context.operationId);
      request.http?.headers.set(DEADLINE_HEADER, String(Math.max(0, Math.floor(context.deadline - performance.now()))));
    }
    // the operation's request id and trace context (the active span is @apollo/gateway's `gateway.fetch`)
    const requestId = context && "requestId" in context ? context.requestId : undefined;
    if (requestId !== undefined) request.http?.headers.set(REQUEST_ID_HEADER, requestId);
    const trace: Record<string, string> = {};
    injectTraceContext(trace);
    for (const [key, value] of Object.entries(trace)) request.http?.headers.set(key, value);
    if (this.secret) request.http?.headers.set(SUBGRAPH_SECRET_HEADER, this.secret);
    // the hop to a subgraph is internal (loopback under npm start, the cluster's network otherwise):
    // CPU matters more there than bytes, so its answers come uncompressed (platform/compression.ts)
    request.http?.headers.set("accept-encoding", "identity");
  }
}

/** The request `RemoteGraphQLDataSource` hands its `sendRequest`: node-fetch's `Headers` in `http`. */
interface SentRequest {
  http: { method: string; url: string; headers: { raw(): Record<string, string[]> } };
  [member: string]: unknown;
}

/**
 * `RemoteGraphQLDataSource.sendRequest` without the node-fetch `Request` it builds on every fetch
 * only to hand it to `didEncounterError` (which this data source leaves as it is: rethrow), and
 * with the headers read from node-fetch's own map rather than through its sorting iterator. The
 * two were a third of the fetch path's CPU in the gateway's profile (bench/results.md). The
 * library declares the method private, so it is replaced on the prototype; every fetch path
 * (answers, a subgraph's 4xx with errors, 5xx, deadlines) runs through it in the tests.
 */
async function sendRequest(this: SubgraphDataSource, request: SentRequest): Promise<object> {
  const { http, ...body } = request;
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(http.headers.raw())) headers[name.toLowerCase()] = values.join(", ");
  const response = await this.fetcher(http.url, { method: http.method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw await this.errorFromResponse(response);
  const answer = await this.parseBody(response);
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) throw new Error(`Expected JSON response body, but received: ${String(answer)}`);
  return { ...answer, http: response };
}
Object.defineProperty(SubgraphDataSource.prototype, "sendRequest", { value: sendRequest, writable: true, configurable: true });

export async function startGateway(config: GatewayConfig, logger = new Logger("gateway", config.logLevel), load: LoadMeter = processLoad): Promise<RunningGateway> {
  // the state the replicas share (REDIS_URL): APQ documents, refused tokens, per-client limits
  const shared = new SharedState(config.shared, logger);
  const refusedTokens = new RefusedTokens(config.auth === "forward" ? config.refusedTokenTtlSeconds : 0, shared);
  if (!installResultShaping()) logger.warn("@apollo/gateway is not the version result-shaping.ts was checked against: its own result shaping runs");
  const gateway = await apolloGateway(config, logger, refusedTokens, load);
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
      inputChecks<GatewayContext>({ ids: currentApiId, fields: fieldRuleChecks(FIELD_RULES), prefix: config.prefix }),
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
  const exploration = await createExploration(config);
  const readiness = cachedCheck(() => checkSubgraphs(config), config.readyIntervalMs ?? 0);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://gateway.local").pathname;
    if (path === "/health") return sendJson(res, 200, { status: "ok" });
    if (path === "/metrics" && !processMetrics().onOwnPort) return processMetrics().scrape(res);
    if (path === "/ready") {
      const { ready, checks } = await readiness();
      return sendJson(res, ready ? 200 : 503, { status: ready ? "ready" : "unavailable", subgraphs: checks });
    }
    if (await exploration.handle(req, res, path)) return;
    if (path !== "/" && path !== "/graphql") return sendJson(res, 404, { errors: [{ message: "Not found" }] });
    if (handleCors(config.corsOrigins, req, res, config.corsAllowedHeaders)) return;
    // forwarded as the directory reads it, one spelling per token (platform/credentials.ts)
    const authorization = canonicalAuthorization(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined);
    await serveGraphQL(apollo, req, res, async () => ({ authorization, operationId: randomUUID(), subgraphFetches: 0, deadline: performance.now() + config.deadlineMs, requestId: responseRequestId(res) }), checkLimits, { admit, meter, requestErrors4xx: true });
  }

  let http: HttpListener;
  try {
    // its log lines are given the request id (request-scope.ts): none is kept for its requests' code
    http = await listen(handle, { port: config.port, host: config.host, logger, lifecycle: processLifecycle, implicitScope: false });
  } catch (err) {
    await apollo.stop();
    await shared.close();
    throw err;
  }

  return {
    url: `${http.origin}/`,
    port: http.port,
    async close() {
      await http.close();
      await apollo.stop();
      await shared.close();
    },
  };
}

/** The gateway proper: the supergraph, a data source per subgraph, the plans' speculation (speculate.ts). */
async function apolloGateway(config: GatewayConfig, logger: Logger, refusedTokens: RefusedTokens, load: LoadMeter): Promise<ApolloGateway> {
  const urlOf = (name: string): string => {
    if (!(SUBGRAPH_NAMES as readonly string[]).includes(name)) throw new Error(`unknown subgraph "${name}" in the supergraph`);
    return config.subgraphUrls[name as SubgraphName];
  };
  // Left on, @apollo/gateway sends anonymous usage metrics to Apollo and probes cloud metadata
  // addresses at start-up. A facade over a company's directory does not call out unless told to.
  process.env.APOLLO_TELEMETRY_DISABLED ??= "true";
  // one for every subgraph: a mutation of one subgraph may change what another answers
  const inflight = new InFlight<SubgraphAnswer>((err) => err instanceof DeadlineExceededError);
  const brake = new SpeculationBrake(config.speculationMaxLoad, load);
  const rememberRefusedToken = async (init: { headers: Record<string, string> }, answer: SubgraphAnswer) => {
    // forward mode: a subgraph's answer says the directory refused the caller's token with 401
    const authorization = init.headers.authorization;
    if (config.auth === "forward" && authorization && answer.text.includes("UNAUTHENTICATED") && directoryRefusedToken(answer.text)) {
      await refusedTokens.remember(authorization);
    }
  };
  return new ApolloGateway({
    supergraphSdl:
      config.compose === "introspect"
        ? new IntrospectAndCompose({
            subgraphs: SUBGRAPH_NAMES.map((name) => ({ name, url: config.subgraphUrls[name] })),
          })
        : await readSupergraph(config.supergraphPath, config.prefix),
    buildService: ({ name }) => new SubgraphDataSource(name, urlOf(name), config.subgraphSecret, inflight, rememberRefusedToken, brake),
    // its OpenTelemetry spans (gateway.request, .plan, .fetch...; docs/observability.md) without
    // the operation's text or the errors' messages, which may carry the caller's values
    telemetry: { includeDocument: false, recordExceptions: false },
    // entity fetches a root lookup by id makes predictable start with the root fetch (speculate.ts)
    // and the later entity fetches of GATEWAY_PREFETCH's subgraphs are announced to them at once,
    // and a root lookup's fetch is split so that what later fetches need answers first
    // nothing of it is asked of a subgraph that says it is saturated, nor by a saturated gateway
    // (GATEWAY_SPECULATION_MAX_LOAD)
    experimental_didResolveQueryPlan: (options) => speculate(options as unknown as Parameters<typeof speculate>[0], config.prefetch, config.splitRootFetch, brake),
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
 * counts as ready when its `/health` answers.
 */
async function checkSubgraphs(config: GatewayConfig): Promise<Readiness> {
  const probe = async (name: SubgraphName, path: string): Promise<string> => {
    const state = await probeUrl(new URL(path, config.subgraphUrls[name]), 2000);
    return state === "status 404" && path === "/ready" ? probe(name, "/health") : state;
  };
  const entries = await Promise.all(SUBGRAPH_NAMES.map(async (name) => [name, await probe(name, "/ready")] as const));
  return { ready: entries.every(([, state]) => state === "ok"), checks: Object.fromEntries(entries) };
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
