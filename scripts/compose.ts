import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parse } from "graphql";
import { composeCommittedSubgraphs, CompositionError } from "../gateway/compose.js";
import { composeWithCompany, type CompanySubgraph } from "../gateway/company.js";
import { API_SCHEMA_FILE, clientSchemaFiles, POSSIBLE_TYPES_FILE } from "./client-schema.js";

/**
 * `npm run compose`: schema/*.graphql → schema/supergraph.graphql, and the GRAPH_PREFIX=Dir
 * variant schema/prefixed/*.graphql → schema/prefixed/supergraph.graphql, then the client files
 * of the supergraph, schema/api.graphql and schema/possible-types.json (client-schema.ts); fails
 * on any composition error.
 *
 * `npm run compose -- --company <name>=<file.graphql> [--company ...] [--out <file>]`: the
 * prefixed subgraphs beside a company's subgraphs (their SDL files), written to `--out` (default
 * `company-supergraph.graphql`); a company type that means one of the directory's entities by its
 * unprefixed name is a warning naming the type to extend (gateway/company.ts). The committed
 * supergraphs are left as they are.
 */
try {
  const { values } = parseArgs({ options: { company: { type: "string", multiple: true }, out: { type: "string" } } });
  if (values.company?.length) {
    const companies: CompanySubgraph[] = [];
    for (const spec of values.company) {
      const [name, file] = spec.split(/=(.*)/s);
      if (!name || !file || !/^[a-z][a-z0-9_-]*$/i.test(name)) throw new CompositionError(`--company takes <name>=<file.graphql>, got "${spec}"`);
      companies.push({ name, typeDefs: parse(await readFile(file, "utf8")) });
    }
    const { supergraphSdl, hints, warnings } = await composeWithCompany(companies);
    for (const warning of warnings) console.warn(`warning: ${warning}`);
    for (const hint of hints) console.warn(`hint: ${hint}`);
    const out = values.out ?? "company-supergraph.graphql";
    await writeFile(out, supergraphSdl);
    console.log(`wrote ${out}${warnings.length ? ` (${warnings.length} warnings)` : ""}`);
  } else {
    for (const dir of ["../schema/", "../schema/prefixed/"]) {
      const schemaDir = new URL(dir, import.meta.url);
      const { supergraphSdl, hints } = await composeCommittedSubgraphs(schemaDir);
      for (const hint of hints) console.warn(`hint: ${hint}`);
      await writeFile(new URL("supergraph.graphql", schemaDir), supergraphSdl);
      console.log(`wrote ${dir.slice(3)}supergraph.graphql${hints.length ? ` (${hints.length} hints)` : ", no hints"}`);
      if (dir !== "../schema/") continue;
      const { apiSdl, possibleTypes } = await clientSchemaFiles(supergraphSdl);
      await writeFile(API_SCHEMA_FILE, apiSdl);
      await writeFile(POSSIBLE_TYPES_FILE, possibleTypes);
      console.log("wrote schema/api.graphql and schema/possible-types.json");
    }
  }
} catch (err) {
  console.error(err instanceof CompositionError || (err as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || (err as { code?: string }).code === "ENOENT" ? `compose: ${(err as Error).message}` : err);
  process.exit(1);
}
