import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { STATUS_CODES, type Agent as HttpAgent } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import { keepAliveAgents } from "../../../platform/keep-alive.js";
import got, { type Got, type Response } from "got";
import type { Span } from "@opentelemetry/api";
import { GraphQLError } from "graphql";
import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, IsolatedCircuitError, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";
import type { Readiness } from "../../../platform/readiness.js";
import { CurrentApiClient, LegacyApiClient, type RequestSpec, type SessionTransport } from "./apis.js";
import type { UpstreamConfig } from "./config.js";
import { EtagCache } from "./etag-cache.js";
import { ErrorCode } from "../../../platform/error-codes.js";
import { UpstreamError, budgetExceeded, deadlineExceeded, safeErrorParts, type UpstreamErrorCode } from "./errors.js";
import { InFlight } from "../../../platform/inflight.js";
import { LoaderRegistry } from "./loaders.js";
import { MAX_CONNECT_TIMEOUT_MS, MIN_ATTEMPT_MS, attemptTimeout, classifyFailure, parseRetryAfter, retryDelay, writeOutcomeUnknown, type AttemptOutcome } from "./retry.js";
import { ClientCredentials } from "./token.js";
import type { CallCounter, CursorSigner, QueryParams, SessionOptions, UpstreamSession } from "./types.js";
import { Limiter, sleep } from "./util.js";
import { RecordLeases } from "./record-leases.js";
import { attemptDone, refusedUpstream, retrying, startAttemptSpan } from "./observe.js";
import { routeOf } from "./routes.js";
import { processMetrics, type BreakerState } from "../../../platform/metrics.js";
import { currentRequestId } from "../../../platform/request-scope.js";
import { REQUEST_ID_HEADER } from "../../../platform/headers.js";
import { RequestPacer, rateBudgetExceeded } from "./pacer.js";
import { Logger } from "../../../platform/log.js";
import { RefusedTokens } from "../../../platform/refused-tokens.js";
import { canonicalAuthorization } from "../../../platform/credentials.js";
import { SharedState } from "../../../platform/shared-state.js";
import { LRUCache } from "lru-cache";

/**
 * The one HTTP access layer to both APIs of the directory service.
 *
 * - got with keep-alive agents owned by the `Upstream` (closed by `close()`); no got retries, no
 *   got cache: every attempt goes through `attempt()` so each one is counted.
 * - Retries, as the pure policy of retry.ts decides them: reads on 429, 5xx gateways, timeouts and
 *   connection failures; writes only when they provably never left this process. Every attempt's
 *   timeout is its share of what is left of the request's deadline (`x-deadline-ms`, at most
 *   `deadlineMs`), so a hung request costs a fraction of the deadline and retries never make the
 *   caller wait longer than it. Past the deadline: DEADLINE_EXCEEDED.
 * - The APIs a session sees are apis.ts's classes; the service-mode token is token.ts's.
 * - A circuit breaker per API (cockatiel): after `breakerFailures` requests in a row failed with a
 *   5xx, a timeout or a connection failure, that API is not called for `breakerOpenMs`. Only the
 *   upstream's own failures count: no caller can open it with bad requests (4xx).
 * - A budget of upstream calls per session (`callBudget`): the attempt beyond it is not made, the
 *   operation gets UPSTREAM_BUDGET_EXCEEDED.
 * - Conditional GETs through one ETag cache (etag-cache.ts), whose keys start with the caller's
 *   identity, so that no caller is ever answered from another caller's entry.
 * - Every attempt is counted in the process's metrics and, when tracing is on, is a client span
 *   whose context the request carries (`traceparent`); retries and refusals are span events
 *   (observe.ts). The request id of the subgraph request goes along in `x-request-id`.
 * - With REDIS_URL (platform/shared-state.ts) the replicas share the ETag cache, the upstream
 *   request budget (DIRECTORY_RATE_LIMIT, pacer.ts) and the tokens the directory refused
 *   (platform/refused-tokens.ts); each falls back to its in-process form while Redis is down.
 */

