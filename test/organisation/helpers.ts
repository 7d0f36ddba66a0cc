import { expect } from "vitest";
import type { GraphQLResponse, Stack } from "../helpers/stack.js";

/** POSTs to the organisation subgraph and expects an answer without errors. */
export async function query<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<D> {
  const response = await stack.gql<D>(stack.subgraphs.organisation!.url, source, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data as D;
}

/** POSTs to the organisation subgraph and answers the whole response (data and errors). */
export function send<D = any>(stack: Stack, source: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<D>> {
  return stack.gql<D>(stack.subgraphs.organisation!.url, source, variables);
}

/** Upstream calls of the current API served since the last reset, by route (token requests left out). */
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

export const ENTITIES_QUERY = "query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Department { id name } ... on BusinessEstablishment { id name } ... on LegalEntity { id legalName } ... on EmploymentTemplate { id title } ... on OccupationCategory { id title } ... on JobQualification { id title } ... on Taxonomy { id name } ... on TaxonomyLabel { id name } } }";

export const representations = (typename: string, ids: readonly string[]) => ids.map((id) => ({ __typename: typename, id }));
