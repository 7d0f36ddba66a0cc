import { GraphQLError } from "graphql";

/**
 * Every `extensions.code` the facade answers with (docs/graph.md#error-codes), in one typed set
 * shared by the subgraphs, the upstream layer and the gateway. Codes stay plain strings on the
 * wire; in code they are written `ErrorCode.NOT_FOUND`, so that a misspelt code does not compile.
 */
export const ErrorCode = {
  // the client's mistakes
  /** a bad argument or variable, refused before any upstream call; also the upstream's 400 */
  BAD_USER_INPUT: "BAD_USER_INPUT",
  /** an HTTP request the server cannot take (a body too large) */
  BAD_REQUEST: "BAD_REQUEST",
  GRAPHQL_PARSE_FAILED: "GRAPHQL_PARSE_FAILED",
  GRAPHQL_VALIDATION_FAILED: "GRAPHQL_VALIDATION_FAILED",
  /** trusted documents: a document or hash the manifest does not hold (GATEWAY_TRUSTED_DOCUMENTS) */
  PERSISTED_QUERY_NOT_IN_LIST: "PERSISTED_QUERY_NOT_IN_LIST",
  /** an operation over one of the operation limits (`extensions.limit`, `value`, `actual`) */
  OPERATION_LIMIT_EXCEEDED: "OPERATION_LIMIT_EXCEEDED",
  // the caller's rights
  /** no or refused credentials (upstream 401) */
  UNAUTHENTICATED: "UNAUTHENTICATED",
  /** a missing scope, an employee the caller may not see, a refused origin or write (upstream 403) */
  FORBIDDEN: "FORBIDDEN",
  // the target
  /** a mutation's target, or a page, that does not exist */
  NOT_FOUND: "NOT_FOUND",
  /** the upstream's 412: `If-Match` failed */
  CONFLICT: "CONFLICT",
  // the upstream and the facade's protections of it
  /** 429 once the retries ran out, or a per-client limit of the gateway (`extensions.retryAfter`, `limit`) */
  RATE_LIMITED: "RATE_LIMITED",
  /** 5xx, timeouts, connection failures after the retries, an open circuit, an unreadable answer */
  UPSTREAM_UNAVAILABLE: "UPSTREAM_UNAVAILABLE",
  /** a write was sent and no answer tells whether it was applied: read again before retrying */
  WRITE_OUTCOME_UNKNOWN: "WRITE_OUTCOME_UNKNOWN",
  /** the request's upstream call budget is spent (`extensions.limit`) */
  UPSTREAM_BUDGET_EXCEEDED: "UPSTREAM_BUDGET_EXCEEDED",
  /** the operation's deadline has passed (`extensions.limit`, ms) */
  DEADLINE_EXCEEDED: "DEADLINE_EXCEEDED",
  /** the gateway cannot reach a subgraph, or it answered 502/503/504 (`extensions.subgraph`, `retryable`) */
  SUBGRAPH_UNAVAILABLE: "SUBGRAPH_UNAVAILABLE",
  /** the process is stopping: retry on another instance (`Retry-After`) */
  SHUTTING_DOWN: "SHUTTING_DOWN",
  /** a subscription closed because its subscriber fell GATEWAY_SUBSCRIPTION_QUEUE events behind: subscribe again */
  SUBSCRIBER_TOO_SLOW: "SUBSCRIBER_TOO_SLOW",
  // anything else
  /** unexpected: masked, with `extensions.errorId` naming its log line */
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A GraphQL error with its code and any further extensions. */
export function codedError(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { ...extensions, code } });
}

/** The body of an HTTP answer that refuses a request before GraphQL runs (`{ errors: [...] }`), with any further extensions. */
export function errorBody(
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
): { errors: Array<{ message: string; extensions: { code: ErrorCode } & Record<string, unknown> }> } {
  return { errors: [{ message, extensions: { ...extensions, code } }] };
}

/** The code an error carries, when it is one of the set. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  return typeof code === "string" && (Object.values(ErrorCode) as string[]).includes(code) ? (code as ErrorCode) : undefined;
}
