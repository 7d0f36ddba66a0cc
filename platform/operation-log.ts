import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { truncate, type Logger } from "./log.js";
import { ErrorCode } from "./error-codes.js";

/**
 * One log line per operation: its name, duration, errors (with their codes) and what the server
 * says about its own work (`calls`: upstream calls for a subgraph, subgraph fetches for the gateway).
 */
export function operationLog<C extends BaseContext>(logger: Logger, calls: (context: C) => Record<string, number>): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ request }) {
      const started = performance.now();
      return {
        async willSendResponse({ contextValue, response, operationName }) {
          // the errors as sent, after formatError gave them their codes (the request context's
          // `errors` are the raw ones, without codes)
          const errors = response.body.kind === "single" ? (response.body.singleResult.errors ?? []) : [];
          logger.info("operation", {
            operation: truncateName(operationName ?? request.operationName),
            durationMs: Math.round((performance.now() - started) * 10) / 10,
            ...calls(contextValue),
            errors: errors.length,
            ...(errors.length > 0 ? { codes: [...new Set(errors.map((e) => e.extensions?.code ?? ErrorCode.INTERNAL_SERVER_ERROR))] } : {}),
          });
        },
      };
    },
  };
}

/** operation names come from the client: a long one must not bloat the log */
function truncateName(name: string | null | undefined): string | null {
  return name == null ? null : truncate(String(name));
}
