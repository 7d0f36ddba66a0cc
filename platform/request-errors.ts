import { ErrorCode } from "./error-codes.js";

/**
 * The HTTP status of a request error (docs/graph.md#http-statuses): a GraphQL answer with `errors`
 * and no `data` at all is a request error (the operation did not run: a document that does not
 * parse or validate, a variable or argument refused, an operation over a limit, missing
 * credentials), and answers a 4xx, whatever kind of check refused it. At the gateway, whatever
 * the client accepts (`application/graphql-response+json`, as the GraphQL over HTTP specification
 * asks, and `application/json` alike: one rule, so that a client sees the same mistake the same
 * way); at a subgraph, with `application/graphql-response+json` only: a router that asks for
 * `application/json` expects the specification's 200 there, and would relay a 4xx as an HTTP failure.
 * Apollo Server answers 400 for some (parse, validation, variable coercion) and 200 for the rest
 * (the checks run in plugin hooks); this gives them all the status their code says. An answer
 * with `data`, even `null` or partial, keeps its 200: its errors are field errors.
 */

const STATUS_OF_CODE: Partial<Record<string, number>> = {
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.SHUTTING_DOWN]: 503,
  [ErrorCode.INTERNAL_SERVER_ERROR]: 500,
};

/** The status to send for Apollo's `status` and complete `body`; `always`: whatever the client accepts (the gateway). */
export function requestErrorStatus(status: number, body: string | null, accept: string | undefined, always: boolean): number {
  // every answer with errors starts with them (Apollo orders errors, data, extensions)
  if (status !== 200 || body === null || !body.startsWith('{"errors":')) return status;
  if (!always && !(accept ?? "").includes("application/graphql-response+json")) return status;
  let answer: { data?: unknown; errors?: Array<{ extensions?: { code?: unknown } }> };
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    return status;
  }
  if ("data" in answer || !Array.isArray(answer.errors) || answer.errors.length === 0) return status;
  const code = answer.errors[0]?.extensions?.code;
  return (typeof code === "string" ? STATUS_OF_CODE[code] : undefined) ?? 400;
}
