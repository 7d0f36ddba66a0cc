import { writeFile } from "node:fs/promises";
import { composeCommittedSubgraphs, CompositionError } from "../gateway/compose.js";

/**
 * `npm run compose`: schema/*.graphql → schema/supergraph.graphql, and the GRAPH_PREFIX=Dir
 * variant schema/prefixed/*.graphql → schema/prefixed/supergraph.graphql; fails on any
 * composition error.
 */
try {
  for (const dir of ["../schema/", "../schema/prefixed/"]) {
    const schemaDir = new URL(dir, import.meta.url);
    const { supergraphSdl, hints } = await composeCommittedSubgraphs(schemaDir);
    for (const hint of hints) console.warn(`hint: ${hint}`);
    await writeFile(new URL("supergraph.graphql", schemaDir), supergraphSdl);
    console.log(`wrote ${dir.slice(3)}supergraph.graphql${hints.length ? ` (${hints.length} hints)` : ", no hints"}`);
  }
} catch (err) {
  console.error(err instanceof CompositionError ? err.message : err);
  process.exit(1);
}
