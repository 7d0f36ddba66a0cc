import { HeaderMap, type ApolloServerPlugin, type BaseContext, type GraphQLResponse } from "@apollo/server";
import type { FormattedExecutionResult } from "graphql";
import { ErrorCode } from "../platform/error-codes.js";

/**
 * Identical operations in flight at the gateway run once (docs/performance.md#identical-operations-in-flight).
 *
 * The subgraph fetches and the upstream reads are shared while in flight (platform/inflight.ts),
 * but each fetch only for as long as it runs: of 40 identical operations sent at once, those the
 * gateway reached after the first one's people fetch had answered sent it again, and each fetch
 * after it, so that the calls spent depended on how fast the machine read the 40 requests (13
 * upstream calls in one run, 100 in another). Here an operation is in flight from the moment its
 * text is known (before its parse and validation) to its answer: an identical query of the same
 * caller (`Authorization` as sent, the links' base its file links name, the text, the operation name, the variables) that arrives
 * meanwhile waits for that answer and gets its own copy, whatever point the first one reached.
 *
 * The rules are those of in-flight deduplication: nothing is kept once answered (not a cache); a
 * mutation is never shared, and no query that arrives after a mutation started or ended joins a
 * query that arrived before (read-your-writes); an answer carrying the first operation's own
 * failure (its deadline, its call budget, its process stopping) is not given to a later one, which
 * runs on its own. Only a whole answer (not an incremental one) is shared.
 *
 * Not platform/inflight.ts's InFlight: there the first caller hands over a task to run, here the
 * first operation registers as its text is known and its answer comes hooks later, from Apollo
 * Server's own pipeline (an Apollo plugin, so that every check of the later one runs first).
 */

/** the first operation's own failures: a later one with its own time and budget runs itself */
const OWN_FAILURES = new Set<unknown>([ErrorCode.DEADLINE_EXCEEDED, ErrorCode.UPSTREAM_BUDGET_EXCEEDED, ErrorCode.SHUTTING_DOWN]);

interface Answer {
  result: FormattedExecutionResult;
  status: number | undefined;
  headers: Array<[string, string]>;
}

interface Running {
  /** the first operation's answer; null when a later one must run on its own */
  answer: Promise<Answer | null>;
  settle(answer: Answer | null): void;
}

export interface IdenticalOperationCounts {
  /** operations that ran (first of their key) */
  ran: number;
  /** operations answered with the answer of one that ran */
  joined: number;
}

/**
 * `deadline(context)`: when the operation's time is up (`performance.now()` time); a later
 * operation waits for the first one's answer until then at most, then runs on its own.
 */
export function identicalOperations<C extends BaseContext & { authorization?: string; filesBase?: string }>(deadline: (context: C) => number, counts: IdenticalOperationCounts = { ran: 0, joined: 0 }): ApolloServerPlugin<C> {
  const running = new Map<string, Running>();
  return {
    async requestDidStart({ contextValue }) {
      let key: string | undefined;
      /** set when this operation is the first of its key */
      let mine: Running | undefined;
      /** set when an identical one was in flight as this one arrived */
      let theirs: Running | undefined;
      let executed = false;
      let mutation = false;
      return {
        async didResolveSource({ source, request }) {
          try {
            // the links' base is part of the answer (its file links name it): a made-up Host shares no answer
            key = JSON.stringify([contextValue.authorization ?? "", contextValue.filesBase ?? "", source, request.operationName ?? null, request.variables ?? {}]);
          } catch {
            // variables nested past the stack: not shared, and refused by the type check as ever
            return;
          }
          theirs = running.get(key);
          if (theirs === undefined) {
            let settle!: (answer: Answer | null) => void;
            const answer = new Promise<Answer | null>((resolve) => (settle = resolve));
            mine = { answer, settle };
            running.set(key, mine);
          }
        },
        async responseForOperation({ operation }): Promise<GraphQLResponse | null> {
          if (operation.operation !== "query") {
            // read-your-writes: no query that arrives from now on joins one that arrived before
            mutation = operation.operation === "mutation";
            if (mutation) running.clear();
            return null;
          }
          if (theirs !== undefined) {
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline(contextValue) - performance.now()), null)));
            const answer = await Promise.race([theirs.answer, late]).finally(() => clearTimeout(timer));
            if (answer !== null) {
              counts.joined++;
              return { http: { status: answer.status, headers: new HeaderMap(answer.headers) }, body: { kind: "single", singleResult: structuredClone(answer.result) } };
            }
          }
          executed = true;
          counts.ran++;
          return null;
        },
        async willSendResponse({ response }) {
          if (mutation) running.clear();
          if (mine === undefined) return;
          if (running.get(key!) === mine) running.delete(key!);
          const body = response.body;
          const shareable = executed && body.kind === "single" && !(body.singleResult.errors ?? []).some((e) => OWN_FAILURES.has(e.extensions?.code));
          mine.settle(shareable ? { result: structuredClone(body.singleResult), status: response.http.status, headers: [...response.http.headers] } : null);
        },
      };
    },
  };
}
