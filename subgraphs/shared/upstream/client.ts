import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Agent as HttpAgent, STATUS_CODES } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import got, { RequestError, TimeoutError, type Got, type Response } from "got";
import { GraphQLError } from "graphql";
import { BrokenCircuitError, ConsecutiveBreaker, IsolatedCircuitError, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";
import { ErrorCode } from "../error-codes.js";
import { DEFAULT_ETAG_CACHE_BYTES, type UpstreamConfig } from "./config.js";
import { UpstreamError, budgetExceeded, deadlineExceeded, safeErrorParts, type UpstreamErrorCode } from "./errors.js";
import { expectItems, expectRepresentation } from "./expectations.js";
import { LoaderRegistry } from "./loaders.js";
import type { CallCounter, CurrentApi, CursorSigner, Envelope, LegacyApi, QueryParams, SessionOptions, UpstreamSession } from "./types.js";
import { Limiter, LruMap, MAX_FILTER_VALUES, chunk, filterValues, mapConcurrent, sleep } from "./util.js";

/**
 * The one HTTP access layer to both APIs of the directory service.
 *
 * - got with keep-alive agents owned by the `Upstream` (closed by `close()`); no got retries, no
 *   got cache: every attempt goes through `attempt()` so each one is counted.
 * - Retries: GETs (and token requests, which are idempotent) on 429 within `maxRetryAfterSeconds`,
 *   on 502/503/504, on connection failures and connect timeouts, with jittered exponential
 *   backoff. A write (PUT/POST) is retried only when it provably never left this process
 *   (connection refused, DNS failure, connect timeout); once it may have reached the upstream it
 *   is sent once. A read that times out is retried too: every attempt's timeout is its share of
 *   what is left of the request's deadline (`x-deadline-ms`, at most `deadlineMs`), so a hung
 *   request costs a fraction of the deadline and retries never make the caller wait longer than
 *   it. Past the deadline: DEADLINE_EXCEEDED.
 * - A circuit breaker per API (cockatiel): after `breakerFailures` requests in a row failed with a
 *   5xx, a timeout or a connection failure, that API is not called for `breakerOpenMs`. Only the
 *   upstream's own failures count: no caller can open it with bad requests (4xx).
 * - A budget of upstream calls per session (`callBudget`): the attempt beyond it is not made, the
 *   operation gets UPSTREAM_BUDGET_EXCEEDED.
 * - Conditional GETs through one ETag cache bounded in entries and in size, whose keys start
 *   with the caller's identity (a hash of the forwarded credentials), so that no caller is ever
 *   answered from another caller's entry.
 */

export const API_VERSION = "2024-11-01";
const CURRENT_PREFIX = "/service-api";
const ROUTE_PREFIXES = ["/service-api", "/api/v3", "/directory/api/4.0", "/organization/structure/api"];
const PAGE_LIMIT = 100;
/** bodies larger than this are not kept for revalidation */
const MAX_CACHED_BODY = 1 << 20;
const MAX_CONNECT_TIMEOUT_MS = 5000;
/** an attempt's share of the deadline is never below this (unless less than this is left) */
const MIN_ATTEMPT_MS = 200;
const RETRIABLE_STATUSES = new Set([502, 503, 504]);
/**
 * Answers of a proxy in front of the upstream that gave up waiting for it (502, 504): the write
 * may have been applied behind it. A 503 is the upstream refusing the request before doing it.
 */
const WRITE_UNKNOWN_STATUSES = new Set([502, 504]);
/** failures where the request cannot have reached the upstream: safe to repeat even for a write */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
/** failures after which a read may be repeated */
const RETRIABLE_NETWORK_CODES = new Set([...NOT_SENT_CODES, "ECONNRESET", "EPIPE", "ECONNABORTED", "ESOCKETTIMEDOUT"]);

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

type Api = "current" | "legacy" | "token";

interface RequestSpec {
  api: Api;
  method: "GET" | "POST" | "PUT";
  /** path relative to the base URL (or the token URL's path), without query */
  path: string;
  /** the full URL, query included */
  url: string;
  json?: unknown;
  form?: Record<string, string>;
  /** answer null instead of throwing on 404 */
  nullOn404?: boolean;
}

interface CachedBody {
  etag: string;
  text: string;
}

interface CachedToken {
  token: string;
  refreshAt: number;
}

/** Internal per-session state the Upstream needs for every call. */
interface SessionState {
  calls: CallCounter;
  identity: string;
  authorization: string | null;
  limiter: Limiter;
  /** `performance.now()` at which the request's deadline passes */
  deadline: number;
  deadlineMs: number;
}

export class Upstream {
  readonly config: UpstreamConfig;
  /** process-wide counters of every attempt (including token requests and 304s) */
  readonly totals: CallCounter & { notModified: number };

  private readonly http: Got;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  /** `${identity} ${method} ${url}` -> the last 200 with an ETag; null when disabled */
  private readonly etags: LruMap<string, CachedBody> | null;
  private readonly listeners = new Set<UpstreamCallListener>();
  private cachedToken: CachedToken | null = null;
  private tokenRequest: Promise<string> | null = null;
  private readonly base: URL;
  private readonly tokenPath: string;
  /** signs connection cursors with the configured key (or a random one for this process) */
  readonly cursors: CursorSigner;
  /** one breaker per API; none when `breakerFailures` is 0 */
  private readonly breakers: Partial<Record<Api, CircuitBreakerPolicy>> = {};

  constructor(config: UpstreamConfig) {
    this.config = Object.freeze({ ...config });
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
    this.etags =
      config.etagCacheSize > 0 ? new LruMap(config.etagCacheSize, config.etagCacheBytes ?? DEFAULT_ETAG_CACHE_BYTES, (b: CachedBody) => b.text.length + b.etag.length) : null;
    this.totals = { total: 0, byRoute: {}, notModified: 0 };
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
    this.http = got.extend({
      agent: { http: this.httpAgent, https: this.httpsAgent },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: "text",
      timeout: { request: config.timeoutMs, connect: Math.min(config.timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
      headers: { "user-agent": "directory-graph-upstream" },
    });
  }

  /** Subscribes to every upstream attempt; returns the unsubscribe function. */
  onCall(listener: UpstreamCallListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One session per GraphQL request. */
  session(options: SessionOptions = {}): UpstreamSession {
    const forwarded = this.config.auth === "forward";
    const authorization = forwarded ? (options.authorization?.trim() || null) : null;
    const identity = forwarded
      ? authorization === null
        ? "forward:anonymous"
        : `forward:${createHash("sha256").update(authorization).digest("hex")}`
      : `service:${this.config.clientId ?? ""}`;
    const asked = options.deadlineMs;
    const deadlineMs = asked !== undefined && Number.isFinite(asked) && asked >= 0 ? Math.min(Math.floor(asked), this.config.deadlineMs) : this.config.deadlineMs;
    const state: SessionState = {
      calls: { total: 0, byRoute: {} },
      identity,
      authorization,
      limiter: new Limiter(this.config.concurrency),
      deadline: performance.now() + deadlineMs,
      deadlineMs,
    };
    const current = this.currentApi(state);
    const legacy = this.legacyApi(state);
    return {
      current,
      legacy,
      caller: createHash("sha256").update(`directory-graph caller ${identity}`).digest("hex").slice(0, 16),
      calls: state.calls,
      forwarded,
      forwardLegacyWrites: this.config.forwardLegacyWrites,
      loaders: new LoaderRegistry(),
      concurrency: this.config.concurrency,
      cursors: this.cursors,
      deadlineMs,
    };
  }

  async close(): Promise<void> {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.listeners.clear();
  }

  // ---- the two APIs ----

  private currentApi(state: SessionState): CurrentApi {
    const self = this;
    const page = async <T>(path: string, query?: QueryParams) =>
      this.send<Envelope<T>>(state, { api: "current", method: "GET", ...this.target(currentPath(path), query) }).then((b) =>
        checkEnvelope<T>(b, currentPath(path)),
      );
    async function* iterate<T>(path: string, query?: QueryParams): AsyncIterable<T> {
      const first = currentPath(path);
      let envelope = await page<T>(first, { limit: PAGE_LIMIT, ...query });
      const seen = new Set<string>();
      for (;;) {
        yield* envelope.items;
        const next = envelope.links?.next?.href;
        if (!next) return;
        if (seen.has(next)) throw new Error(`GET ${first}: links.next repeats a page already read`);
        seen.add(next);
        const target = self.followHref(next, first);
        envelope = checkEnvelope<T>(await self.send<Envelope<T>>(state, { api: "current", method: "GET", ...target }), target.path);
      }
    }
    const all = async <T>(path: string, query?: QueryParams): Promise<T[]> => {
      const out: T[] = [];
      for await (const item of iterate<T>(path, query)) out.push(item);
      return out;
    };
    return {
      read: async <T>(path: string, query?: QueryParams) =>
        this.send<T>(state, { api: "current", method: "GET", nullOn404: true, ...this.target(currentPath(path), query) }).then((b) =>
          expectRepresentation(currentPath(path), b),
        ),
      page,
      iterate,
      all,
      allByValues: async <T>(path: string, filter: string, values: readonly string[], query?: QueryParams): Promise<T[]> => {
        const chunks = chunk(filterValues(filter, values), MAX_FILTER_VALUES);
        const parts = await mapConcurrent(chunks, this.config.concurrency, (c) => all<T>(path, { ...query, [filter]: c }));
        if (parts.length <= 1) return parts.flat();
        // an item matching values of two chunks (an occupation category valid for many
        // establishments) comes back once per chunk: keep its first copy
        const seen = new Set<unknown>();
        return parts.flat().filter((item) => {
          const id = (item as { id?: unknown } | null)?.id;
          if (id === undefined) return true;
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
      },
      post: async <T>(path: string, body: unknown, query?: QueryParams) =>
        this.send<T>(state, { api: "current", method: "POST", json: body, ...this.target(currentPath(path), query) }) as Promise<T>,
    };
  }

  private legacyApi(state: SessionState): LegacyApi {
    return {
      get: async <T>(path: string, query?: QueryParams) =>
        this.send<T>(state, { api: "legacy", method: "GET", ...this.target(checkPath(path), query) }) as Promise<T>,
      getOrNull: async <T>(path: string, query?: QueryParams) =>
        this.send<T>(state, { api: "legacy", method: "GET", nullOn404: true, ...this.target(checkPath(path), query) }),
      put: async <T>(path: string, body: unknown, query?: QueryParams) =>
        this.send<T>(state, { api: "legacy", method: "PUT", json: body, ...this.target(checkPath(path), query) }) as Promise<T>,
    };
  }

  private target(path: string, query?: QueryParams): { path: string; url: string } {
    const qs = buildQuery(query, { allowEmbedded: EMBEDDED_SOURCES.has(path) });
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

  /** One logical request through its API's circuit breaker. */
  private async send<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const breaker = this.breakers[spec.api];
    if (!breaker) return this.sendThrough<T>(state, spec);
    try {
      return await breaker.execute(() => this.sendThrough<T>(state, spec));
    } catch (err) {
      if (err instanceof BrokenCircuitError || err instanceof IsolatedCircuitError) {
        throw new UpstreamError({ method: spec.method, path: spec.path, status: null, reason: "circuit" });
      }
      throw err;
    }
  }

  /** One logical request: authentication, retries, conditional GET, error mapping. */
  private async sendThrough<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const headers: Record<string, string> = { accept: "application/json" };
    let token: string | null = null;
    if (spec.api === "current") {
      headers["api-version"] = API_VERSION;
      if (this.config.auth === "forward") {
        if (state.authorization === null) {
          throw new UpstreamError({ method: spec.method, path: spec.path, status: null, reason: "unauthenticated" });
        }
        headers.authorization = state.authorization;
      } else {
        token = await this.token(state);
        headers.authorization = `Bearer ${token}`;
      }
    } else if (spec.api === "legacy") {
      headers.authorization = `service application=${this.config.apiKey ?? ""}`;
    }

    const cache = spec.method === "GET" && spec.api !== "token" ? this.etags : null;
    const cacheKey = `${state.identity} ${spec.method} ${spec.url}`;
    const idempotent = spec.method === "GET" || spec.api === "token";
    let retriesLeft = this.config.retries;
    let refreshed = false;
    let attemptNo = 0;
    for (;;) {
      attemptNo++;
      const cached = cache?.get(cacheKey);
      const attemptHeaders = cached ? { ...headers, "if-none-match": cached.etag } : headers;
      let response: Response<string>;
      // a read shares what is left of the deadline with its possible retries; a write, sent once, has it all
      const timeoutMs = (left: number) => Math.min(this.config.timeoutMs, idempotent ? Math.max(left / (retriesLeft + 1), Math.min(left, MIN_ATTEMPT_MS)) : left);
      try {
        response = await this.attempt(state, spec, attemptHeaders, attemptNo, spec.api === "token" ? null : state.limiter, timeoutMs);
      } catch (err) {
        if (err instanceof GraphQLError) throw err;
        const failure = classifyFailure(err);
        const retriable = failure.retriable || (idempotent && failure.reason === "timeout");
        if (retriable && retriesLeft > 0 && (idempotent || failure.notSent)) {
          await this.pause(state, this.backoff(this.config.retries - retriesLeft));
          retriesLeft--;
          continue;
        }
        // a write that may have reached the upstream and got no answer: applied or not, nobody
        // knows, whatever cut it off (the deadline included)
        const outcomeUnknown = !idempotent && !failure.notSent;
        if (!outcomeUnknown && failure.reason === "timeout" && this.left(state) <= 0) throw deadlineExceeded(state.deadlineMs);
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
      if (status === 304 && cached) return parseJson<T>(cached.text, spec);
      if (status >= 200 && status < 300) {
        if (cache !== null) {
          const etag = header(response, "etag");
          if (etag && response.body.length <= MAX_CACHED_BODY) cache.set(cacheKey, { etag, text: response.body });
          else cache.delete(cacheKey);
        }
        return parseJson<T>(response.body, spec, status);
      }

      if (cache !== null) cache.delete(cacheKey);
      if (status === 404 && spec.nullOn404) return null;
      if (status === 401 && token !== null && !refreshed) {
        // the token may have expired early or been revoked: one fresh token, one more try
        refreshed = true;
        this.invalidateToken(token);
        token = await this.token(state);
        headers.authorization = `Bearer ${token}`;
        continue;
      }
      let retryAfter: number | undefined;
      if (status === 429) {
        retryAfter = parseRetryAfter(header(response, "retry-after"));
        const wait = retryAfter !== undefined ? retryAfter * 1000 : this.backoff(this.config.retries - retriesLeft);
        const waitable = (retryAfter === undefined || retryAfter <= this.config.maxRetryAfterSeconds) && wait < this.left(state);
        if (idempotent && retriesLeft > 0 && waitable) {
          await sleep(wait);
          retriesLeft--;
          continue;
        }
      } else if (RETRIABLE_STATUSES.has(status) && idempotent && retriesLeft > 0 && this.backoff(this.config.retries - retriesLeft) < this.left(state)) {
        await this.pause(state, this.backoff(this.config.retries - retriesLeft));
        retriesLeft--;
        continue;
      }
      throw this.httpError(spec, response, retryAfter, !idempotent && WRITE_UNKNOWN_STATUSES.has(status));
    }
  }

  /** ms left before the session's deadline */
  private left(state: SessionState): number {
    return state.deadline - performance.now();
  }

  /** Waits before a retry, no longer than the deadline allows. */
  private async pause(state: SessionState, ms: number): Promise<void> {
    await sleep(Math.max(0, Math.min(ms, this.left(state))));
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
      const left = this.left(state);
      if (left <= 0) throw deadlineExceeded(state.deadlineMs);
      if (state.calls.total >= this.config.callBudget) throw budgetExceeded(this.config.callBudget);
      const timeoutMs = Math.max(1, Math.floor(timeoutFor(left)));
      const route = routeOf(spec.method, spec.path);
      count(state.calls, route);
      count(this.totals, route);
      const started = performance.now();
      try {
        const response = await this.http(spec.url, {
          method: spec.method,
          headers,
          timeout: { request: timeoutMs, connect: Math.min(timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
          ...(spec.json !== undefined ? { json: spec.json } : {}),
          ...(spec.form !== undefined ? { form: spec.form } : {}),
        });
        const notModified = response.statusCode === 304;
        if (notModified) this.totals.notModified++;
        this.emit({ api: spec.api, method: spec.method, route, status: response.statusCode, attempt: attemptNo, durationMs: performance.now() - started, notModified });
        return response;
      } catch (err) {
        this.emit({
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

  private emit(event: UpstreamCallEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a faulty log hook must not fail the request it observes
      }
    }
  }

  private backoff(retryIndex: number): number {
    const base = (this.config.retryBaseDelayMs ?? 100) * 2 ** retryIndex;
    return base * (0.5 + Math.random());
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

  // ---- client-credentials token ----

  /** The cached token, or the one being requested: a single token request however many wait. */
  private token(state: SessionState): Promise<string> {
    const cached = this.cachedToken;
    if (cached !== null && Date.now() < cached.refreshAt) return Promise.resolve(cached.token);
    if (this.tokenRequest === null) {
      this.tokenRequest = this.requestToken(state).finally(() => {
        this.tokenRequest = null;
      });
    }
    return this.tokenRequest;
  }

  /** Forgets `token` unless a newer one has already replaced it. */
  private invalidateToken(token: string): void {
    if (this.cachedToken?.token === token) this.cachedToken = null;
  }

  private async requestToken(state: SessionState): Promise<string> {
    const form: Record<string, string> = {
      grant_type: "client_credentials",
      client_id: this.config.clientId ?? "",
      client_secret: this.config.clientSecret ?? "",
    };
    if (this.config.scopes.length > 0) form.scope = this.config.scopes.join(" ");
    const requestedAt = Date.now();
    const body = await this.send<Record<string, unknown>>(state, {
      api: "token",
      method: "POST",
      path: this.tokenPath,
      url: this.config.tokenUrl,
      form,
    });
    const token = body?.access_token;
    const lifetime = body?.expires_in;
    if (typeof token !== "string" || token === "" || /[\r\n]/.test(token)) {
      throw new UpstreamError({ method: "POST", path: this.tokenPath, status: 200, reason: "http", summary: "OK without an access_token" });
    }
    const lifetimeMs = (typeof lifetime === "number" && lifetime > 0 ? lifetime : 300) * 1000;
    const margin = Math.min(this.config.tokenRefreshMarginMs ?? 60_000, lifetimeMs * 0.1);
    this.cachedToken = { token, refreshAt: requestedAt + lifetimeMs - margin };
    return token;
  }
}

// ---- helpers ----

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
 * The route name of a path: below a known API prefix, segments alternate between collection and
 * id, and ids become `{id}` (`/service-api/employees/42/x` → `/service-api/employees/{id}/x`).
 */
export function routeOf(method: string, path: string): string {
  const p = path.replace(/[?#].*$/, "");
  const prefix = ROUTE_PREFIXES.find((x) => p === x || p.startsWith(`${x}/`));
  if (prefix === undefined) return `${method} ${p}`;
  const rest = p.slice(prefix.length).split("/").slice(1);
  return `${method} ${prefix}${rest.map((s, i) => (i % 2 === 1 && s !== "" ? "/{id}" : `/${s}`)).join("")}`;
}

/** Current-API paths may be given relative to `/service-api` (`/employees`) or in full. */
function currentPath(path: string): string {
  checkPath(path);
  return path === CURRENT_PREFIX || path.startsWith(`${CURRENT_PREFIX}/`) ? path : `${CURRENT_PREFIX}${path}`;
}

function checkPath(path: string): string {
  if (!path.startsWith("/") || /[?#]/.test(path) || path.includes("..")) {
    throw new TypeError(`upstream path must start with "/" and carry no query string: ${JSON.stringify(path.slice(0, 80))}`);
  }
  return path;
}

/**
 * The one exception to "never `include=embedded`" (docs/graph.md#batching-rules): employee-attribute definitions
 * exist only embedded in attribute lists, the interface has no other read of them.
 */
const EMBEDDED_SOURCES = new Set(["/service-api/employee-attributes"]);

/**
 * Arrays comma-joined, null/undefined left out, `embedded` never requested (docs/graph.md#batching-rules) unless
 * `allowEmbedded` (the list is one of EMBEDDED_SOURCES).
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

function checkEnvelope<T>(body: unknown, path: string): Envelope<T> {
  const b = body as Envelope<T> | null;
  if (b === null || typeof b !== "object" || !Array.isArray(b.items)) {
    throw new UpstreamError({ method: "GET", path, status: 200, reason: "http", summary: "OK with a body that is not a collection" });
  }
  expectItems(path, b.items);
  return b;
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

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

interface Failure {
  reason: "timeout" | "network";
  summary: string;
  retriable: boolean;
  /** the request cannot have reached the upstream */
  notSent: boolean;
}

function classifyFailure(err: unknown): Failure {
  if (err instanceof TimeoutError) {
    // a connect or DNS timeout means nothing was sent; a timeout later on means it may have been
    const early = err.event === "connect" || err.event === "lookup";
    return { reason: "timeout", summary: `${err.event} timeout`, retriable: early, notSent: early };
  }
  const code = err instanceof RequestError ? err.code : typeof (err as { code?: unknown })?.code === "string" ? (err as { code: string }).code : "ERR_UNKNOWN";
  return { reason: "network", summary: code, retriable: RETRIABLE_NETWORK_CODES.has(code), notSent: NOT_SENT_CODES.has(code) };
}
