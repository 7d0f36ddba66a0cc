import "reflect-metadata";
import { mkdir, writeFile } from "node:fs/promises";
import { COMMITTED_PREFIX } from "../gateway/compose.js";
import { subgraphSdl } from "../subgraphs/shared/graphql/federation.js";
import { fieldRulesJson, subgraphModules } from "./subgraphs.js";

/**
 * Regenerates `schema/<subgraph>.graphql` from the code (`npm run schema`), and
 * `schema/prefixed/<subgraph>.graphql`: the same under GRAPH_PREFIX=Dir, for a company supergraph,
 * and `schema/field-checks.json`: the subgraphs' field rules, the gateway's copy of them.
 */
await mkdir(new URL("../schema/prefixed/", import.meta.url), { recursive: true });
for (const module of await subgraphModules()) {
  for (const [dir, prefix] of [["", null], ["prefixed/", COMMITTED_PREFIX]] as const) {
    const sdl = await subgraphSdl(await module.buildSchema({ prefix }));
    await writeFile(new URL(`../schema/${dir}${module.name}.graphql`, import.meta.url), sdl);
    console.log(`wrote schema/${dir}${module.name}.graphql`);
  }
}
await writeFile(new URL("../schema/field-checks.json", import.meta.url), await fieldRulesJson());
console.log("wrote schema/field-checks.json");
