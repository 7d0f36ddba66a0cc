import "reflect-metadata";
import { writeFile } from "node:fs/promises";
import { subgraphSdl } from "../subgraphs/shared/graphql/federation.js";
import { subgraphModules } from "./subgraphs.js";

/** Regenerates `schema/<subgraph>.graphql` from the code (`npm run schema`). */
for (const module of await subgraphModules()) {
  const sdl = await subgraphSdl(await module.buildSchema());
  const file = new URL(`../schema/${module.name}.graphql`, import.meta.url);
  await writeFile(file, sdl);
  console.log(`wrote schema/${module.name}.graphql`);
}
