import { GRAPH_PREFIX_PATTERN, rootFieldPrefix } from "../../../platform/config.js";
import { ownTypeNames } from "../../../platform/own-types.js";
import { GraphQLObjectType, GraphQLScalarType, Kind, visit, type DocumentNode } from "graphql";

/**
 * Namespacing for a company supergraph (`GRAPH_PREFIX`): every type the facade owns (objects,
 * inputs, enums, unions, scalars) is renamed `<Prefix><Name>` and every root field
 * `<prefix><Name>` (`DirEmployee`, `dirEmployee(id:)`, `dirUpdateTimeEntry`), so that the
 * subgraphs compose beside a company's own `Department`, `Translation`, `Date` or
 * `Query.department`. Applied once, to a subgraph's SDL and resolver map as it is built
 * (federation.ts), so resolvers, union type resolution and entity reference resolvers all follow.
 */


/** `employee` under `Dir` -> `dirEmployee` */
export function prefixedRootField(prefix: string, field: string): string {
  return rootFieldPrefix(prefix) + field[0]!.toUpperCase() + field.slice(1);
}

type Resolvers = Record<string, any>;

/** The document and resolver map with the facade's types and root fields renamed under `prefix`. */
export function namespaceSubgraph(document: DocumentNode, resolvers: Resolvers, prefix: string): { document: DocumentNode; resolvers: Resolvers } {
  if (!GRAPH_PREFIX_PATTERN.test(prefix)) throw new Error(`not a type-name prefix: "${prefix}"`);
  const own = ownTypeNames(document);
  const rename = (name: string) => (own.has(name) ? prefix + name : name);
  const isRoot = (name: string) => name === "Query" || name === "Mutation";

  const renameType = (node: any) => (own.has(node.name.value) ? { ...node, name: { ...node.name, value: rename(node.name.value) } } : undefined);
  const renamedRoot = (node: any) =>
    isRoot(node.name.value)
      ? { ...node, fields: node.fields?.map((f: any) => ({ ...f, name: { ...f.name, value: prefixedRootField(prefix, f.name.value) } })) }
      : renameType(node);
  const renamedDocument = visit(document, {
    NamedType: renameType,
    ObjectTypeDefinition: renamedRoot,
    ObjectTypeExtension: renamedRoot,
    InputObjectTypeDefinition: renameType,
    EnumTypeDefinition: renameType,
    UnionTypeDefinition: renameType,
    InterfaceTypeDefinition: renameType,
    ScalarTypeDefinition: renameType,
  });

  const renamedResolvers: Resolvers = {};
  for (const [typeName, typeResolvers] of Object.entries(resolvers)) {
    if (isRoot(typeName)) {
      renamedResolvers[typeName] = Object.fromEntries(Object.entries(typeResolvers).map(([field, r]) => [prefixedRootField(prefix, field), r]));
      continue;
    }
    if (typeResolvers && typeof typeResolvers.__resolveType === "function") {
      const resolveType = typeResolvers.__resolveType;
      renamedResolvers[rename(typeName)] = {
        ...typeResolvers,
        __resolveType: async (...args: unknown[]) => {
          const resolved = await resolveType(...args);
          if (typeof resolved === "string") return rename(resolved);
          if (resolved instanceof GraphQLObjectType) return rename(resolved.name);
          return resolved;
        },
      };
      continue;
    }
    // a scalar's resolver is copied onto the SDL's scalar property by property: its name must not come along
    renamedResolvers[rename(typeName)] =
      typeResolvers instanceof GraphQLScalarType
        ? { serialize: typeResolvers.serialize, parseValue: typeResolvers.parseValue, parseLiteral: typeResolvers.parseLiteral }
        : typeResolvers;
  }
  return { document: renamedDocument, resolvers: renamedResolvers };
}

/**
 * An operation written against the unprefixed graph, rewritten for the graph under `prefix`: its
 * root fields and the facade's type names (`ownTypes`: variable types, type conditions) renamed.
 * Each root field is aliased to its old name, so the response has the shape it had.
 */
export function prefixOperation(document: DocumentNode, prefix: string, ownTypes: ReadonlySet<string>): DocumentNode {
  const rootSelections = new Set<unknown>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const collect = (selections: readonly any[]) => {
      for (const selection of selections) {
        if (selection.kind === Kind.FIELD && !selection.name.value.startsWith("__")) rootSelections.add(selection);
        if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet.selections);
      }
    };
    collect(definition.selectionSet.selections);
  }
  return visit(document, {
    Field: (node) =>
      rootSelections.has(node)
        ? { ...node, alias: node.alias ?? { kind: Kind.NAME, value: node.name.value }, name: { ...node.name, value: prefixedRootField(prefix, node.name.value) } }
        : undefined,
    NamedType: (node) => (ownTypes.has(node.name.value) ? { ...node, name: { ...node.name, value: prefix + node.name.value } } : undefined),
  });
}
