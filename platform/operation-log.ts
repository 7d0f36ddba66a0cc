import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { truncate, type Logger } from "./log.js";
import { ErrorCode } from "./error-codes.js";
import { processMetrics, type Metrics, type Outcome } from "./metrics.js";
import { activeSpan } from "./request-scope.js";
import { SpanStatusCode } from "@opentelemetry/api";
import { REQUEST_ID_HEADER } from "./headers.js";

/**
 * One log line per operation: its name, duration, errors (with their codes) and what the server
 * says about its own work (`calls`: upstream calls for a subgraph, subgraph fetches for the gateway);
 * the same operation counted in the metrics (by name and outcome, its latency, in flight), and its
 * server span named after it (`query EmployeeProfile`) when tracing is on, its status an error
 * when the answer carries errors (`error.type`: the first error's code).
 */
export function operationLog<C extends BaseContext>(
  logger: Logger,
  calls: (context: C) => Record<string, number>,
  metrics: Metrics = processMetrics(),
): ApolloServerPlugin<C> {
  const component = logger.component;
  return {
    async requestDidStart({ request }) {
      const started = performance.now();
      // the request's server span (the gateway's own spans are active by the time it answers)
      const span = activeSpan();
      metrics.inFlight.inc({ component });
      return {
        async didResolveOperation({ operationName, operation }) {
          if (!span || !operation) return;
          // the name as a label would be: a client's name never makes span names unbounded
          const name = metrics.operationLabel(operationName);
          span.updateName(`${operation.operation} ${name}`);
          span.setAttributes({ "graphql.operation.type": operation.operation, "graphql.operation.name": name });
        },
        async willSendResponse({ contextValue, response, operationName }) {
          metrics.inFlight.dec({ component });
          // the errors as sent, after formatError gave them their codes (the request context's
          // `errors` are the raw ones, without codes)
          const body = response.body.kind === "single" ? response.body.singleResult : undefined;
          const errors = body?.errors ?? [];
          const durationMs = performance.now() - started;
          const name = operationName ?? request.operationName;
          const outcome: Outcome = errors.length === 0 ? "success" : body?.data == null ? "failure" : "partial";
          if (span && errors.length > 0) {
            const codes = [...new Set(errors.map((e) => String(e.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR)))];
            span.setAttribute("error.type", codes[0]!);
            span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(", ") });
          }
          metrics.operation(component, name, outcome, durationMs / 1000);
          // explicit: a gateway keeps no request scope for the code of its requests (request-scope.ts)
          const requestId = request.http?.headers.get(REQUEST_ID_HEADER);
          logger.info("operation", {
            ...(requestId !== undefined ? { requestId } : {}),
            operation: truncateName(name),
            durationMs: Math.round(durationMs * 10) / 10,
            ...calls(contextValue),
            errors: errors.length,
            ...(errors.length > 0 ? { codes: [...new Set(errors.map((e) => e.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR))] } : {}),
            // what joins the line of an unexpected error (errors.ts), which the gateway writes without the request id
            ...errorIdsOf(errors),
          });
        },
      };
    },
  };
}

function errorIdsOf(errors: ReadonlyArray<{ extensions?: Record<string, unknown> }>): { errorIds?: string[] } {
  const ids = errors.map((e) => e.extensions?.errorId).filter((id): id is string => typeof id === "string");
  return ids.length > 0 ? { errorIds: ids } : {};
}

/** operation names come from the client: a long one must not bloat the log */
function truncateName(name: string | null | undefined): string | null {
  return name == null ? null : truncate(String(name));
}
