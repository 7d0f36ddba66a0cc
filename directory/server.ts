import type { IncomingMessage, ServerResponse } from "node:http";
import { BodyTooLargeError, listen, readBody } from "../platform/http.js";
import type { Lifecycle } from "../platform/lifecycle.js";
import { Logger } from "../platform/log.js";
import { Faults, RequestStats, registerAdminRoutes, registerOutsideChanges } from "./admin.js";
import type { DirectoryContext } from "./context.js";
import type { DirectoryClient } from "./current/auth.js";
import type { ListWork } from "./current/resource.js";
import { registerCurrentApi } from "./current/index.js";
import type { OutboxOptions } from "./current/outbox.js";
import { generateCompany } from "./data/generate.js";
import type { Company, GenerateOptions } from "./data/model.js";
import { errorBodyFor } from "./http/errors.js";
import { HttpError, Router, type DirectoryResponse } from "./http/router.js";
import { registerLegacyApi } from "./legacy/index.js";
import { strictRefusal } from "./strict.js";
import { countsAgainstLimit, headerBytes, PRODUCTION_LIMITS, SlidingWindow, type DirectoryLimits } from "./limits.js";

/**
 * The in-process implementation of the directory service's REST interface: the current API
 * under `/service-api`, the token endpoint, the legacy API, and the admin routes.
 */

export interface DirectoryOptions extends GenerateOptions {
  /** 0 picks a free port; default 0 */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** access-token lifetime in seconds; default 1800 */
  tokenLifetimeSeconds?: number;
  /** OAuth clients beside the demo ones of docs/decisions.md#test-and-demo-hooks, e.g. a restricted caller with scopes no demo client combines */
  clients?: Record<string, DirectoryClient>;
  /** the process's lifecycle when the directory runs alone: its stop drains it (platform/lifecycle.ts) */
  lifecycle?: Lifecycle;
  /** the webhook deliveries' retry schedule (default 1, 2, 4, 8 minutes) and suspension (after 5 failed deliveries in a row) */
  webhooks?: OutboxOptions;
  /**
   * production's limits (limits.ts), each on by default at production's value: 50 requests in any
   * 60 s, 408 after 5 s, 431 over 8 KB of headers; a test not about limits lifts one by name
   * (e.g. `{ requests: 0 }`)
   */
  limits?: Partial<DirectoryLimits>;
  /** where a failed handler is logged; default a `directory` logger at LOG_LEVEL */
  logger?: Logger;
  /**
   * production's published contract enforced on every request (contract/strict.ts): a path
   * neither production nor the interface publishes is a 404, a query parameter it does not publish
   * on that path a 400 naming it. Off by default: the twin also serves a few reads of its own
   * (docs/directory.md#strict-mode); the contract test runs the facade with it on.
   */
  strict?: boolean;
  /** called with every request the APIs receive (the admin routes apart) once answered: the contract test's recorder */
  onRequest?: (request: RecordedRequest) => void;
}

/** One request the APIs received, as `onRequest` is told it. */
export interface RecordedRequest {
  method: string;
  /** the path, without the query */
  path: string;
  /** the query parameters, in order, as sent */
  query: Array<[string, string]>;
  /** the route that served it (`GET /service-api/employees/{id}`); null when no route has the path */
  route: string | null;
  status: number;
  /** the client's User-Agent, as sent */
  userAgent: string | null;
}

export interface RunningDirectory {
  /** `http://127.0.0.1:<port>`: the base URL of both APIs */
  url: string;
  port: number;
  company: Company;
  stats: RequestStats;
  faults: Faults;
  /** what the current API's list pages have cost since start (in-process only: for scale tests) */
  work: Readonly<ListWork>;
  close(): Promise<void>;
}

