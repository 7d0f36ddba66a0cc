import { GraphQLError, isUnionType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { badUserInput } from "../../../platform/user-input.js";
import type { IdRule } from "../../../platform/input-checks.js";
import { decodeNodeId, NODE_ID_FIELD } from "./node.js";

/**
 * Guards a subgraph's `_entities` field, which anyone who reaches the subgraph can call:
 * - more representations than a gateway sends for one fetch (`max`) are refused before any
 *   upstream call;
 * - a representation that is not an object, names no entity type of this subgraph, or whose key
 *   (`id`, or `nodeId` naming an id of the type) is missing or malformed is answered by an error at its own index (`_entities.3`) while
 *   the others of the batch resolve as usual.
 * The schema's `_entities` resolver is replaced in place.
 */
export function guardEntities(schema: GraphQLSchema, options: { max: number; ids: IdRule }): void {
  const field = schema.getQueryType()?.getFields()._entities;
  const original = field?.resolve as GraphQLFieldResolver<unknown, unknown> | undefined;
  if (!field || !original) return;
  field.resolve = (source, args: { representations?: unknown }, context, info) => {
    const representations = args.representations;
    if (!Array.isArray(representations)) return original(source, args, context, info);
    if (representations.length > options.max) {
      throw badUserInput(`_entities takes at most ${options.max} representations, got ${representations.length}`, "representations");
    }
    const problems = representations.map((r, i) => problemOf(schema, r, i, options.ids));
    if (problems.every((p) => p === null)) return original(source, args, context, info);
    const valid = representations.filter((_, i) => problems[i] === null);
    const resolved = valid.length > 0 ? original(source, { ...args, representations: valid }, context, info) : [];
    return Promise.resolve(resolved).then((results) => {
      let next = 0;
      // graphql-js completes an Error value as that item's error
      return problems.map((problem) => problem ?? (results as unknown[])[next++]);
    });
  };
}

function problemOf(schema: GraphQLSchema, representation: unknown, index: number, ids: IdRule): GraphQLError | null {
  const at = `representations[${index}]`;
  if (typeof representation !== "object" || representation === null || Array.isArray(representation)) {
    return badUserInput(`${at} is not an object`, "representations");
  }
  const { __typename: typename, id, nodeId } = representation as { __typename?: unknown; id?: unknown; nodeId?: unknown };
  const entities = schema.getType("_Entity");
  if (typeof typename !== "string" || !isUnionType(entities) || !entities.getTypes().some((t) => t.name === typename)) {
    return badUserInput(`${at}.__typename does not name an entity of this subgraph`, "representations");
  }
  if (id === undefined && typeof nodeId === "string") {
    return decodeNodeId(nodeId) ? null : badUserInput(`${at}.${NODE_ID_FIELD} is not the nodeId of a node of this graph`, "representations");
  }
  if (typeof id !== "string") return badUserInput(`${at}.id is missing or not a string`, "representations");
  const problem = ids(id);
  return problem === null ? null : badUserInput(`${at}.id ${problem}`, "representations");
}

/** A reference to another entity of the graph: only its key. */
export function entityRef(ref: { id: string } | null | undefined): { id: string } | null {
  return ref ? { id: ref.id } : null;
}

/** A legacy integer reference as the graph's entity reference (legacy ids are the current API's ids). */
export function ref(id: number | null | undefined): { id: string } | null {
  return id === null || id === undefined ? null : { id: String(id) };
}

/**
 * The reference resolver of an entity another subgraph owns and this one only adds fields to
 * (people's `JobQualification.jobPositions`, legacy-time's `Employee`): the key is all this
 * subgraph needs of it. Every such `*.reference.ts` names it, so each entity keeps its file.
 */
export const keyOnlyReference = {
  __resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  },
};
