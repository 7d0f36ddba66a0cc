import { expect } from "vitest";
import type { GraphQLResponse, Stack, SubgraphName } from "./stack.js";

/**
 * GraphQL requests to one subgraph of a stack, and the current-API calls they cost: what the
 * tests of every subgraph need, bound to their subgraph by `subgraphClient`.
 */
export interface SubgraphClient {
  /** POSTs an operation and expects an answer without errors. */
  query<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<D>;
  /** POSTs an operation and answers the whole response (data and errors). */
  send<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<D>>;
}

export function subgraphClient(name: SubgraphName): SubgraphClient {
  const url = (stack: Stack) => {
    const running = stack.subgraphs[name];
    if (!running) throw new Error(`the stack runs no ${name} subgraph`);
    return running.url;
  };
  return {
    async query<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<D> {
      const response = await stack.gql<D>(url(stack), source, variables);
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      return response.data as D;
    },
    send: <D = any>(stack: Stack, source: string, variables?: Record<string, unknown>) => stack.gql<D>(url(stack), source, variables),
  };
}

/** Current-API calls served since the last reset, by route (token requests and the legacy API left out). */
export function apiCalls(stack: Stack): { total: number; byRoute: Record<string, number> } {
  const byRoute = Object.fromEntries(Object.entries(stack.stats().byRoute).filter(([route]) => route.includes("/service-api/")));
  return { total: Object.values(byRoute).reduce((a, b) => a + b, 0), byRoute };
}

/** Runs `fn` with fresh upstream statistics and answers the current-API calls it caused. */
export async function counting<T>(stack: Stack, fn: () => Promise<T>): Promise<{ result: T; calls: ReturnType<typeof apiCalls> }> {
  stack.resetStats();
  const result = await fn();
  return { result, calls: apiCalls(stack) };
}

/** The `_entities` representations of `ids` of one type: `{ __typename, id }`, the id as a string. */
export function representations(typename: string, ids: readonly (string | number)[]): Array<{ __typename: string; id: string }> {
  return ids.map((id) => ({ __typename: typename, id: String(id) }));
}