export const API_VERSION = "2024-11-01";

/** One upstream HTTP attempt, for logs and metrics. */
export interface UpstreamCallEvent {
  api: "current" | "legacy" | "token";
  method: string;
  /** `GET /service-api/employees/{id}` */
  route: string;
  /** null: no answer (timeout or connection failure) */
  status: number | null;
  /** 1 for the first attempt of a request, 2 for its first retry, ... */
  attempt: number;
  durationMs: number;
  /** the answer was a 304 and the cached body was served */
  notModified: boolean;
  /** timeout or network error code when status is null */
  failure?: string;
}

export type UpstreamCallListener = (event: UpstreamCallEvent) => void;

type Api = RequestSpec["api"];

/** Internal per-session state the Upstream needs for every call. */
interface SessionState {
  calls: CallCounter;
  identity: string;
  authorization: string | null;
  limiter: Limiter;
  /** `performance.now()` at which the request's deadline passes */
  deadline: number;
  deadlineMs: number;
  /** the session's budget or deadline already refused an attempt (counted once per request) */
  refusalCounted?: boolean;
  /** forward mode: whether the caller's token is one the directory just refused (asked once a session) */
  refused?: Promise<boolean>;
  /** forward mode: the current API accepted the caller's token (a 2xx or 304 for it) */
  accepted?: boolean;
  /** forward mode: the check of the caller made before its first legacy call */
  callerCheck?: Promise<unknown>;
}

export class Upstream {
  readonly config: UpstreamConfig;
  /** process-wide counters of every attempt (including token requests and 304s) */
  readonly totals: CallCounter & { notModified: number };

  private readonly http: Got;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  /** the last 200 with an ETag per caller and URL; null when disabled */
  private readonly etags: EtagCache | null;
  private readonly listeners = new Set<UpstreamCallListener>();
  /** stops the metrics' scrape of the cache and breakers */
  private readonly unwatch: () => void;
  private readonly credentials: ClientCredentials;
  private readonly base: URL;
  private readonly tokenPath: string;
  /** signs connection cursors with the configured key (or a random one for this process) */
  readonly cursors: CursorSigner;
  /** Redis when configured (REDIS_URL), else nothing shared */
  readonly shared: SharedState;
  /** DIRECTORY_RATE_LIMIT; null without one */
  private readonly pacer: RequestPacer | null;
  /** forward mode: the tokens the directory refused with 401, refused without calling again */
  readonly refusedTokens: RefusedTokens;
  /** forward mode: hashes of the tokens the current API accepted a moment ago (this process) */
  private readonly acceptedTokens: LRUCache<string, true>;
  /** one breaker per API; none when `breakerFailures` is 0 */
  private readonly breakers: Partial<Record<Api, CircuitBreakerPolicy>> = {};
  /**
   * identical GETs in flight for one caller identity, made once; each joiner gets its own copy of
   * the body, and a budget or deadline error stays its session's
   */
  readonly inflight = new InFlight<unknown>((err) => err instanceof GraphQLError, (body) => structuredClone(body));
  /** one read-merge-write at a time per record, across replicas with Redis */
  private readonly leases: RecordLeases;

