import { composeServices } from "@apollo/composition";
import { Kind, parse, type ConstDirectiveNode, type DocumentNode } from "graphql";
import { readFile } from "node:fs/promises";
import { ownTypeNames } from "../platform/own-types.js";
import { COMMITTED_PREFIX, CompositionError, DEFAULT_ROUTING_URLS } from "./compose.js";
import { SUBGRAPH_NAMES } from "./config.js";

/**
 * `npm run compose -- --company <name>=<file.graphql> ...`: the facade's subgraphs under
 * GRAPH_PREFIX (schema/prefixed/) composed beside a company's own, and the prefix trap said out
 * loud (docs/graph.md#company-supergraphs): a company subgraph that extends `Employee` by its key
 * composes without an error or a hint, as an entity of its own, and its fields never reach
 * `DirEmployee`. Each company type that has the name and the key of an entity the prefix renamed
 * (or is declared `extend type`) gets a warning naming the type to extend instead. A company's own
 * type of the same name with another key (its `Department @key(fields: "code")`) is its own and
 * gets none.
 */

export interface CompanySubgraph {
  name: string;
  /** routing URL in the supergraph; default `http://<name>.invalid/graphql` */
  url?: string;
  typeDefs: DocumentNode;
}

export interface CompanyComposition {
  supergraphSdl: string;
  hints: string[];
  /** the prefix traps found, one line each */
  warnings: string[];
}

/** `@key(fields:)` values of a type definition or extension */
function keysOf(directives: readonly ConstDirectiveNode[] | undefined): string[] {
  return (directives ?? [])
    .filter((d) => d.name.value === "key")
    .map((d) => d.arguments?.find((a) => a.name.value === "fields")?.value)
    .flatMap((v) => (v?.kind === Kind.STRING ? [v.value.replace(/\s+/g, " ").trim()] : []));
}

/** The facade's entities by unprefixed name: their keys, from the default SDL of schema/. */
export async function facadeEntities(schemaDir = new URL("../schema/", import.meta.url)): Promise<Map<string, Set<string>>> {
  const entities = new Map<string, Set<string>>();
  for (const name of SUBGRAPH_NAMES) {
    const document = parse(await readFile(new URL(`${name}.graphql`, schemaDir), "utf8"));
    const own = ownTypeNames(document);
    for (const definition of document.definitions) {
      if ((definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) || !own.has(definition.name.value)) continue;
      const keys = keysOf(definition.directives);
      if (keys.length === 0) continue;
      const known = entities.get(definition.name.value) ?? new Set<string>();
      for (const key of keys) known.add(key);
      entities.set(definition.name.value, known);
    }
  }
  return entities;
}

/** The prefix traps of one company subgraph: its types that mean one of the facade's entities by its unprefixed name. */
export function prefixTraps(company: CompanySubgraph, entities: Map<string, Set<string>>, prefix = COMMITTED_PREFIX): string[] {
  const warnings: string[] = [];
  for (const definition of company.typeDefs.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const name = definition.name.value;
    const ourKeys = entities.get(name);
    if (!ourKeys) continue;
    const keys = keysOf(definition.directives);
    const extension = definition.kind === Kind.OBJECT_TYPE_EXTENSION;
    const sameKey = keys.find((key) => ourKeys.has(key));
    if (!extension && !sameKey) continue;
    warnings.push(
      `company subgraph "${company.name}" ${extension ? "extends" : `declares ${name} with the directory's key (${sameKey})`}` +
        `${extension ? ` ${name}` : ""}, which GRAPH_PREFIX=${prefix} renamed: it composes as a separate entity and its fields never reach ` +
        `${prefix}${name}; extend \`type ${prefix}${name} @key(fields: "${sameKey ?? [...ourKeys][0]}")\` instead`,
    );
  }
  return warnings;
}

/** Our prefixed subgraphs (schema/prefixed/) and the company's, composed; throws a CompositionError on composition errors. */
export async function composeWithCompany(companies: CompanySubgraph[], schemaDir = new URL("../schema/", import.meta.url)): Promise<CompanyComposition> {
  const prefixedDir = new URL("prefixed/", schemaDir);
  const ours = await Promise.all(
    SUBGRAPH_NAMES.map(async (name) => ({ name, url: DEFAULT_ROUTING_URLS[name], typeDefs: parse(await readFile(new URL(`${name}.graphql`, prefixedDir), "utf8")) })),
  );
  const taken = new Set<string>(SUBGRAPH_NAMES);
  for (const company of companies) {
    if (taken.has(company.name)) throw new CompositionError(`two subgraphs are named "${company.name}"`);
    taken.add(company.name);
  }
  const entities = await facadeEntities(schemaDir);
  const warnings = companies.flatMap((company) => prefixTraps(company, entities));
  const result = composeServices([...ours, ...companies.map((c) => ({ name: c.name, url: c.url ?? `http://${c.name}.invalid/graphql`, typeDefs: c.typeDefs }))]);
  if (result.errors) throw new CompositionError(`composition failed:\n${result.errors.map((e) => `- ${e.message}`).join("\n")}`);
  return { supergraphSdl: result.supergraphSdl.trim() + "\n", hints: result.hints.map((h) => `${h.definition.code}: ${h.message}`), warnings };
}
