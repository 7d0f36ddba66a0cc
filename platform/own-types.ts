import { Kind, specifiedScalarTypes, type DocumentNode } from "graphql";

/**
 * The types of a schema document that are the facade's own, the ones a company supergraph's
 * `GRAPH_PREFIX` renames (docs/graph.md#company-supergraphs): what the subgraphs' namespacing
 * renames and what the gateway's company composition checks a company's types against.
 */

/** Names that are not the facade's: GraphQL's own scalars, root types, federation's machinery. */
const NOT_OURS = new Set<string>([...specifiedScalarTypes.map((s) => s.name), "Query", "Mutation", "Subscription"]);
const MACHINERY = /^(_|link__|federation__|join__)/;

/** The types a schema document defines that the prefix applies to. */
export function ownTypeNames(document: DocumentNode): Set<string> {
  const own = new Set<string>();
  for (const definition of document.definitions) {
    if ("name" in definition && definition.name && definition.kind !== Kind.DIRECTIVE_DEFINITION) {
      const name = definition.name.value;
      if (!NOT_OURS.has(name) && !MACHINERY.test(name)) own.add(name);
    }
  }
  return own;
}