  constructor(config: UpstreamConfig, logger: Logger = new Logger("upstream")) {
    this.config = Object.freeze({ ...config });
    this.shared = new SharedState(config.shared ?? { url: null, prefix: "", timeoutMs: 200 }, logger);
    this.leases = new RecordLeases(this.shared);
    this.pacer = config.rateLimit ? new RequestPacer(config.rateLimit, this.shared) : null;
    this.refusedTokens = new RefusedTokens(config.auth === "forward" ? (config.refusedTokenTtlSeconds ?? 30) : 0, this.shared);
    this.acceptedTokens = new LRUCache<string, true>({ max: 10_000, ttl: Math.max(1, config.refusedTokenTtlSeconds ?? 30) * 1000 });
    this.base = new URL(config.baseUrl.replace(/\/+$/, ""));
    this.tokenPath = new URL(config.tokenUrl).pathname;
    this.cursors = cursorSigner(config.cursorSecret ?? randomBytes(32).toString("hex"));
    if (config.breakerFailures > 0) {
      for (const api of ["current", "legacy", "token"] as const) {
        this.breakers[api] = circuitBreaker(handleWhen(isUpstreamFault), {
          halfOpenAfter: config.breakerOpenMs,
          breaker: new ConsecutiveBreaker(config.breakerFailures),
        });
      }
    }
    this.etags = config.etagCacheSize > 0 ? new EtagCache(config.etagCacheSize, config.etagCacheBytes, this.shared, config.etagCacheTtlSeconds) : null;
    this.credentials = new ClientCredentials(config, this.tokenPath);
    this.unwatch = processMetrics().watchUpstream({
      etagEntries: () => this.etags?.size ?? 0,
      etagBytes: () => this.etags?.bytes ?? 0,
      breakers: () => Object.fromEntries(Object.entries(this.breakers).map(([api, b]) => [api, BREAKER_STATES[b.state] ?? "open"])),
    });
    this.totals = { total: 0, byRoute: {}, notModified: 0 };
    ({ http: this.httpAgent, https: this.httpsAgent } = keepAliveAgents({ maxSockets: 64 }));
    this.http = got.extend({
      agent: { http: this.httpAgent, https: this.httpsAgent },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: "text",
      // asks for brotli or gzip (`Accept-Encoding: gzip, deflate, br`) and decodes the answer;
      // DIRECTORY_COMPRESSION=off asks for none (a directory that compresses anyway is decoded)
      decompress: true,
      timeout: { request: config.timeoutMs, connect: Math.min(config.timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
      headers: { "user-agent": "directory-graph-upstream", ...(config.compression ? {} : { "accept-encoding": "identity" }) },
    });
  }

  /** Subscribes to every upstream attempt; returns the unsubscribe function. */
  onCall(listener: UpstreamCallListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One session per GraphQL request. */
  session(options: SessionOptions = {}): UpstreamSession {
    const state = this.sessionState(options);
    const { identity, deadlineMs } = state;
    const forwarded = this.config.auth === "forward";
    const transport: SessionTransport = {
      send: (spec) => this.sendDeduplicated(state, spec),
      target: (path, query) => this.target(path, query),
      followHref: (href, from) => this.followHref(href, from),
      concurrency: this.config.concurrency,
    };
    return {
      current: new CurrentApiClient(transport),
      legacy: new LegacyApiClient(transport),
      caller: createHash("sha256").update(`directory-graph caller ${identity}`).digest("hex").slice(0, 16),
      calls: state.calls,
      forwarded,
      forwardLegacyWrites: this.config.forwardLegacyWrites,
      loaders: new LoaderRegistry(),
      concurrency: this.config.concurrency,
      cursors: this.cursors,
      deadlineMs,
      serialise: (record, write) =>
        this.leases.hold(record, deadlineMs, () => {
          // a read in flight here may have started before the last write of this record (another replica's)
          this.inflight.forget();
          return write();
        }),
    };
  }

  /**
   * Forward mode: whether the directory knows the caller's token, for the gateway's check of a
   * token it has not seen (docs/security.md#unverified-tokens), at the cost of one page of one
   * employee, or of nothing when the token was accepted or refused a moment ago. `unknown`: the
   * directory did not say (unreachable, a fault, service mode).
   */
  async verifyCaller(authorization: string | undefined): Promise<"accepted" | "refused" | "unknown"> {
    if (this.config.auth !== "forward") return "unknown";
    const state = this.sessionState({ authorization });
    if (state.authorization === null) return "refused";
    if (this.acceptedTokens.has(state.identity)) return "accepted";
    try {
      await this.sendDeduplicated(state, { api: "current", method: "GET", ...this.target("/service-api/employees", { limit: 1 }) });
      return "accepted";
    } catch (err) {
      if (!(err instanceof UpstreamError)) return "unknown";
      // 403: the token is the directory's, only not allowed this read
      return err.status === 401 ? "refused" : err.status === 403 ? "accepted" : "unknown";
    }
  }

  private sessionState(options: SessionOptions): SessionState {
    const forwarded = this.config.auth === "forward";
    const authorization = forwarded ? (canonicalAuthorization(options.authorization) ?? null) : null;
    const identity = forwarded
      ? authorization === null
        ? "forward:anonymous"
        : `forward:${createHash("sha256").update(authorization).digest("hex")}`
      : `service:${this.config.clientId ?? ""}`;
    const asked = options.deadlineMs;
    const deadlineMs = asked !== undefined && Number.isFinite(asked) && asked >= 0 ? Math.min(Math.floor(asked), this.config.deadlineMs) : this.config.deadlineMs;
    return {
      calls: { total: 0, byRoute: {} },
      identity,
      authorization,
      limiter: new Limiter(this.config.concurrency),
      deadline: performance.now() + deadlineMs,
      deadlineMs,
    };
  }

  async close(): Promise<void> {
    this.unwatch();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.listeners.clear();
    await this.shared.close();
  }

  // ---- request targets ----

  private target(path: string, query?: QueryParams): { path: string; url: string } {
    const qs = buildQuery(query, { allowEmbedded: embeddable(path) });
    return { path, url: `${this.base.href.replace(/\/+$/, "")}${path}${qs ? `?${qs}` : ""}` };
  }

  /**
   * A `links.next.href` as a request target. Only hrefs on the configured upstream's origin are
   * followed, so the bearer token is never sent to another host named in a response.
   */
  private followHref(href: string, from: string): { path: string; url: string } {
    let url: URL;
    try {
      url = new URL(href, this.base);
    } catch {
      throw new Error(`GET ${from}: links.next is not a URL`);
    }
    if (url.origin !== this.base.origin) throw new Error(`GET ${from}: links.next points to another origin`);
    const prefix = this.base.pathname.replace(/\/+$/, "");
    const path = prefix !== "" && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
    return this.target(path, Object.fromEntries(url.searchParams));
  }

  // ---- sending ----

  /** One logical request; a read joins the identical read of the same identity in flight (inflight.ts). */
  private sendDeduplicated<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    if (spec.method !== "GET") {
      // read-your-writes: no read asked after this write joins one that started before it
      this.inflight.forget();
      return this.sendThroughBreaker<T>(state, spec).finally(() => this.inflight.forget());
    }
    const key = `${state.identity} ${spec.api} ${spec.nullOn404 ? "null-on-404" : "throw-on-404"} ${spec.url}`;
    return this.inflight.run(key, () => this.sendThroughBreaker<T>(state, spec)) as Promise<T | null>;
  }

  /** One logical request through its API's circuit breaker. */
  private async sendThroughBreaker<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const breaker = this.breakers[spec.api];
    if (!breaker) return this.sendWithRetries<T>(state, spec);
    try {
      return await breaker.execute(() => this.sendWithRetries<T>(state, spec));
    } catch (err) {
      if (err instanceof BrokenCircuitError || err instanceof IsolatedCircuitError) {
        refusedUpstream("breaker", { "directory_graph.upstream.api": spec.api });
        throw new UpstreamError({ method: spec.method, path: spec.path, status: null, reason: "circuit" });
      }
      throw err;
    }
  }

  /** One logical request: authentication, retries, conditional GET, error mapping. */
  private async sendWithRetries<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const headers: Record<string, string> = { accept: "application/json" };
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    let token: string | null = null;
    if (spec.api === "current") {
      headers["api-version"] = API_VERSION;
      if (this.config.auth === "forward") {
        await this.checkCaller(state, spec);
        headers.authorization = state.authorization!;
      } else {
        token = await this.token(state);
        headers.authorization = `Bearer ${token}`;
      }
    } else if (spec.api === "legacy") {
      // forward mode: the facade's own key only for a caller checked first (checkCaller)
      if (this.config.auth === "forward") await this.checkCaller(state, spec);
      headers.authorization = `service application=${this.config.apiKey ?? ""}`;
    }

    const cache = spec.method === "GET" && spec.api !== "token" ? this.etags : null;
    const cacheKey = EtagCache.key(state.identity, spec.method, spec.url);
    // a PUT replaces the whole entity (the legacy writes): repeating it changes nothing more, so it
    // is retried like a read; a POST never is (retry.ts)
    const idempotent = spec.method === "GET" || spec.method === "PUT" || spec.api === "token";
    const write = spec.method !== "GET" && spec.api !== "token";
    // an attempt of this write may have been applied without us knowing (no answer after it was
    // sent, or a proxy's 502/504): if no later attempt settles it, the outcome stays unknown
    let mayHaveApplied = false;
    let retriesLeft = this.config.retries;
    let refreshed = false;
    let attemptNo = 0;
    for (;;) {
      attemptNo++;
      const cached = await cache?.get(cacheKey);
      const attemptHeaders = cached ? { ...headers, "if-none-match": cached.etag } : headers;
      let response: Response<string>;
      const timeoutFor = (leftMs: number) => attemptTimeout(leftMs, { idempotent, retriesLeft }, this.config.timeoutMs);
      try {
        response = await this.attempt(state, spec, attemptHeaders, attemptNo, spec.api === "token" ? null : state.limiter, timeoutFor);
      } catch (err) {
        // the deadline or budget stopped a retry of a write an earlier attempt may have applied
        if (err instanceof GraphQLError) throw mayHaveApplied ? outcomeUnknownError(spec) : err;
        const failure = classifyFailure(err);
        if (write && !failure.notSent) mayHaveApplied = true;
        const delay = this.retryDelay({ failure }, state, idempotent, retriesLeft);
        if (delay !== null) {
          retrying({ api: spec.api, method: spec.method, route: routeOf(spec.method, spec.path) }, attemptNo + 1, delay, failure.summary);
          await sleep(delay);
          retriesLeft--;
          continue;
        }
        // a write that may have reached the upstream and got no answer: applied or not, nobody
        // knows, whatever cut it off (the deadline included)
        const outcomeUnknown = mayHaveApplied;
        if (!outcomeUnknown && failure.reason === "timeout" && this.msBeforeDeadline(state) <= 0) throw deadlineExceeded(state.deadlineMs);
        throw new UpstreamError({
          method: spec.method,
          path: spec.path,
          status: null,
          reason: failure.reason,
          summary: failure.summary,
          ...(outcomeUnknown ? { code: ErrorCode.WRITE_OUTCOME_UNKNOWN } : {}),
        });
      }

      const status = response.statusCode;
      // a 304 answers the validator sent with this very attempt; one without a validator is an
      // upstream fault and falls through to the error below
      if (spec.api === "current" && state.authorization !== null && (status === 304 || (status >= 200 && status < 300))) this.accepted(state);
      if (status === 304 && cached) return parseJson<T>(cached.text, spec);
      if (status >= 200 && status < 300) {
        await cache?.remember(cacheKey, header(response, "etag"), response.body);
        return parseJson<T>(response.body, spec, status);
      }

      await cache?.forget(cacheKey);
      if (status === 404 && spec.nullOn404) return null;
      // forward mode: the directory refused the caller's token; every replica refuses it for a while
      if (status === 401 && spec.api === "current" && state.authorization !== null && this.config.auth === "forward") {
        state.refused = Promise.resolve(true);
        await this.refusedTokens.remember(state.authorization);
      }
      if (status === 401 && token !== null && !refreshed) {
        // the token may have expired early or been revoked: one fresh token, one more try
        refreshed = true;
        this.credentials.invalidate(token);
        token = await this.token(state);
        headers.authorization = `Bearer ${token}`;
        continue;
      }
      if (write && writeOutcomeUnknown(status)) mayHaveApplied = true;
      const retryAfter = status === 429 ? parseRetryAfter(header(response, "retry-after")) : undefined;
      const delay = this.retryDelay({ status, retryAfter }, state, idempotent, retriesLeft);
      if (delay !== null) {
        retrying({ api: spec.api, method: spec.method, route: routeOf(spec.method, spec.path) }, attemptNo + 1, delay, String(status));
        await sleep(delay);
        retriesLeft--;
        continue;
      }
      throw this.httpError(spec, response, retryAfter, mayHaveApplied);
    }
  }

