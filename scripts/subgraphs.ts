import type { SubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";

/** The three subgraphs, in composition order. */
export async function subgraphModules(): Promise<SubgraphModule[]> {
  return [
    (await import("../subgraphs/people/index.js")).subgraph,
    (await import("../subgraphs/organisation/index.js")).subgraph,
    (await import("../subgraphs/legacy-time/index.js")).subgraph,
  ];
}
