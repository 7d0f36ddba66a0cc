import { STATUS_CODES, type Agent as HttpAgent } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import got, { type Got, type Response } from "got";
import { CURRENT_PREFIX } from "./config.js";
import type { Span } from "@opentelemetry/api";
import type { RequestSpec } from "./apis.js";
import type { UpstreamBudget } from "./budget.js";
import type { UpstreamCallEvent, UpstreamCallListener } from "./types.js";
import type { UpstreamConfig } from "./config.js";
import { UpstreamError, safeErrorParts, type UpstreamErrorCode } from "./errors.js";
import { attemptDone, startAttemptSpan } from "./observe.js";
import { MAX_CONNECT_TIMEOUT_MS, classifyFailure } from "./retry.js";
import { routeOf } from "./routes.js";
import type { SessionState } from "./session-state.js";
import type { CallCounter } from "./types.js";
import type { Limiter } from "./util.js";
import { ErrorCode } from "../../../platform/error-codes.js";
import { keepAliveAgents } from "../../../platform/keep-alive.js";
import { Logger } from "../../../platform/log.js";
import { processMetrics } from "../../../platform/metrics.js";

/** the longest `/ready` waits for the token endpoint */
const READY_PROBE_TIMEOUT_MS = 2000;

/**
 * The HTTP attempts: got with keep-alive agents (closed by `close()`), no got retries, no got
 * cache, so that every attempt is made here and counted (on the session and the process totals),
 * traced (observe.ts) and reported to listeners.
 */
export class UpstreamTransport {
  /** process-wide counters of every attempt (including token requests and 304s) */
  readonly totals: CallCounter & { notModified: number } = { total: 0, byRoute: {}, notModified: 0 };
  private readonly http: Got;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private readonly listeners = new Set<UpstreamCallListener>();

  /** the routes whose retirement the directory announced, logged once each (route templates: a bounded set) */
  private readonly retiring = new Set<string>();
  /** `wire`'s rewrite, from the interface's `<base>/service-api` to `<base><DIRECTORY_API_PREFIX>`; null when they are the same */
  private readonly wirePrefix: { from: string; to: string } | null;