  /**
   * Forward mode, before a call on the caller's behalf: a caller without credentials, or whose
   * token the directory refused with 401 a moment ago (on any replica), is refused without a call;
   * before a legacy call, a token the current API has not accepted yet is checked first.
   */
  private async checkCaller(state: SessionState, spec: RequestSpec): Promise<void> {
    const refusal = (status: number | null, reason: "unauthenticated" | "http") =>
      new UpstreamError({ method: spec.method, path: spec.path, status, reason, ...(status === 401 ? { summary: "Unauthorized (refused a moment ago)" } : {}) });
    if (state.authorization === null) throw refusal(null, "unauthenticated");
    state.refused ??= this.refusedTokens.has(state.authorization);
    if (await state.refused) {
      refusedUpstream("refusedToken");
      throw refusal(401, "http");
    }
    // the facade's legacy key is used for a caller the current API accepted (in this request, or
    // a moment ago): otherwise one page of one employee with the caller's token first
    if (spec.api !== "legacy" || state.accepted) return;
    if (this.acceptedTokens.has(state.identity)) {
      state.accepted = true;
      return;
    }
    state.callerCheck ??= this.sendDeduplicated(state, { api: "current", method: "GET", ...this.target("/service-api/employees", { limit: 1 }) });
    await state.callerCheck;
  }

