import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from "@apollo/server";
import type { GraphQLError } from "graphql";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "./log.js";
import type { RequestedOperation } from "./limits.js";
import { ErrorCode, errorBody } from "./error-codes.js";
import { inRequestScope, responseRequestId } from "./request-scope.js";
import { REQUEST_ID_HEADER } from "./headers.js";
import type { Lifecycle } from "./lifecycle.js";
import { compressAnswer } from "./compression.js";
import { requestErrorStatus } from "./request-errors.js";

/**
 * Apollo Server on plain `node:http`: one request in, one GraphQL response out. Used by the
 * subgraphs and the gateway, which add their own routes (`/health`, `/ready`) around it.
 */

export interface HttpListener {
  port: number;
  /** the node server: a WebSocket endpoint attaches to its `upgrade` (the gateway's graphql-ws) */
  server: Server;
  /** the server's base URL for clients, `http://127.0.0.1:4001` (a wildcard host is reached on loopback) */
  origin: string;
  close(): Promise<void>;
}

/**
 * An HTTP server on `host:port` (0: a free port). A handler that throws answers 500 and is
 * logged, so that no request is left hanging. Every request is served in its scope (its request
 * id, its server span when tracing is on: request-scope.ts), named after the logger's component.
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  options: {
    port: number;
    host: string;
    logger: Logger;
    lifecycle?: Lifecycle;
    /** node's default (5 s) unless set; the directory keeps idle connections 65 s, longer than its clients' agents */
    keepAliveTimeoutMs?: number;
    /** `close` cuts every connection at once instead of waiting for the responses in flight (the directory: a test upstream stops as a crashed one would, its hanging faults included) */
    cutOnClose?: boolean;
    /** false: no server span (the directory stands in for the remote service, whose spans are not the facade's); default true */
    traced?: boolean;
    /** false: the request id is given to log lines explicitly, not kept for the code the request runs (request-scope.ts; the gateway); default true */
    implicitScope?: boolean;
  },
): Promise<HttpListener> {
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    // while closing, a keep-alive connection becomes idle once its last response is out: cut it
    // then, instead of waiting for the client's keep-alive timeout
    if (closing) res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    if (options.lifecycle && shutdownGate(options.lifecycle, req, res)) return;
    compressAnswer(req, res, () =>
      void inRequestScope(req, res, options.logger.component, () =>
        handler(req, res).catch((err: unknown) => {
          options.logger.error("request failed", { requestId: responseRequestId(res), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
          if (!res.headersSent) sendJson(res, 500, errorBody(ErrorCode.INTERNAL_SERVER_ERROR, "Internal server error"));
          else res.destroy();
        }),
        options.traced !== false,
        options.implicitScope !== false,
      ),
    );
  });
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve((server.address() as AddressInfo).port));
  });
  const host = ["0.0.0.0", "::", ""].includes(options.host) ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    port,
    server,
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        if (options.cutOnClose) return server.closeAllConnections();
        server.closeIdleConnections();
        // responses in flight finish first (server.close waits for them), then their connections go
        for (const res of inFlight) res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
      }),
  };
}

/** the largest request body (and graphql-ws message, gateway/subscriptions.ts) served: 1 MiB */
export const MAX_BODY_BYTES = 1 << 20;

export class BodyTooLargeError extends Error {}

/**
 * A check of the operation a request carries, before Apollo Server parses and validates it (the
 * operation limits): answers the error to send with a 400, or null to go on.
 */
export type OperationCheck = (operation: RequestedOperation) => GraphQLError | null;

