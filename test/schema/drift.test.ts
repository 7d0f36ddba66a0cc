import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { fieldRulesJson, subgraphModules } from "../../scripts/subgraphs.js";
import { COMMITTED_PREFIX } from "../../gateway/compose.js";

describe("committed subgraph SDL", async () => {
  for (const module of await subgraphModules()) {
    it(`schema/${module.name}.graphql matches the code (run \`npm run schema\` after a schema change)`, async () => {
      const committed = await readFile(new URL(`../../schema/${module.name}.graphql`, import.meta.url), "utf8");
      expect(await subgraphSdl(await module.buildSchema())).toBe(committed);
    });

    it(`schema/prefixed/${module.name}.graphql matches the code under GRAPH_PREFIX=${COMMITTED_PREFIX}`, async () => {
      const committed = await readFile(new URL(`../../schema/prefixed/${module.name}.graphql`, import.meta.url), "utf8");
      expect(await subgraphSdl(await module.buildSchema({ prefix: COMMITTED_PREFIX }))).toBe(committed);
    });
  }

  it("schema/field-checks.json, the gateway's copy of the field rules, matches the code (run `npm run schema` after a change)", async () => {
    const committed = await readFile(new URL("../../schema/field-checks.json", import.meta.url), "utf8");
    expect(await fieldRulesJson()).toBe(committed);
  });
});
