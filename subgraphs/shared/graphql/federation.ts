import { buildSubgraphSchema } from "@apollo/subgraph";
import { printSchemaWithDirectives } from "@graphql-tools/utils";
import { graphql, isObjectType, parse, visit, type ConstDirectiveNode, type DocumentNode, type GraphQLSchema } from "graphql";
import { buildSchema, createResolversMap, type BuildSchemaOptions } from "type-graphql";
import { compareText } from "../upstream/index.js";
import { describeDocument } from "./descriptions.js";
import { namespaceSubgraph } from "./namespace.js";
import { withNodes } from "./node.js";
import { tagDocument } from "./tags.js";

/** The Federation 2 directives our subgraphs use. */
const FEDERATION_LINK = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@tag"])`;

/** How a subgraph names what it owns: `prefix` (GRAPH_PREFIX) namespaces types and root fields for a company supergraph. */
export interface SchemaNaming {
  prefix?: string | null;
}

export interface SubgraphSchemaOptions extends Omit<BuildSchemaOptions, "skipCheck">, SchemaNaming {
  /** `__resolveReference` per entity type name */
  referenceResolvers?: Record<string, { __resolveReference: (reference: any, context: any, info: any) => unknown }>;
  /** the subgraph that owns the `Node` interface and answers `node`/`nodes` (node.ts): people */
  nodeOwner?: boolean;
}

/**
 * A type-graphql schema turned into an Apollo Federation 2 subgraph schema: printed with its
 * directives (plain `printSchema` drops `@key`), then rebuilt by `buildSubgraphSchema` with
 * type-graphql's resolvers and the entities' reference resolvers. On the way, every entity
 * implements `Node` (node.ts), the catalogue fills
 * the descriptions decorators leave out (descriptions.ts), the contract `@tag`s go on (tags.ts)
 * and, with a prefix, every type and root field is renamed (namespace.ts): the one place where
 * the printed schema is transformed.
 */
export async function buildFederatedSchema(options: SubgraphSchemaOptions): Promise<GraphQLSchema> {
  const { referenceResolvers, prefix, nodeOwner, ...buildOptions } = options;
  const schema = await buildSchema({ ...buildOptions, skipCheck: true });
  const resolvers = withoutPlainFieldResolvers(schema, createResolversMap(schema) as Record<string, Record<string, unknown>>);
  for (const [typeName, reference] of Object.entries(referenceResolvers ?? {})) {
    resolvers[typeName] = { ...(resolvers[typeName] ?? {}), ...reference };
  }
  const nodes = withNodes(parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`), resolvers, { owner: nodeOwner ?? false });
  const described = tagDocument(describeDocument(inOneOrder(nodes.document)));
  const named = prefix ? namespaceSubgraph(described, nodes.resolvers, prefix) : { document: described, resolvers: nodes.resolvers };
  return buildSubgraphSchema({
    typeDefs: named.document,
    // type-graphql's resolver map is structurally the same as Apollo's
    resolvers: named.resolvers as never,
  });
}

/**
 * The directives a field's decorators declare, by name: type-graphql takes one per `@Directive`
 * and prints them in the order the decorators ran, which is not the same under every loader
 * (legacy-time's `employee(id:)` is `@provides` and `@shareable`), while the committed SDL must be.
 */
function inOneOrder(document: DocumentNode): DocumentNode {
  const byName = (a: ConstDirectiveNode, b: ConstDirectiveNode) => compareText(a.name.value, b.name.value);
  return visit(document, {
    FieldDefinition: (field) => ((field.directives?.length ?? 0) > 1 ? { ...field, directives: [...field.directives!].sort(byName) } : undefined),
  });
}

/** The subgraph's SDL exactly as a gateway reads it through `_service { sdl }`. */
export async function subgraphSdl(schema: GraphQLSchema): Promise<string> {
  const result = await graphql({ schema, source: "{ _service { sdl } }" });
  const sdl = (result.data?._service as { sdl?: string } | undefined)?.sdl;
  if (!sdl) throw new Error(`not a subgraph schema: ${result.errors?.[0]?.message ?? "no _service.sdl"}`);
  return sdl.trim() + "\n";
}

/** What type-graphql's metadata says of fields (its global storage; not part of its exports). */
interface TypeGraphQLMetadata {
  objectTypes: Array<{ name: string; target: unknown }>;
  fieldResolvers: Array<{ schemaName: string; getObjectType?: () => unknown }>;
  fields: Array<{ name: string; schemaName: string; middlewares?: unknown[]; roles?: unknown[] }>;
}

/**
 * type-graphql gives every field of an object type a resolver: a field without a resolver method
 * gets one that runs the field's middlewares, then reads the property — an object and a closure
 * per field resolved, for middlewares no field has. Those fields are left to graphql-js's default
 * resolver, which reads the same property, when the property has the field's name and no field
 * has a middleware or a role; fields resolved by a method, root fields and renamed properties
 * keep theirs. Without type-graphql's metadata at hand, every resolver stays.
 */
function withoutPlainFieldResolvers(schema: GraphQLSchema, resolvers: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const metadata = (globalThis as { TypeGraphQLMetadataStorage?: TypeGraphQLMetadata }).TypeGraphQLMetadataStorage;
  if (!metadata?.fields || !metadata.fieldResolvers || !metadata.objectTypes) return resolvers;
  if (metadata.fields.some((f) => (f.middlewares?.length ?? 0) > 0 || f.roles !== undefined)) return resolvers;
  const renamed = new Set(metadata.fields.filter((f) => f.name !== f.schemaName).map((f) => f.schemaName));
  const typeNameOf = new Map(metadata.objectTypes.map((t) => [t.target, t.name]));
  const methods = new Set(metadata.fieldResolvers.map((r) => `${typeNameOf.get(r.getObjectType?.()) ?? "?"}.${r.schemaName}`));
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name, schema.getSubscriptionType()?.name]);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (roots.has(typeName) || !isObjectType(type)) continue;
    for (const fieldName of Object.keys(type.getFields())) {
      if (typeof fields[fieldName] === "function" && !methods.has(`${typeName}.${fieldName}`) && !renamed.has(fieldName)) delete fields[fieldName];
    }
  }
  return resolvers;
}
