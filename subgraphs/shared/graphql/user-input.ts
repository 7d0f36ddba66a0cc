import { GraphQLError } from "graphql";
import { ErrorCode } from "../error-codes.js";

/**
 * The page size limits of every connection and the error of a caller's mistake: free of
 * type-graphql, so that the gateway can run the subgraphs' argument checks (input-checks.ts).
 */

export const DEFAULT_FIRST = 25;
export const MAX_FIRST = 100;

/**
 * A caller's mistake. `http.status` 200 keeps a refusal found before execution (input-checks.ts)
 * an ordinary GraphQL answer that gateways relay as it is (Apollo Server would answer 500); it is
 * not sent to the caller.
 */
export function badUserInput(message: string, field?: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, ...(field ? { field } : {}), http: { status: 200 } } });
}
