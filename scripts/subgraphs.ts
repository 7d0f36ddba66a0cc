import type { FieldRules } from "../platform/field-rules.js";
import type { SubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";

/** The three subgraphs, in composition order. */
export async function subgraphModules(): Promise<SubgraphModule[]> {
  return [
    (await import("../subgraphs/people/index.js")).subgraph,
    (await import("../subgraphs/organisation/index.js")).subgraph,
    (await import("../subgraphs/legacy-time/index.js")).subgraph,
  ];
}

/**
 * `schema/field-checks.json`: every subgraph's field rules by coordinate, sorted, as `npm run
 * schema` writes them for the gateway (which loads nothing of `subgraphs/`, docs/graph.md#field-rules).
 */
export async function fieldRulesJson(): Promise<string> {
  const table: FieldRules = {};
  for (const module of await subgraphModules()) {
    for (const [coordinate, rules] of Object.entries(module.fieldRules ?? {})) (table[coordinate] ??= []).push(...rules);
  }
  const sorted = Object.keys(table).sort().map((coordinate) => [coordinate, table[coordinate]]);
  return `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`;
}
