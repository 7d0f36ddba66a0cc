import type { IncomingMessage, ServerResponse } from "node:http";
import { getOperationAST, GraphQLError, type GraphQLSchema } from "graphql";
import { createHandler } from "graphql-sse/lib/use/http";
import type { RequestedOperation } from "../../../platform/limits.js";
import type { OperationLimitError } from "../../../platform/limits.js";
import { ErrorCode } from "../../../platform/error-codes.js";
import type { ChangeFeed } from "../events/feed.js";
import type { SubgraphContext } from "./server.js";

type StreamContext = SubgraphContext & Record<PropertyKey, unknown>;

/** the path of a subgraph's subscriptions (GraphQL over SSE, the graphql-sse protocol) */
export const STREAM_PATH = "/graphql/stream";

export interface StreamOptions {
  schema: GraphQLSchema;
  feed: ChangeFeed;
  /** SUBSCRIPTION_QUEUE: changes a subscriber may fall behind before it is closed */
  queue: number;
  /** the same operation limits as the subgraph's queries */
  checkLimits: (operation: RequestedOperation) => OperationLimitError | null;
  /** a context for one event of a subscriber with these credentials */
  eventContext: (authorization: string | undefined) => SubgraphContext;
}

/**
 * A subgraph's subscriptions over GraphQL over SSE (graphql-sse, both its single-connection and
 * distinct-connections modes), behind the subgraph's secret like its queries (server.ts). Only
 * subscriptions are served here, after the operation limits; each event's node is read in a
 * context of its own with the subscriber's credentials (forward mode: what the caller may read).
 */
export function subscriptionStream(options: StreamOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return createHandler<StreamContext>({
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
    context(req) {
      const authorization = req.headers.get("authorization") ?? undefined;
      const first = options.eventContext(authorization);
      return { ...first, changes: { feed: options.feed, queue: options.queue, eventContext: () => options.eventContext(authorization) } };
    },
  });
}
