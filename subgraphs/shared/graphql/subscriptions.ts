import type { IncomingMessage, ServerResponse } from "node:http";
import { getOperationAST, GraphQLError, type GraphQLSchema } from "graphql";
import { createHandler } from "graphql-sse/lib/use/http";
import type { RequestedOperation } from "../../../platform/limits.js";
import type { OperationLimitError } from "../../../platform/limits.js";
import { ErrorCode } from "../../../platform/error-codes.js";
import { writeReconnectHint, type Lifecycle } from "../../../platform/lifecycle.js";


/** the path of a subgraph's subscriptions (GraphQL over SSE, the graphql-sse protocol) */
export const STREAM_PATH = "/graphql/stream";

export interface StreamOptions<C> {
  schema: GraphQLSchema;
  /** the same operation limits as the subgraph's queries */
  checkLimits: (operation: RequestedOperation) => OperationLimitError | null;
  /** the context of a subscriber with these credentials (server.ts: with the change feed) */
  context: (authorization: string | undefined) => C;
  /** the process's lifecycle when the subgraph faces callers itself: its stop ends every stream at once */
  lifecycle?: Lifecycle;
}

/**
 * A subgraph's subscriptions over GraphQL over SSE (graphql-sse, both its single-connection and
 * distinct-connections modes), behind the subgraph's secret like its queries (server.ts). Only
 * subscriptions are served here, after the operation limits; each event's node is read in a
 * context of its own with the subscriber's credentials (forward mode: what the caller may read).
 * As the process's stop begins, every stream ends with a `complete` (after an SSE `retry`), so that
 * the drain waits for none (the gateway completes its clients' subscriptions in turn).
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
    onOperation(_ctx, req, _args, result) {
      const lifecycle = options.lifecycle;
      if (!lifecycle || !(Symbol.asyncIterator in result)) return undefined;
      const res = (req.context as { res?: ServerResponse } | undefined)?.res;
      return endOnStop(result, lifecycle, () => res && writeReconnectHint(res));
    },
    context: (req) => options.context(req.headers.get("authorization") ?? undefined) as C & Record<PropertyKey, unknown>,
  });
}

/** `source`, ended (done, its own iterator returned) as the lifecycle's stop begins, after `beforeEnd` */
function endOnStop<T>(source: AsyncIterable<T>, lifecycle: Lifecycle, beforeEnd: () => void): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let stop!: () => void;
  const stopped = new Promise<IteratorResult<T>>((resolve) => (stop = () => resolve({ value: undefined, done: true })));
  const onStop = () => {
    beforeEnd();
    stop();
    void iterator.return?.();
  };
  const unwatch = lifecycle.onStop(onStop);
  // one opened during the stop ends at once
  if (!lifecycle.ready) onStop();
  const end = async (): Promise<IteratorResult<T>> => {
    unwatch();
    await iterator.return?.();
    return { value: undefined, done: true };
  };
  return {
    next: () => Promise.race([iterator.next(), stopped]).then((r) => (r.done ? (unwatch(), r) : r)),
    return: end,
    // graphql-sse only ends the streams that look like generators (next, return and throw)
    throw: end,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
