import { Supergraph } from "@apollo/federation-internals";
import { plugin as possibleTypesPlugin } from "@graphql-codegen/fragment-matcher";
import { printSchema, type GraphQLSchema } from "graphql";

/**
 * What frontends build on, derived from the supergraph by `npm run compose` and checked for drift
 * by test/gateway/supergraph.test.ts (docs/frontends.md):
 * - `schema/api.graphql`: the API schema, the graph as clients see it (no `join__`/`link__`
 *   machinery, no `@tag`), computed by Federation's own library as a router computes it, for
 *   codegen, relay-compiler and editors, since production turns introspection off;
 * - `schema/possible-types.json`: the interfaces and unions with their member types, in the shape
 *   Apollo Client's `possibleTypes` takes, written by graphql-codegen's fragment-matcher plugin.
 */

export const API_SCHEMA_FILE = new URL("../schema/api.graphql", import.meta.url);
export const POSSIBLE_TYPES_FILE = new URL("../schema/possible-types.json", import.meta.url);

export function apiSchemaOf(supergraphSdl: string): GraphQLSchema {
  return Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();
}

export async function clientSchemaFiles(supergraphSdl: string): Promise<{ apiSdl: string; possibleTypes: string }> {
  const api = apiSchemaOf(supergraphSdl);
  const possibleTypes = await possibleTypesPlugin(api, [], { apolloClientVersion: 3 }, { outputFile: "possible-types.json" });
  return { apiSdl: `${printSchema(api).trim()}\n`, possibleTypes: `${String(possibleTypes).trim()}\n` };
}