export async function startDirectory(options: DirectoryOptions = {}): Promise<RunningDirectory> {
  const company = generateCompany(options);
  const ctx: DirectoryContext = {
    company,
    options: { tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 1800, clients: options.clients, webhooks: options.webhooks },
  };
  const stats = new RequestStats();
  const faults = new Faults();
  const admin = new Router();
  registerAdminRoutes(admin, stats, faults);
  const api = new Router();
  const { work, outbox, changeReference } = registerCurrentApi(api, ctx);
  registerOutsideChanges(admin, outbox, changeReference);
  registerLegacyApi(api, ctx);
  const logger = options.logger ?? new Logger("directory");
  const limits: DirectoryLimits = { ...PRODUCTION_LIMITS, ...options.limits };
  const window = limits.requests > 0 ? new SlidingWindow(limits.requests, limits.windowSeconds) : null;

  // platform/http.ts: the shutdown gate, compression as the client accepts, the request's scope
  const listener = await listen(
    async (req, res) => {
      const routes: Routes = { admin, api, stats, faults, limits, window, strict: options.strict ?? false, route: null };
      const answer = await answerFor(req, routes).catch((err: unknown) => {
        // handlers answer their own errors; this is a bug in the service itself
        logger.error("handler failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        return { status: 500, body: errorBodyFor(pathOf(req), 500) };
      });
      if (answer !== HANG) send(res, answer, req.method === "HEAD");
      else faults.hold(res);
      if (options.onRequest && !pathOf(req).startsWith("/_admin/")) options.onRequest(recorded(req, routes.route, answer === HANG ? 0 : answer.status));
    },
    { port: options.port ?? 0, host: options.host ?? "127.0.0.1", logger, lifecycle: options.lifecycle, keepAliveTimeoutMs: 65_000, cutOnClose: true, traced: false },
  );
  return { url: listener.origin, port: listener.port, company, stats, faults, work, close: () => (outbox.close(), listener.close()) };
}

/** a fault that never answers: the connection stays open until the client, `close` or clearing the faults cuts it */
const HANG = Symbol("hang");

interface Routes {
  admin: Router;
  api: Router;
  stats: RequestStats;
  faults: Faults;
  limits: DirectoryLimits;
  /** the configured request limit; null when lifted */
  window: SlidingWindow | null;
  /** whether production's published contract is enforced (DirectoryOptions.strict) */
  strict: boolean;
  /** set by answerFor: the route that matched the request, for the recorder */
  route: string | null;
}

function recorded(req: IncomingMessage, route: string | null, status: number): RecordedRequest {
  const url = new URL(req.url ?? "/", "http://directory.local");
  return { method: req.method ?? "GET", path: url.pathname, query: [...url.searchParams], route, status, userAgent: req.headers["user-agent"] ?? null };
}

/** The answer to one request: the admin routes (loopback only), else the APIs behind the injected faults. */
async function answerFor(req: IncomingMessage, routes: Routes): Promise<DirectoryResponse | typeof HANG> {
  const { admin, api, stats, faults, limits, window } = routes;
  const method = req.method ?? "GET";
  const lookup = method === "HEAD" ? "GET" : method;
  const path = pathOf(req);
  if (path.startsWith("/_admin/")) {
    // as if they did not exist: the admin routes are a local test hook, never a remote one
    if (!isLoopback(req.socket.remoteAddress)) return { status: 404, body: errorBodyFor(path, 404) };
    return dispatch(admin.match(lookup, path), lookup, req);
  }
  const found = api.match(lookup, path);
  routes.route = found && "route" in found ? `${found.route.method} ${found.route.pattern}` : null;
  stats.record(routes.route ?? `${method} (unmatched)`);
  if (limits.maxHeaderBytes > 0 && headerBytes(req) > limits.maxHeaderBytes) {
    return { status: 431, headers: { connection: "close" }, body: errorBodyFor(path, 431, `The request's headers are over ${limits.maxHeaderBytes} bytes.`) };
  }
  const limit = faults.requestLimit ?? window;
  const retryAfter = limit && countsAgainstLimit(path) ? limit.take() : null;
  if (limit && retryAfter !== null) {
    const detail = `At most ${limit.requests} requests in any ${limit.windowSeconds} s: retry after ${retryAfter} s.`;
    return { status: 429, headers: { "retry-after": String(retryAfter) }, body: errorBodyFor(path, 429, detail) };
  }
  if (routes.strict) {
    const refusal = strictRefusal(routes.route, path, new URL(req.url ?? "/", "http://directory.local").searchParams);
    if (refusal) return refusal;
  }
  const fault = faults.decide();
  if (fault.kind === "hang") return HANG;
  if (limits.requestTimeoutMs <= 0) return answerPassed(req, found, lookup, path, faults, fault);
  // production aborts a request that runs longer than its limit; the handler's work is dropped
  let timer: NodeJS.Timeout | undefined;
  const aborted = new Promise<DirectoryResponse>((resolve) => {
    timer = setTimeout(() => resolve(overrun(path, `${limits.requestTimeoutMs} ms`)), limits.requestTimeoutMs);
  });
  try {
    return await Promise.race([answerPassed(req, found, lookup, path, faults, fault), aborted]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer to a request the limits let through: after the faults' latency, their error or the route's. */
async function answerPassed(req: IncomingMessage, found: ReturnType<Router["match"]>, lookup: string, path: string, faults: Faults, fault: Exclude<ReturnType<Faults["decide"]>, { kind: "hang" }>): Promise<DirectoryResponse> {
  if (fault.delayMs > 0) await sleep(fault.delayMs);
  if (fault.kind === "error") return { status: fault.status, body: errorBodyFor(path, fault.status) };
  const response = await dispatch(found, lookup, req, faults.shapesEmbedded);
  const { overrunItems } = faults.current;
  const items = (response.body as { items?: unknown } | undefined)?.items;
  if (overrunItems > 0 && Array.isArray(items) && items.length > overrunItems) return overrun(path, `${items.length} items`);
  if (!faults.shapesEmbedded) return response;
  faults.shapeEmbedded(response.body);
  // the body changed: not its text as it was, nor a version tag a client would keep the shaped
  // answer under
  const { text: _before, ...shaped } = response;
  return shaped.headers ? { ...shaped, headers: withoutHeader(shaped.headers, "etag") as Record<string, string> } : shaped;
}

async function dispatch(found: ReturnType<Router["match"]>, method: string, req: IncomingMessage, shaped = false): Promise<DirectoryResponse> {
  const origin = `http://${req.headers.host ?? `127.0.0.1:${req.socket.localPort}`}`;
  const url = new URL(req.url ?? "/", origin);
  if (found === null) return { status: 404, body: errorBodyFor(url.pathname, 404) };
  if ("allowed" in found) return { status: 405, headers: { allow: found.allowed.join(", ") }, body: errorBodyFor(url.pathname, 405) };
  try {
    const body = await bodyOf(req, url.pathname);
    // a shaped answer (faults' partial or missing embeds) is no version of the resource: no 304
    // against the version a client holds
    const headers = shaped ? withoutHeader(req.headers, "if-none-match") : req.headers;
    return await found.handler({ method, path: url.pathname, query: url.searchParams, headers, params: found.params, body, origin, raw: req });
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, headers: err.headers, body: err.body };
    throw err;
  }
}

/** production's answer to a request that ran over its duration limit: 408, to be asked again simpler */
function overrun(path: string, what: string): DirectoryResponse {
  return { status: 408, headers: { connection: "close" }, body: errorBodyFor(path, 408, `The request ran longer than its limit (${what}): ask for less.`) };
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://directory.local").pathname;
}

/** The body as JSON or a form (the token endpoint), read by platform/http.ts within its size limit. */
async function bodyOf(req: IncomingMessage, path: string): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (err) {
    // the rest of the body is not read, so the connection cannot carry another request
    if (err instanceof BodyTooLargeError) throw new HttpError(413, errorBodyFor(path, 413), { connection: "close" });
    throw err;
  }
  if (raw.length === 0) return undefined;
  const text = raw.toString("utf8");
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, errorBodyFor(path, 400, "The request body is not valid JSON."));
  }
}

function send(res: ServerResponse, response: DirectoryResponse, isHead: boolean): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload: string | Buffer | undefined;
  if (Buffer.isBuffer(response.body) && response.status !== 304) {
    // a file (portrait images): sent as is, with the content type its handler set
    payload = response.body;
    headers["content-length"] = String(payload.length);
  } else if (response.body !== undefined && response.status !== 304 && response.status !== 204) {
    payload = response.text ?? JSON.stringify(response.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
      const isProblem = response.status >= 400 && isProblemBody(response.body);
      headers["content-type"] = isProblem ? "application/problem+json" : "application/json; charset=utf-8";
    }
    headers["content-length"] = String(Buffer.byteLength(payload));
  }
  res.writeHead(response.status, headers);
  res.end(isHead ? undefined : payload);
}

function isProblemBody(body: unknown): boolean {
  return typeof body === "object" && body !== null && "title" in body && "status" in body;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function withoutHeader<H extends Record<string, unknown>>(headers: H, name: string): H {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name)) as H;
}
