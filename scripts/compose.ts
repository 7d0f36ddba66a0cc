import { writeFile } from "node:fs/promises";
import { composeCommittedSubgraphs, CompositionError } from "../gateway/compose.js";

/** `npm run compose`: schema/*.graphql → schema/supergraph.graphql; fails on any composition error. */
try {
  const { supergraphSdl, hints } = await composeCommittedSubgraphs();
  for (const hint of hints) console.warn(`hint: ${hint}`);
  await writeFile(new URL("../schema/supergraph.graphql", import.meta.url), supergraphSdl);
  console.log(`wrote schema/supergraph.graphql${hints.length ? ` (${hints.length} hints)` : ", no hints"}`);
} catch (err) {
  console.error(err instanceof CompositionError ? err.message : err);
  process.exit(1);
}