/** A request refused before GraphQL runs: its status, body and headers (`Retry-After`). */
export interface Refusal {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The gateway's admission steps around the operation limits: `admit` before them, on the request
 * as sent (trusted documents and the APQ store put the document in for its hash, so that the
 * limits and `meter` read the document that runs); `meter` after them, with the operation's
 * measured shape (the per-client rate limits, the caller's check).
 */
export interface Gates {
  admit?(request: HTTPGraphQLRequest): Promise<Refusal | null>;
  meter?(operation: RequestedOperation, req: IncomingMessage): Promise<Refusal | null>;
  /** request errors answer a 4xx whatever the client accepts (the gateway; platform/request-errors.ts) */
  requestErrors4xx?: boolean;
}

export async function serveGraphQL<C extends BaseContext>(
  apollo: ApolloServer<C>,
  req: IncomingMessage,
  res: ServerResponse,
  context: () => Promise<C>,
  check?: OperationCheck,
  gates: Gates = {},
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://graphql.local");
  let body: unknown;
  try {
    body = parseBody(req, await readBody(req));
  } catch (err) {
    if (err instanceof BodyTooLargeError) return sendBodyTooLarge(req, res);
    throw err;
  }
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  // the request's id as answered (the client's, or the one made for it), for the plugins' log lines
  const requestId = responseRequestId(res);
  if (requestId !== undefined) headers.set(REQUEST_ID_HEADER, requestId);
  // a batch is refused whole: its operations would pass neither the limits nor the gates, which
  // read one operation (Apollo's batching is off on every server here; docs/security.md#every-request-path)
  if (Array.isArray(body)) return sendJson(res, 400, errorBody(ErrorCode.BAD_REQUEST, "Batched requests are not served: send one operation per request"), graphQLResponseType(req));
  const request: HTTPGraphQLRequest = { method: (req.method ?? "GET").toUpperCase(), headers, search: url.search, body };
  const admitted = await gates.admit?.(request);
  if (admitted) return sendJson(res, admitted.status, admitted.body, admitted.headers);
  const operation = check || gates.meter ? operationOf(request, new URLSearchParams(request.search), requestId) : null;
  const refusal = operation && check ? check(operation) : null;
  if (refusal) {
    const { http: _http, code, ...extensions } = refusal.extensions;
    return sendJson(res, 400, errorBody(code as ErrorCode, refusal.message, extensions), graphQLResponseType(req));
  }
  const metered = operation && gates.meter ? await gates.meter(operation, req) : null;
  if (metered) return sendJson(res, metered.status, metered.body, metered.headers);
  const response = await apollo.executeHTTPGraphQLRequest({ httpGraphQLRequest: request, context });
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = requestErrorStatus(response.status ?? 200, response.body.kind === "complete" ? response.body.string : null, req.headers.accept, gates.requestErrors4xx === true);
  if (response.body.kind === "complete") {
    res.end(response.body.string);
  } else {
    for await (const chunk of response.body.asyncIterator) res.write(chunk);
    res.end();
  }
}

/** The 413 of a body over MAX_BODY_BYTES (readBody's BodyTooLargeError), on every path that reads one. */
export function sendBodyTooLarge(req: IncomingMessage, res: ServerResponse): void {
  // the rest of the body is left unread, so this connection cannot carry another request
  sendJson(res, 413, errorBody(ErrorCode.BAD_REQUEST, "Request body too large"), { connection: "close", ...graphQLResponseType(req) });
}

/** The media type of the answer the client asked for, when it is `application/graphql-response+json` (as Apollo answers it). */
function graphQLResponseType(req: IncomingMessage): Record<string, string> {
  return (req.headers.accept ?? "").includes("application/graphql-response+json") ? { "content-type": "application/graphql-response+json; charset=utf-8" } : {};
}

/**
 * The request body, at most MAX_BODY_BYTES. A longer body is refused as soon as it is announced
 * (`content-length`) or, when it is chunked, as soon as it grows past the limit; what is left of
 * it stays unread (node discards it once the answer is sent) and the socket is not destroyed, so
 * the 413 reaches the client.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const announced = Number(req.headers["content-length"]);
  if (announced > MAX_BODY_BYTES) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off("data", onData);
      req.off("end", onEnd);
      reject(new BodyTooLargeError());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.on("end", onEnd);
    req.once("error", reject);
  });
}

/** The operation of a single GET or POST request; null for anything Apollo refuses anyway. */
function operationOf(request: HTTPGraphQLRequest, search: URLSearchParams, requestId: string | undefined): Parameters<OperationCheck>[0] | null {
  if (request.method === "POST") {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body) || typeof body.query !== "string") return null;
    const variables = body.variables && typeof body.variables === "object" && !Array.isArray(body.variables) ? (body.variables as Record<string, unknown>) : {};
    return { query: body.query, operationName: body.operationName, variables, requestId };
  }
  const query = search.get("query");
  if (request.method !== "GET" || query === null) return null;
  let variables: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(search.get("variables") ?? "{}") as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) variables = parsed as Record<string, unknown>;
  } catch {
    // Apollo answers the unreadable variables
  }
  return { query, operationName: search.get("operationName"), variables, requestId };
}

function parseBody(req: IncomingMessage, raw: Buffer): unknown {
  const text = raw.toString("utf8");
  if (text === "") return undefined;
  if (!(req.headers["content-type"] ?? "").includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    // Apollo answers 400 to a body it cannot read
    return text;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(payload)), ...headers });
  res.end(payload);
}

/**
 * What a listener that faces callers (`listen` with a `lifecycle`, lifecycle.ts) does first with each request: `/ready`
 * answers 503 once the process is stopping, anything but `/health` and `/ready` is refused once
 * the grace period is over, and the rest is counted in flight until its answer is sent. Answers
 * whether it has answered the request itself.
 */
export function shutdownGate(lifecycle: Lifecycle, req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? "/").split("?")[0];
  if (path === "/health" || path.startsWith("/health/")) return false;
  if (path === "/ready") {
    if (lifecycle.ready) return false;
    sendJson(res, 503, { status: "draining" }, { connection: "close" });
    return true;
  }
  if (lifecycle.phase === "refusing") {
    sendJson(res, 503, errorBody(ErrorCode.SHUTTING_DOWN, "The server is shutting down: retry the request"), { connection: "close", "retry-after": "1" });
    return true;
  }
  lifecycle.started();
  res.once("close", () => lifecycle.finished());
  return false;
}
