import type { Stack } from "../helpers/stack.js";
import { representations } from "../helpers/subgraph.js";

/**
 * Shared by the legacy-time tests: direct reads of the legacy API (the upstream the subgraph
 * talks to, with the demo API key) to compare the graph's answers with, and `_entities`
 * operations on the subgraph.
 */

export const LEGACY_AUTH = { authorization: "service application=demo-api-key" };

/** GET a legacy path of the in-process directory service, as the subgraph would. */
export async function legacyGet<T = any>(stack: Stack, path: string): Promise<T> {
  const res = await fetch(`${stack.directory.url}${path}`, { headers: LEGACY_AUTH });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An `_entities` query selecting `selection` on the representations' type. */
export function entitiesQuery(typeName: string, selection: string, variables = ""): string {
  return `query($r: [_Any!]!${variables}) { _entities(representations: $r) { ... on ${typeName} { ${selection} } } }`;
}

export { representations } from "../helpers/subgraph.js";

/** The representations of employees `ids`. */
export function employees(ids: readonly (string | number)[]): Array<{ __typename: string; id: string }> {
  return representations("Employee", ids);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The demo's `today` is 2026-06-15, a Monday: this week and the previous one are open timesheets. */
export const OPEN_WEEK = { from: "2026-06-08", to: "2026-06-14" };
