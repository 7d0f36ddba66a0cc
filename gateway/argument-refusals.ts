import type { ApolloServerPlugin, BaseContext } from "@apollo/server";
import { ErrorCode } from "../platform/error-codes.js";

/**
 * Arguments refused answer one way (docs/graph.md#argument-refusals): as a request error, HTTP
 * 400 `BAD_USER_INPUT`, without `data`. The gateway's own checks (input-checks.ts: `first`, ids,
 * dates, a cursor's shape) refuse before execution, with no subgraph fetch; what only a subgraph
 * can judge (a cursor's signature, the list it belongs to) it refuses before its own execution,
 * and comes back to the gateway as a field error. This turns a query's answer holding such a
 * refusal into the same request error, so that a client meets a bad argument the same way
 * whichever check found it. A mutation keeps its answer: a root field before it may have
 * written, and a mutation's own refusals are data (its union's InvalidInputError).
 */
export function argumentRefusalsAsRequestErrors<C extends BaseContext>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, operation }) {
          if (operation?.operation !== "query" || response.body.kind !== "single") return;
          const refused = response.body.singleResult.errors?.filter((e) => e.extensions?.code === ErrorCode.BAD_USER_INPUT);
          if (!refused || refused.length === 0) return;
          // no `data`, no `path`: the operation is refused as a whole, as the checks before execution refuse it
          response.body.singleResult = { errors: refused.map(({ message, extensions }) => ({ message, ...(extensions ? { extensions } : {}) })) };
        },
      };
    },
  };
}
