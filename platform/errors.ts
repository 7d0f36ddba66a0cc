import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { randomUUID } from "node:crypto";
import { truncate, type Logger } from "./log.js";
import { ErrorCode } from "./error-codes.js";

/**
 * What an error may tell a client, for the gateway and the subgraph servers alike:
 *
 * - a client's mistake keeps its code (`BAD_USER_INPUT`, `GRAPHQL_VALIDATION_FAILED`, …) and its
 *   message; a custom scalar refused in a literal is `BAD_USER_INPUT`, as it is in a variable;
 * - an unexpected error is masked: `INTERNAL_SERVER_ERROR`, a fixed message and an `errorId`
 *   that names its log line (which has the real message and stack);
 * - no internals: the extensions a gateway adds for a subgraph's answer (`response` with the
 *   subgraph's URL and body, `serviceName`), stack traces and Apollo's `exception` are dropped;
 * - in production, no "Did you mean …" suggestions (they reveal field, argument and enum names).
 *
 * `debug` (GRAPHQL_DEBUG_ERRORS) turns all of it off, for a developer's machine only.
 */

export const INTERNAL_ERROR_MESSAGE = "Internal server error";

export interface ErrorHygieneOptions {
  logger: Logger;
  /** NODE_ENV=production: no suggestions */
  production: boolean;
  /** GRAPHQL_DEBUG_ERRORS: errors as they are, stack traces included */
  debug: boolean;
  /**
   * Gives an error thrown in a resolver its public form (the subgraphs map upstream failures to
   * their codes); answers `INTERNAL_SERVER_ERROR` for what it does not know.
   */
  classify?: (original: unknown) => GraphQLError;
}

/** Extensions that are for the server, never for the client. */
const INTERNAL_EXTENSIONS = ["response", "serviceName", "stacktrace", "exception", "http"];

export function formatErrorHygienically(options: ErrorHygieneOptions) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    if (options.debug) return formatted;
    const original = unwrapResolverError(error);
    let message = formatted.message;
    let extensions: Record<string, unknown> = { ...formatted.extensions };
    if (original instanceof GraphQLError && original.extensions?.code && original !== error) {
      // thrown by a resolver with its own code
      message = original.message;
      extensions = { ...original.extensions };
    } else if (options.classify && (!extensions.code || extensions.code === ErrorCode.INTERNAL_SERVER_ERROR) && !extensions.errorId) {
      const mapped = options.classify(original);
      message = mapped.message;
      extensions = { ...mapped.extensions };
    }
    if (extensions.code === ErrorCode.GRAPHQL_VALIDATION_FAILED && /^Expected value of type "[^"]+", found /.test(message)) {
      extensions.code = ErrorCode.BAD_USER_INPUT;
    }
    for (const key of INTERNAL_EXTENSIONS) delete extensions[key];
    if (!extensions.code || (extensions.code === ErrorCode.INTERNAL_SERVER_ERROR && !extensions.errorId)) {
      // unexpected here; an errorId already present comes from a subgraph that masked and logged it
      const errorId = randomUUID();
      options.logger.error("unexpected error", {
        errorId,
        path: formatted.path,
        error: original instanceof Error ? truncate(original.stack ?? original.message, 2000) : truncate(String(original)),
      });
      return { message: INTERNAL_ERROR_MESSAGE, ...(formatted.path ? { path: formatted.path } : {}), extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR, errorId } };
    }
    if (extensions.code === ErrorCode.INTERNAL_SERVER_ERROR) message = INTERNAL_ERROR_MESSAGE;
    if (options.production) message = withoutSuggestions(message);
    return {
      message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions,
    };
  };
}

/** graphql-js's "Did you mean …?" endings (fields, arguments, types, enum values). */
export function withoutSuggestions(message: string): string {
  return message.replace(/ ?Did you mean .+?\?$/s, "");
}

/**
 * An `operationName` the document does not define, or none for a document of several operations:
 * Apollo Server answers 500; it is the client's mistake, 400 BAD_USER_INPUT.
 */
export function unknownOperationIsClientError<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, request }) {
          if (operation) return;
          throw new GraphQLError(
            typeof request.operationName === "string" && request.operationName !== ""
              ? `Unknown operation named "${truncate(request.operationName, 100)}"`
              : "Must provide operation name if query contains multiple operations",
            { extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } } },
          );
        },
      };
    },
  };
}
