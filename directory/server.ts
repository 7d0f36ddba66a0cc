import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Faults, RequestStats, registerAdminRoutes } from "./admin.js";
import { registerCurrentApi } from "./current/index.js";
import { generateCompany } from "./data/generate.js";
import type { Company, GenerateOptions } from "./data/model.js";
import { HttpError, Router, type DirectoryRequest, type DirectoryResponse } from "./http/router.js";
import { registerLegacyApi } from "./legacy/index.js";

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
}

/** Shared by the route modules of one running service. */
export interface DirectoryContext {
  company: Company;
  options: Required<Pick<DirectoryOptions, "tokenLifetimeSeconds">>;
}

export interface RunningDirectory {
  /** `http://127.0.0.1:<port>`: the base URL of both APIs */
  url: string;
  port: number;
  company: Company;
  stats: RequestStats;
  faults: Faults;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;

export async function startDirectory(options: DirectoryOptions = {}): Promise<RunningDirectory> {
  const company = generateCompany(options);
  const ctx: DirectoryContext = {
    company,
    options: { tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 1800 },
  };
  const stats = new RequestStats();
  const faults = new Faults();

  const admin = new Router();
  registerAdminRoutes(admin, stats, faults);
  const api = new Router();
  registerCurrentApi(api, ctx);
  registerLegacyApi(api, ctx);

  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      // handlers answer their own errors; this is a bug in the service itself
      console.error("directory: unhandled error", err);
      if (!res.headersSent) send(res, { status: 500, body: problemBody(500, "Internal Server Error") }, false);
    });
  });
  server.keepAliveTimeout = 65_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = `http://${req.headers.host ?? `127.0.0.1:${port}`}`;
    const url = new URL(req.url ?? "/", origin);
    const method = req.method ?? "GET";
    const isHead = method === "HEAD";
    const lookup = isHead ? "GET" : method;

    if (url.pathname.startsWith("/_admin/")) {
      if (!isLoopback(req.socket.remoteAddress)) {
        return send(res, { status: 404, body: problemBody(404, "Not Found") }, isHead);
      }
      return dispatch(admin, lookup, url, req, res, origin, isHead);
    }

    const found = api.match(lookup, url.pathname);
    if (found && found !== "method") stats.record(`${found.route.method} ${found.route.pattern}`);
    else stats.record(`${method} (unmatched)`);

    const fault = faults.decide();
    if (fault.kind === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.kind === "error") {
      const headers: Record<string, string> = fault.retryAfter ? { "retry-after": String(fault.retryAfter) } : {};
      return send(res, { status: fault.status, headers, body: errorBodyFor(url.pathname, fault.status) }, isHead);
    }
    return dispatch(api, lookup, url, req, res, origin, isHead);
  }

  async function dispatch(
    router: Router,
    method: string,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    isHead: boolean,
  ): Promise<void> {
    const found = router.match(method, url.pathname);
    if (found === null) return send(res, { status: 404, body: errorBodyFor(url.pathname, 404) }, isHead);
    if (found === "method") return send(res, { status: 405, body: errorBodyFor(url.pathname, 405) }, isHead);
    let response: DirectoryResponse;
    try {
      const body = await readBody(req, url.pathname);
      const request: DirectoryRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        params: found.params,
        body,
        origin,
        raw: req,
      };
      response = await found.handler(request);
    } catch (err) {
      if (err instanceof HttpError) response = { status: err.status, headers: err.headers, body: err.body };
      else {
        console.error("directory: handler failed", err);
        response = { status: 500, body: errorBodyFor(url.pathname, 500) };
      }
    }
    send(res, response, isHead);
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      resolve((server.address() as AddressInfo).port);
    });
  });
  const host = options.host && options.host !== "0.0.0.0" && options.host !== "::" ? options.host : "127.0.0.1";

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    company,
    stats,
    faults,
    close: () => closeServer(server, hanging),
  };
}

async function readBody(req: IncomingMessage, path: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, errorBodyFor(path, 413));
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    const body = path.startsWith("/service-api") || path.startsWith("/connect")
      ? problemBody(400, "Bad Request", "the request body is not valid JSON")
      : { status: 400, message: "The request body is not valid JSON." };
    throw new HttpError(400, body);
  }
}

function send(res: ServerResponse, response: DirectoryResponse, isHead: boolean): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload: string | undefined;
  if (response.body !== undefined && response.status !== 304 && response.status !== 204) {
    payload = JSON.stringify(response.body);
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

export function problemBody(status: number, title: string, detail?: string, errors?: Record<string, string[]>) {
  return {
    type: `https://httpstatuses.io/${status}`,
    title,
    status,
    ...(detail !== undefined ? { detail } : {}),
    ...(errors !== undefined ? { errors } : {}),
  };
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  412: "Precondition Failed",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The error body in the style of the API the path belongs to. */
export function errorBodyFor(path: string, status: number): unknown {
  const title = TITLES[status] ?? "Error";
  if (path.startsWith("/service-api") || path.startsWith("/connect") || path.startsWith("/_admin")) {
    return problemBody(status, title);
  }
  return { status, message: title };
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function closeServer(server: Server, hanging: Set<ServerResponse>): Promise<void> {
  for (const res of hanging) res.destroy();
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}
