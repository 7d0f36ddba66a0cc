import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { composeCommittedSubgraphs } from "../../gateway/compose.js";

describe("committed supergraph", () => {
  it("schema/supergraph.graphql is the composition of the committed subgraph SDL (run `npm run compose` after `npm run schema`)", async () => {
    const { supergraphSdl } = await composeCommittedSubgraphs();
    const committed = await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8");
    expect(committed).toBe(supergraphSdl);
  });

  it("the subgraphs compose without hints", async () => {
    const { hints } = await composeCommittedSubgraphs();
    expect(hints).toEqual([]);
  });
});