  constructor(
    private readonly config: UpstreamConfig,
    private readonly budget: UpstreamBudget,
    private readonly logger: Logger = new Logger("upstream"),
  ) {
    ({ http: this.httpAgent, https: this.httpsAgent } = keepAliveAgents({ maxSockets: 64 }));
    const base = config.baseUrl.replace(/\/+$/, "");
    const prefix = config.apiPrefix ?? CURRENT_PREFIX;
    this.wirePrefix = prefix === CURRENT_PREFIX ? null : { from: `${base}${CURRENT_PREFIX}`, to: `${base}${prefix}` };
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

  /**
   * A request's URL as sent: the current API under DIRECTORY_API_PREFIX (production's
   * `/lucca-api`). Everywhere else, the cache keys, the tags, the routes, the facade names the
   * current API by the interface's `/service-api`; only the wire differs.
   */
  private wire(url: string): string {
    if (this.wirePrefix === null || !url.startsWith(this.wirePrefix.from)) return url;
    const next = url.charAt(this.wirePrefix.from.length);
    return next === "" || next === "/" || next === "?" ? `${this.wirePrefix.to}${url.slice(this.wirePrefix.from.length)}` : url;
  }

  /** Subscribes to every upstream attempt; returns the unsubscribe function. */
  onCall(listener: UpstreamCallListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * One HTTP attempt, counted on the session and the process totals and reported to listeners.
   * The session's budget and deadline are checked when the attempt would start (after waiting for
   * a concurrency slot): past either, the attempt is not made.
   */
  attempt(
    state: SessionState,
    spec: RequestSpec,
    headers: Record<string, string>,
    attemptNo: number,
    limiter: Limiter | null,
    timeoutFor: (leftMs: number) => number,
  ): Promise<Response<string>> {
    const run = async () => {
      const timeoutMs = timeoutFor(await this.budget.admit(state, spec));
      const route = routeOf(spec.method, spec.path);
      count(state.calls, route);
      count(this.totals, route);
      return this.send(spec, { ...headers }, route, attemptNo, timeoutMs);
    };
    return limiter ? limiter.run(run) : run();
  }

  private async send(spec: RequestSpec, sent: Record<string, string>, route: string, attemptNo: number, timeoutMs: number): Promise<Response<string>> {
    const started = performance.now();
    const span = startAttemptSpan({ api: spec.api, method: spec.method, route, attempt: attemptNo }, spec.url, "if-none-match" in sent, sent);
    const event = { api: spec.api, method: spec.method, route, attempt: attemptNo };
    try {
      const response = await this.http(this.wire(spec.url), {
        method: spec.method,
        headers: sent,
        timeout: { request: timeoutMs, connect: Math.min(timeoutMs, MAX_CONNECT_TIMEOUT_MS) },
        ...(spec.json !== undefined ? { json: spec.json } : {}),
        ...(spec.form !== undefined ? { form: spec.form } : {}),
      });
      const notModified = response.statusCode === 304;
      if (notModified) this.totals.notModified++;
      this.noticeRetirement(spec, route, response);
      this.emit(span, { ...event, status: response.statusCode, durationMs: performance.now() - started, notModified });
      return response;
    } catch (err) {
      this.emit(span, { ...event, status: null, durationMs: performance.now() - started, notModified: false, failure: classifyFailure(err).summary });
      throw err;
    }
  }

  /**
   * A route the directory announces it will retire (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, and
   * the `Link` to what replaces it): counted on every answer, logged once per route and process,
   * so that an operator hears of it before the route stops answering.
   */
  private noticeRetirement(spec: RequestSpec, route: string, response: Response<string>): void {
    const deprecation = header(response, "deprecation");
    const sunset = header(response, "sunset");
    if (deprecation === undefined && sunset === undefined) return;
    const link = header(response, "link");
    processMetrics().upstreamRetiringAnswers.inc({ api: spec.api, route });
    if (this.retiring.has(route)) return;
    this.retiring.add(route);
    this.logger.warn("the directory announces that a route it answers is deprecated or will stop answering", {
      route,
      status: response.statusCode,
      ...(deprecation !== undefined ? { deprecation: deprecation.slice(0, 200) } : {}),
      ...(sunset !== undefined ? { sunset: sunset.slice(0, 200) } : {}),
      ...(link !== undefined ? { link: link.slice(0, 500) } : {}),
    });
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

  /**
   * The token endpoint's part of `/ready`: a client-credentials request without credentials: any
   * answer below 500 shows the upstream up, with no secret sent and no token spent; it goes around
   * the breakers, the retries and the counters, as it is no caller's.
   */
  async probeToken(): Promise<string> {
    try {
      const res = await this.http.post(this.config.tokenUrl, { form: { grant_type: "client_credentials" }, timeout: { request: READY_PROBE_TIMEOUT_MS } });
      return res.statusCode < 500 ? "ok" : `status ${res.statusCode}`;
    } catch (err) {
      return (err as { code?: string }).code === "ETIMEDOUT" ? "timeout" : "unreachable";
    }
  }

  /**
   * One GET whose answer is streamed, not read (a file's bytes: client.ts `file`): counted and
   * reported as any attempt, never retried, its body never buffered here. Resolves once the
   * answer's head has come; the body is the returned stream.
   */
  stream(url: string, path: string, headers: Record<string, string>): Promise<StreamedAnswer> {
    const route = routeOf("GET", path);
    count(this.totals, route);
    const event = { api: "current" as const, method: "GET", route, attempt: 1 };
    const started = performance.now();
    const body = this.http.stream(this.wire(url), { headers, timeout: { request: this.config.timeoutMs, connect: Math.min(this.config.timeoutMs, MAX_CONNECT_TIMEOUT_MS) } });
    return new Promise((resolve, reject) => {
      body.once("response", (response: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
        this.emit(undefined, { ...event, status: response.statusCode, durationMs: performance.now() - started, notModified: false });
        resolve({ status: response.statusCode, headers: response.headers, body });
      });
      body.once("error", (err: unknown) => {
        this.emit(undefined, { ...event, status: null, durationMs: performance.now() - started, notModified: false, failure: classifyFailure(err).summary });
        reject(err);
      });
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.listeners.clear();
  }
}

/** A streamed answer: its status and headers, and its body still to be read. */
export interface StreamedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: NodeJS.ReadableStream & { destroy(error?: Error): unknown };
}

function count(counter: CallCounter, route: string): void {
  counter.total++;
  counter.byRoute[route] = (counter.byRoute[route] ?? 0) + 1;
}

/** An answer other than 2xx (or a usable 304) as the UpstreamError the caller gets. */
export function httpError(spec: RequestSpec, response: Response<string>, retryAfter?: number, outcomeUnknown = false): UpstreamError {
  const code: UpstreamErrorCode | undefined = outcomeUnknown ? ErrorCode.WRITE_OUTCOME_UNKNOWN : undefined;
  const token = spec.api === "token" ? tokenRefusal(response) : null;
  return new UpstreamError({
    ...((token?.code ?? code) !== undefined ? { code: token?.code ?? code } : {}),
    method: spec.method,
    path: spec.path,
    status: response.statusCode,
    reason: "http",
    summary: STATUS_CODES[response.statusCode] ?? response.statusMessage,
    ...(token ? token.parts : errorBodyParts(response)),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}

/** What a JSON error body may safely add (errors.ts). */
function errorBodyParts(response: Response<string>): ReturnType<typeof safeErrorParts> {
  if (!/json/i.test(header(response, "content-type") ?? "")) return {};
  try {
    return safeErrorParts(JSON.parse(response.body));
  } catch {
    // an unparsable error body adds nothing the status does not say
    return {};
  }
}

/**
 * The facade's own credentials or scopes were refused: the caller cannot be served. Only the OAuth
 * error code is kept, the description may repeat what was sent.
 */
function tokenRefusal(response: Response<string>): { parts: { detail?: string }; code?: UpstreamErrorCode } {
  let oauth: unknown;
  try {
    oauth = (JSON.parse(response.body) as { error?: unknown }).error;
  } catch {
    oauth = undefined;
  }
  const status = response.statusCode;
  return {
    parts: typeof oauth === "string" && /^[a-z_]{1,40}$/.test(oauth) ? { detail: oauth } : {},
    ...(status >= 400 && status < 500 && status !== 429 ? { code: ErrorCode.UNAUTHENTICATED } : {}),
  };
}

export function header(response: Response<string>, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
