import { SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";
import { processMetrics } from "../../../platform/metrics.js";
import { currentComponent, injectTraceContext, spanEvent, tracer, tracingOn } from "../../../platform/request-scope.js";
import type { UpstreamCallEvent } from "./types.js";
import { apiPrefixOf } from "./routes.js";

/**
 * What the upstream client reports of each HTTP attempt (docs/observability.md): a client span
 * per attempt when tracing is on, the `upstream_*` metrics, and the refusals and retries as events
 * of the request's span. Attributes carry the route template, never the URL (ids, filters), nor a
 * header or a body.
 */


/** `GET /service-api/employees/{id}` → `/service-api/employees/{id}`; a path of no known API (an odd `links.next`) → `other` */
function routeLabel(event: Pick<UpstreamCallEvent, "api" | "method" | "route">): string {
  const path = event.route.slice(event.method.length + 1);
  return event.api === "token" || apiPrefixOf(path) !== undefined ? path : "other";
}

/**
 * Starts the client span of one attempt and puts its trace context in `headers` (which the caller
 * sends); undefined when tracing is off.
 */
export function startAttemptSpan(attempt: Pick<UpstreamCallEvent, "api" | "method" | "route" | "attempt">, url: string, revalidating: boolean, headers: Record<string, string>): Span | undefined {
  if (!tracingOn()) return undefined;
  const route = routeLabel(attempt);
  const target = new URL(url);
  const span = tracer.startSpan(`${attempt.method} ${route}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "http.request.method": attempt.method,
      "url.template": route,
      "server.address": target.hostname,
      "server.port": Number(target.port || (target.protocol === "https:" ? 443 : 80)),
      "directory_graph.upstream.api": attempt.api,
      "directory_graph.upstream.attempt": attempt.attempt,
      // the semantic conventions' count of resends, set on resends only
      ...(attempt.attempt > 1 ? { "http.request.resend_count": attempt.attempt - 1 } : {}),
      "directory_graph.etag.revalidating": revalidating,
    },
  });
  injectTraceContext(headers, span);
  return span;
}

/** Ends an attempt's span with what it got, and counts the attempt. */
export function attemptDone(span: Span | undefined, event: UpstreamCallEvent): void {
  const route = routeLabel(event);
  const metrics = processMetrics();
  metrics.upstreamRequests.inc({ api: event.api, method: event.method, route, status: event.status === null ? "none" : String(event.status), attempt: String(Math.min(event.attempt, 5)) });
  if (event.notModified) metrics.upstreamNotModified.inc({ api: event.api, route });
  if (!span) return;
  if (event.status !== null) span.setAttribute("http.response.status_code", event.status);
  span.setAttribute("directory_graph.etag.cache_hit", event.notModified);
  if (event.failure !== undefined) span.setAttribute("error.type", event.failure);
  if (event.status === null || event.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * A refusal before an attempt (the call budget, the deadline, an open breaker, a token the
 * directory refused a moment ago, the tenant's request budget DIRECTORY_REQUEST_BUDGET): an event of the
 * request's span, and a metric when a limit refused.
 */
export function refusedUpstream(
  reason: "upstreamBudget" | "deadline" | "breaker" | "refusedToken" | "upstreamRateBudget",
  attributes: Record<string, string | number> = {},
): void {
  spanEvent(`upstream.${reason}`, attributes);
  if (reason !== "breaker") processMetrics().refused(currentComponent() ?? "upstream", reason);
}

/** A retry decided after an attempt: an event of the request's span. */
export function retrying(event: Pick<UpstreamCallEvent, "api" | "method" | "route">, attempt: number, delayMs: number, cause: string): void {
  spanEvent("upstream.retry", { "url.template": routeLabel(event), "directory_graph.upstream.attempt": attempt, "directory_graph.upstream.delay_ms": Math.round(delayMs), "directory_graph.upstream.cause": cause });
}
