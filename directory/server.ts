import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { shutdownGate, type Lifecycle } from "../platform/lifecycle.js";
import { compressAnswer } from "../platform/compression.js";
import type { AddressInfo } from "node:net";
import { Faults, RequestStats, registerAdminRoutes } from "./admin.js";
import type { DirectoryContext } from "./context.js";
import type { DirectoryClient } from "./current/auth.js";
import type { ListWork } from "./current/resource.js";
import { registerCurrentApi } from "./current/index.js";
import { generateCompany } from "./data/generate.js";
import type { Company, GenerateOptions } from "./data/model.js";
import { errorBodyFor } from "./http/errors.js";
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
  /** OAuth clients beside the demo ones of docs/decisions.md#test-and-demo-hooks, e.g. a restricted caller with scopes no demo client combines */
  clients?: Record<string, DirectoryClient>;
  /** the process's lifecycle when the directory runs alone: its stop drains it (platform/lifecycle.ts) */
  lifecycle?: Lifecycle;
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

const MAX_BODY_BYTES = 1 << 20;

export async function startDirectory(options: DirectoryOptions = {}): Promise<RunningDirectory> {
  const company = generateCompany(options);
  const ctx: DirectoryContext = {
    company,
    options: { tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 1800, clients: options.clients },
  };
  const stats = new RequestStats();
  const faults = new Faults();

  const admin = new Router();
  registerAdminRoutes(admin, stats, faults);
  const api = new Router();
  const work = registerCurrentApi(api, ctx);
  registerLegacyApi(api, ctx);

  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (options.lifecycle && shutdownGate(options.lifecycle, req, res)) return;
    // the interface's Accept-Encoding: answers compressed as the client accepts (platform/compression.ts)
    compressAnswer(req, res, () =>
      handle(req, res).catch((err) => {
        // handlers answer their own errors; this is a bug in the service itself
        console.error("directory: unhandled error", err);
        if (!res.headersSent) send(res, { status: 500, body: errorBodyFor(req.url ?? "/", 500) }, false);
      }),
    );
  });
  server.keepAliveTimeout = 65_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = `http://${req.headers.host ?? `127.0.0.1:${port}`}`;
    const url = new URL(req.url ?? "/", origin);
    const method = req.method ?? "GET";
    const isHead = method === "HEAD";
    const lookup = isHead ? "GET" : method;

    if (url.pathname.startsWith("/_admin/")) {
      // as if they did not exist: the admin routes are a local test hook, never a remote one
      if (!isLoopback(req.socket.remoteAddress)) return send(res, { status: 404, body: errorBodyFor(url.pathname, 404) }, isHead);
      return dispatch(admin.match(lookup, url.pathname), lookup, url, req, res, origin, isHead);
    }

    const found = api.match(lookup, url.pathname);
    stats.record(found && "route" in found ? `${found.route.method} ${found.route.pattern}` : `${method} (unmatched)`);

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
    return dispatch(found, lookup, url, req, res, origin, isHead);
  }

  async function dispatch(
    found: ReturnType<Router["match"]>,
    method: string,
    url: URL,
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    isHead: boolean,
  ): Promise<void> {
    if (found === null) return send(res, { status: 404, body: errorBodyFor(url.pathname, 404) }, isHead);
    if ("allowed" in found) {
      return send(res, { status: 405, headers: { allow: found.allowed.join(", ") }, body: errorBodyFor(url.pathname, 405) }, isHead);
    }
    let response: DirectoryResponse;
    try {
      const body = await readBody(req, url.pathname);
      const request: DirectoryRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        // a shaped answer is no version of the resource: no 304 against the version a client holds
        headers: faults.shapesEmbedded ? withoutHeader(req.headers, "if-none-match") : req.headers,
        params: found.params,
        body,
        origin,
        raw: req,
      };
      response = await found.handler(request);
      if (faults.shapesEmbedded) {
        faults.shapeEmbedded(response.body);
        // nor a version tag a client would keep the shaped answer under
        if (response.headers) response = { ...response, headers: withoutHeader(response.headers, "etag") as Record<string, string> };
      }
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
    work,
    close: () => closeServer(server, hanging),
  };
}

async function readBody(req: IncomingMessage, path: string): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // the rest of the body is not read, so the connection cannot carry another request
    if (size > MAX_BODY_BYTES) throw new HttpError(413, errorBodyFor(path, 413), { connection: "close" });
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString("utf8");
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

function withoutHeader<H extends Record<string, unknown>>(headers: H, name: string): H {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name)) as H;
}
