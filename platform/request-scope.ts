import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span } from "@opentelemetry/api";
import { REQUEST_ID_HEADER } from "./headers.js";

/**
 * What every request of every process carries for its log lines and traces: its request id and,
 * when tracing is on (tracing.ts), its span (docs/observability.md). Only the OpenTelemetry API
 * here: a process that does not trace loads no SDK. Off, each function tests one boolean and makes
 * no span, context or header (what `bench/tracing.ts` measures).
 */

export const TRACER_NAME = "directory-graph";
export const tracer = trace.getTracer(TRACER_NAME);

let on = false;

/** Whether this process exports traces (tracing.ts registered a provider). */
export function tracingOn(): boolean {
  return on;
}

/** Called by tracing.ts only. */
export function setTracingOn(value: boolean): void {
  on = value;
}

// ---- the request id ----

/** A client's request id is kept when it is 1 to 128 of these characters (a UUID, a ULID, `abc-123`...). */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

interface RequestScope {
  requestId: string;
  /** the component serving it (`gateway`, `people`...) */
  component: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** The request id of the request being served (the log lines' `requestId`), if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** The component serving the current request (a metric's `component` label), if any. */
export function currentComponent(): string | undefined {
  return scope.getStore()?.component;
}

/** The request id `inRequestScope` gave a request, from its answer's header. */
export function responseRequestId(res: ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER);
  return typeof id === "string" ? id : undefined;
}

/** The client's `x-request-id` when well formed, else a new one. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && WELL_FORMED_REQUEST_ID.test(value) ? value : randomUUID();
}

/** paths that get no span (probes and scrapes would bury the operations' traces) */
const UNTRACED = new Set(["/health", "/ready", "/metrics"]);
/** the paths a server span is named after; any other is `other` (no raw path in a span name) */
const NAMED_PATHS = new Set(["/", "/graphql"]);

/**
 * Serves one HTTP request in its scope: its request id (answered in `x-request-id`, seen by the
 * log lines) and, when tracing is on and `traced`, a server span continuing the client's `traceparent`.
 *
 * `implicit` false (the gateway): when tracing is off, the request id is not stored for the code
 * the request runs, and that code reads it from the answer's header (`responseRequestId`) and
 * gives it to its log lines itself. Node 20's AsyncLocalStorage runs a hook on every promise the
 * process creates once any store is entered; in the gateway, which creates many per operation
 * and whose request path logs in a few known places, that was a sixteenth of its CPU
 * (bench/results.md). With tracing on, OpenTelemetry's context manager keeps a store anyway, and so
 * does this.
 */
export function inRequestScope(req: IncomingMessage, res: ServerResponse, component: string, handle: () => Promise<void>, traced = true, implicit = true): Promise<void> {
  const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  const path = (req.url ?? "/").replace(/[?#].*$/s, "");
  if (!on && !implicit) return handle();
  if (!on || !traced || UNTRACED.has(path)) return scope.run({ requestId, component }, handle);
  // the client's trace context is continued; its `baggage` is not: what a caller writes there
  // (any size, any keys) would ride on every subgraph and REST call (docs/security.md#baggage)
  const parent = propagation.deleteBaggage(propagation.extract(ROOT_CONTEXT, req.headers));
  const method = knownMethod(req.method);
  const route = NAMED_PATHS.has(path) ? path : "other";
  const span = tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: serverAttributes(req, method, path, route, component, requestId) }, parent);
  res.once("close", () => {
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!res.writableFinished) span.addEvent("client closed the connection");
    span.end();
  });
  return context.with(trace.setSpan(parent, span), () => scope.run({ requestId, component }, handle));
}

/**
 * A server span's attributes, after the HTTP semantic conventions (docs/observability.md#spans):
 * the path without its query string (a GET operation's variables are there), the Host header's
 * address and port, the peer's address (not X-Forwarded-For, which any client can write), the
 * user agent, each capped in length.
 */
function serverAttributes(req: IncomingMessage, method: string, path: string, route: string, component: string, requestId: string): Attributes {
  const attributes: Attributes = {
    "http.request.method": method,
    "http.route": route,
    "url.scheme": "http",
    "url.path": capped(path),
    "network.protocol.version": req.httpVersion,
    "directory_graph.component": component,
    "directory_graph.request_id": requestId,
  };
  const host = /^(\[[^\]]*\]|[^:]+)(?::(\d{1,5}))?$/.exec(req.headers.host ?? "");
  if (host) {
    attributes["server.address"] = capped(host[1]!);
    attributes["server.port"] = host[2] !== undefined ? Number(host[2]) : 80;
  }
  if (req.socket.remoteAddress !== undefined) attributes["client.address"] = req.socket.remoteAddress;
  const agent = req.headers["user-agent"];
  if (agent !== undefined) attributes["user_agent.original"] = capped(agent);
  return attributes;
}

function capped(value: string): string {
  return value.length > 256 ? value.slice(0, 256) : value;
}

function knownMethod(method: string | undefined): string {
  return method !== undefined && ["GET", "POST", "OPTIONS", "HEAD", "PUT", "DELETE", "PATCH"].includes(method) ? method : "_OTHER";
}

/** Adds an event to the active span, when tracing is on. */
export function spanEvent(name: string, attributes: Attributes): void {
  if (on) trace.getActiveSpan()?.addEvent(name, attributes);
}

/**
 * The CLIENT span of one HTTP request to another of the facade's services (the gateway's request
 * to a subgraph), child of the active span, its trace context put in `headers` in place of any
 * set before: the callee's server span is its child, and service-graph tools see the edge.
 * Undefined when tracing is off. `url.full` without credentials, query or fragment.
 */
export function startClientSpan(method: string, url: URL, attributes: Attributes, headers: Record<string, string>): Span | undefined {
  if (!on) return undefined;
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      "http.request.method": method,
      "server.address": url.hostname,
      "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      "url.full": `${url.protocol}//${url.host}${url.pathname}`,
      ...attributes,
    },
  });
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return span;
}

/** Ends a client span with the answer's status (an error from 500 on), or the failure (`error.type`) when none came. */
export function endClientSpan(span: Span | undefined, outcome: { status: number } | { failure: string }): void {
  if (!span) return;
  if ("status" in outcome) {
    span.setAttribute("http.response.status_code", outcome.status);
    if (outcome.status >= 500) span.setAttributes({ "error.type": String(outcome.status) });
  } else span.setAttribute("error.type", outcome.failure);
  if (!("status" in outcome) || outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Puts the trace context (of `span`, else the current one) in the headers of the next hop; nothing when tracing is off. */
export function injectTraceContext(headers: Record<string, string>, span?: Span): void {
  if (on) propagation.inject(span ? trace.setSpan(context.active(), span) : context.active(), headers);
}

/** What joins a log line to its request: the request id, and the trace and span ids when tracing is on. */
export function requestFields(): { requestId?: string; traceId?: string; spanId?: string } {
  const requestId = scope.getStore()?.requestId;
  const span = on ? trace.getActiveSpan()?.spanContext() : undefined;
  if (span) return { requestId, traceId: span.traceId, spanId: span.spanId };
  return requestId === undefined ? {} : { requestId };
}

/** The span of the current request, when tracing is on (to name it, or add an attribute). */
export function activeSpan(): Span | undefined {
  return on ? trace.getActiveSpan() : undefined;
}
