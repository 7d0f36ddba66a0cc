import type { IncomingMessage, ServerResponse } from "node:http";
import { getOperationAST, GraphQLError, type GraphQLSchema } from "graphql";
import { createHandler } from "graphql-sse/lib/use/http";
import type { RequestedOperation } from "../../../platform/limits.js";
import type { OperationLimitError } from "../../../platform/limits.js";
import { ErrorCode } from "../../../platform/error-codes.js";


/** the path of a subgraph's subscriptions (GraphQL over SSE, the graphql-sse protocol) */
export const STREAM_PATH = "/graphql/stream";

export interface StreamOptions<C> {
  schema: GraphQLSchema;
  /** the same operation limits as the subgraph's queries */
  checkLimits: (operation: RequestedOperation) => OperationLimitError | null;
  /** the context of a subscriber with these credentials (server.ts: with the change feed) */
  context: (authorization: string | undefined) => C;
}

/**
 * A subgraph's subscriptions over GraphQL over SSE (graphql-sse, both its single-connection and
 * distinct-connections modes), behind the subgraph's secret like its queries (server.ts). Only
 * subscriptions are served here, after the operation limits; each event's node is read in a
 * context of its own with the subscriber's credentials (forward mode: what the caller may read).
 */
export function subscriptionStream<C extends object>(options: StreamOptions<C>): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return createHandler<C & Record<PropertyKey, unknown>>({
    schema: options.schema,
    onSubscribe(_req, params) {
      const operation: RequestedOperation = { query: typeof params.query === "string" ? params.query : "", operationName: params.operationName ?? undefined, variables: params.variables ?? {} };
      const refused = options.checkLimits(operation);
      if (refused) return { data: null, errors: [refused] };
      const root = operation.document ? getOperationAST(operation.document, params.operationName ?? undefined) : null;
      // graphql-sse takes a result for one only with `data` in it
      if (root?.operation !== "subscription") {
        return { data: null, errors: [new GraphQLError("This endpoint serves subscriptions only: send queries to /graphql", { extensions: { code: ErrorCode.BAD_USER_INPUT } })] };
      }
      return undefined;
    },
    context: (req) => options.context(req.headers.get("authorization") ?? undefined) as C & Record<PropertyKey, unknown>,
  });
}