  /** forward mode: the current API accepted the session's token */
  private accepted(state: SessionState): void {
    if (state.accepted) return;
    state.accepted = true;
    this.acceptedTokens.set(state.identity, true);
  }

  /** ms left before the session's deadline */
  private msBeforeDeadline(state: SessionState): number {
    return state.deadline - performance.now();
  }

  /** The policy's wait before retrying (retry.ts), or null not to retry. */
  private retryDelay(outcome: AttemptOutcome, state: SessionState, idempotent: boolean, retriesLeft: number): number | null {
    const policy = { retries: this.config.retries, maxRetryAfterSeconds: this.config.maxRetryAfterSeconds, retryBaseDelayMs: this.config.retryBaseDelayMs ?? 100 };
    return retryDelay(outcome, { idempotent, retriesLeft, leftMs: this.msBeforeDeadline(state) }, policy);
  }

  /**
   * One HTTP attempt, counted on the session and the process totals and reported to listeners.
   * The session's budget and deadline are checked when the attempt would start (after waiting for
   * a concurrency slot): past either, the attempt is not made.
   */
  private async attempt(
    state: SessionState,
    spec: RequestSpec,
    headers: Record<string, string>,
    attemptNo: number,
    limiter: Limiter | null,
    timeoutFor: (leftMs: number) => number,
  ): Promise<Response<string>> {
    const run = async () => {
      const left = this.msBeforeDeadline(state);
      if (left <= 0) {
        if (!state.refusalCounted) refusedUpstream("deadline", { "directory_graph.limit_ms": state.deadlineMs });
        state.refusalCounted = true;
        throw deadlineExceeded(state.deadlineMs);
      }
      if (state.calls.total >= this.config.callBudget) {
        if (!state.refusalCounted) refusedUpstream("upstreamBudget", { "directory_graph.limit": this.config.callBudget });
        state.refusalCounted = true;
        throw budgetExceeded(this.config.callBudget);
      }
      await this.pace(spec, left);
      const timeoutMs = timeoutFor(this.msBeforeDeadline(state));
      const route = routeOf(spec.method, spec.path);
      count(state.calls, route);
      count(this.totals, route);
      const started = performance.now();
      const sent = { ...headers };
      const span = startAttemptSpan({ api: spec.api, method: spec.method, route, attempt: attemptNo }, spec.url, "if-none-match" in headers, sent);
      try {
        const response = await this.http(spec.url, {
          method: spec.method,
          headers: sent,
          timeout: { request: timeoutMs, connect: Math.min(timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
          ...(spec.json !== undefined ? { json: spec.json } : {}),
          ...(spec.form !== undefined ? { form: spec.form } : {}),
        });
        const notModified = response.statusCode === 304;
        if (notModified) this.totals.notModified++;
        this.emit(span, { api: spec.api, method: spec.method, route, status: response.statusCode, attempt: attemptNo, durationMs: performance.now() - started, notModified });
        return response;
      } catch (err) {
        this.emit(span, {
          api: spec.api,
          method: spec.method,
          route,
          status: null,
          attempt: attemptNo,
          durationMs: performance.now() - started,
          notModified: false,
          failure: classifyFailure(err).summary,
        });
        throw err;
      }
    };
    return limiter ? limiter.run(run) : run();
  }

  /**
   * DIRECTORY_RATE_LIMIT: waits for the API's next slot of the facade's own client (forward mode's
   * current-API calls use the caller's token, whose limit is the caller's); fails fast when the
   * slot comes too late for the request to be made before its deadline.
   */
  private async pace(spec: RequestSpec, left: number): Promise<void> {
    if (this.pacer === null || spec.api === "token" || (spec.api === "current" && this.config.auth === "forward")) return;
    if (!(await this.pacer.acquire(spec.api, left - Math.min(left / 2, MIN_ATTEMPT_MS)))) {
      refusedUpstream("upstreamRateBudget", { "directory_graph.limit": this.pacer.perSecond });
      throw rateBudgetExceeded(this.pacer.perSecond);
    }
  }

  private emit(span: Span | undefined, event: UpstreamCallEvent): void {
    attemptDone(span, event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a faulty log hook must not fail the request it observes
      }
    }
  }

  private httpError(spec: RequestSpec, response: Response<string>, retryAfter?: number, outcomeUnknown = false): UpstreamError {
    let parts: ReturnType<typeof safeErrorParts> = {};
    const type = header(response, "content-type") ?? "";
    if (/json/i.test(type)) {
      try {
        parts = safeErrorParts(JSON.parse(response.body));
      } catch {
        // an unparsable error body adds nothing the status does not say
      }
    }
    let code: UpstreamErrorCode | undefined = outcomeUnknown ? ErrorCode.WRITE_OUTCOME_UNKNOWN : undefined;
    if (spec.api === "token") {
      // the facade's own credentials or scopes were refused: the caller cannot be served. Only
      // the OAuth error code is kept, the description may repeat what was sent.
      let oauth: unknown;
      try {
        oauth = (JSON.parse(response.body) as { error?: unknown }).error;
      } catch {
        oauth = undefined;
      }
      parts = typeof oauth === "string" && /^[a-z_]{1,40}$/.test(oauth) ? { detail: oauth } : {};
      const status = response.statusCode;
      if (status >= 400 && status < 500 && status !== 429) code = ErrorCode.UNAUTHENTICATED;
    }
    return new UpstreamError({
      ...(code !== undefined ? { code } : {}),
      method: spec.method,
      path: spec.path,
      status: response.statusCode,
      reason: "http",
      summary: STATUS_CODES[response.statusCode] ?? response.statusMessage,
      ...parts,
      ...(retryAfter !== undefined ? { retryAfter } : {}),
    });
  }

  /**
   * `/ready`'s check (platform/readiness.ts): no breaker open, and the token endpoint answers. The
   * probe is a client-credentials request without credentials: any answer below 500 (the 400 or
   * 401 it earns) shows the upstream up, in either auth mode, with no secret sent and no token
   * spent; it goes around the breakers, the retries and the counters, as it is no caller's.
   */
  async readiness(): Promise<Readiness> {
    const breakers = Object.fromEntries(Object.entries(this.breakers).map(([api, b]) => [api, CircuitState[b.state].toLowerCase()]));
    let token: string;
    try {
      const res = await this.http.post(this.config.tokenUrl, { form: { grant_type: "client_credentials" }, timeout: { request: READY_PROBE_TIMEOUT_MS } });
      token = res.statusCode < 500 ? "ok" : `status ${res.statusCode}`;
    } catch (err) {
      token = (err as { code?: string }).code === "ETIMEDOUT" ? "timeout" : "unreachable";
    }
    const ready = token === "ok" && Object.values(breakers).every((state) => state !== "open");
    return { ready, checks: { token, ...(Object.keys(breakers).length > 0 ? { breakers } : {}) } };
  }

  /** The service-mode token (token.ts), requested through this client's retries, breaker and budget. */
  private token(state: SessionState): Promise<string> {
    return this.credentials.token((form) => this.sendDeduplicated<Record<string, unknown>>(state, { api: "token", method: "POST", path: this.tokenPath, url: this.config.tokenUrl, form }));
  }
}

// ---- helpers ----

/** cockatiel's CircuitState (Closed, Open, HalfOpen, Isolated) as the metric's state */
const BREAKER_STATES: BreakerState[] = ["closed", "open", "half-open", "open"];
/** the longest `/ready` waits for the token endpoint */
const READY_PROBE_TIMEOUT_MS = 2000;
/** A write an earlier attempt may have applied, stopped before any attempt settled it. */
function outcomeUnknownError(spec: RequestSpec): UpstreamError {
  return new UpstreamError({ code: ErrorCode.WRITE_OUTCOME_UNKNOWN, method: spec.method, path: spec.path, status: null, reason: "timeout", summary: "retry stopped" });
}

/** What opens a breaker: the upstream's own failures (5xx, timeouts, connections), never a caller's 4xx. */
function isUpstreamFault(err: unknown): boolean {
  return err instanceof UpstreamError && err.reason !== "circuit" && (err.status === null || err.status >= 500) && err.reason !== "unauthenticated";
}

/** HMAC-SHA256 of cursor payloads, 128 bits kept (base64url). */
function cursorSigner(secret: string): CursorSigner {
  const sign = (payload: string) => createHmac("sha256", secret).update(payload).digest().subarray(0, 16).toString("base64url");
  return {
    sign,
    verify(payload, signature) {
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

function count(counter: CallCounter, route: string): void {
  counter.total++;
  counter.byRoute[route] = (counter.byRoute[route] ?? 0) + 1;
}

/**
 * The reads that may ask `include=embedded` (docs/graph.md#batching-rules): employee-attribute
 * definitions exist only embedded in attribute lists; an employee list's embedded job positions
 * and employments, and an establishment's embedded legal entity, prime the loaders of their type
 * (subgraphs/shared/graphql/embedded.ts). Lists and their single reads.
 */
const EMBEDDED_SOURCES = ["/service-api/employee-attributes", "/service-api/employees", "/service-api/business-establishments"];
const embeddable = (path: string) => EMBEDDED_SOURCES.some((source) => path === source || (path.startsWith(`${source}/`) && !path.slice(source.length + 1).includes("/")));

/**
 * Arrays comma-joined, null/undefined left out, `embedded` never requested (docs/graph.md#batching-rules) unless
 * `allowEmbedded` (the read is one of EMBEDDED_SOURCES).
 */
export function buildQuery(query?: QueryParams, options: { allowEmbedded?: boolean } = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    let text: string;
    if (Array.isArray(value)) {
      if (value.length === 0) throw new TypeError(`query parameter ${name} is an empty list`);
      text = value.join(",");
    } else text = String(value);
    if (name === "include" && !options.allowEmbedded) {
      text = text
        .split(",")
        .filter((v) => v.trim() !== "embedded")
        .join(",");
      if (text === "") continue;
    }
    params.set(name, text);
  }
  return params.toString();
}

function parseJson<T>(text: string, spec: RequestSpec, status = 200): T {
  if (text === "") return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UpstreamError({ method: spec.method, path: spec.path, status, reason: "http", summary: "with a body that is not JSON" });
  }
}

function header(response: Response<string>, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
