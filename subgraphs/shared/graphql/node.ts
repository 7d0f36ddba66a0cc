import { defaultFieldResolver, Kind, type ConstDirectiveNode, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type GraphQLResolveInfo, type ObjectTypeDefinitionNode } from "graphql";
import { MAX_FILTER_VALUES, badUserInput } from "../../../platform/user-input.js";
import { currentApiId } from "../../../platform/input-checks.js";

/**
 * Global object identification (docs/frontends.md#relay): every entity of every subgraph
 * implements `Node { nodeId: ID! }`, a graph-wide id naming the type and the directory's id, so
 * that a client store keyed by it (Relay, Apollo's `keyFields`) never merges `Employee 5` with
 * `Department 5`. `id` stays the directory's id, unique within its type only.
 *
 * How it composes under any Federation 2 router (docs/decisions.md#global-ids):
 * - each entity gets a second key, `@key(fields: "nodeId")`, beside `@key(fields: "id")`, and its
 *   reference resolver reads either key;
 * - the owner (people) declares `Node` as an entity interface (`@key(fields: "nodeId")` on the
 *   interface), which makes composition refuse a graph where an entity of another subgraph
 *   implements `Node` and the owner lacks it; the owner holds a stub (`nodeId` only) of each
 *   entity another subgraph resolves, and answers `node`/`nodes` from the id alone for those
 *   (the router then fetches their fields from their subgraph by the `nodeId` key) and through its
 *   own reference resolvers (DataLoader: one call per type per 100) for its own.
 *
 * Applied to a subgraph's SDL and resolver map as it is built (federation.ts), before the
 * descriptions, the tags and the namespace (with GRAPH_PREFIX the interface is `<Prefix>Node`;
 * the id keeps the unprefixed type name, so it is the same in both graphs).
 */

export const NODE_INTERFACE = "Node";
export const NODE_ID_FIELD = "nodeId";
/** `nodes(nodeIds:)` takes at most this many ids, the REST filters' limit. */
export const MAX_NODE_IDS = MAX_FILTER_VALUES;

/**
 * Every entity type of the graph: what the owner's `Node` covers. Composition checks it against
 * the subgraphs (an entity implementing `Node` the owner lacks is an error), and
 * test/gateway/node.test.ts checks that no entity of the supergraph is left out of `Node`.
 */
export const NODE_TYPES: readonly string[] = [
  "AxisSection",
  "BusinessEstablishment",
  "Department",
  "Employee",
  "EmployeeAttribute",
  "EmployeePersonalRecord",
  "Employment",
  "EmploymentTemplate",
  "Event",
  "JobPosition",
  "JobQualification",
  "LegalEntity",
  "OccupationCategory",
  "ProbationaryPeriod",
  "Profession",
  "Taxonomy",
  "TaxonomyLabel",
  "TimeEntry",
  "WebhookDelivery",
  "WebhookDeliveryAttempt",
  "WebhookEndpoint",
  "WorkContract",
];

/**
 * `Employee` and `5` → `RW1wbG95ZWU6NQ`: base64url (no padding) of `Employee:5`, Relay's usual
 * global id in the alphabet the ids of the graph are checked against (letters, digits, `-`, `_`).
 * Written here rather than taken from graphql-relay, whose `toGlobalId` is standard base64 with
 * `+`, `/` and `=`, which the id rule refuses and URLs escape.
 */
export function encodeNodeId(typeName: string, id: string): string {
  return Buffer.from(`${typeName}:${id}`, "utf8").toString("base64url");
}

/** The type and id a global id names, or null when it names none (not base64url, no type, a bad id). */
export function decodeNodeId(nodeId: string): { typeName: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(nodeId) || nodeId.length > 256) return null;
  const text = Buffer.from(nodeId, "base64url").toString("utf8");
  const colon = text.indexOf(":");
  if (colon <= 0) return null;
  const typeName = text.slice(0, colon);
  const id = text.slice(colon + 1);
  if (!NODE_TYPES.includes(typeName) || currentApiId(id) !== null) return null;
  // one text, one id: a non-canonical encoding of the same bytes is not another name of the node
  if (encodeNodeId(typeName, id) !== nodeId) return null;
  return { typeName, id };
}

type Resolvers = Record<string, any>;
type Reference = { id?: unknown; nodeId?: unknown; [key: string]: unknown };

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const namedType = (value: string) => ({ kind: Kind.NAMED_TYPE, name: name(value) }) as const;
const nonNull = (type: any) => ({ kind: Kind.NON_NULL_TYPE, type }) as const;
const nodeIdField: FieldDefinitionNode = { kind: Kind.FIELD_DEFINITION, name: name(NODE_ID_FIELD), type: nonNull(namedType("ID")) };

function keyDirective(fields: string, resolvable: boolean): ConstDirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: name("key"),
    arguments: [
      { kind: Kind.ARGUMENT, name: name("fields"), value: { kind: Kind.STRING, value: fields } },
      ...(resolvable ? [] : [{ kind: Kind.ARGUMENT, name: name("resolvable"), value: { kind: Kind.BOOLEAN, value: false } } as const]),
    ],
  };
}

/** The `@key(fields: "id")` of an entity, and whether it is resolvable; null for a type that is no entity. */
function idKey(type: ObjectTypeDefinitionNode): { resolvable: boolean } | null {
  for (const directive of type.directives ?? []) {
    if (directive.name.value !== "key") continue;
    const fields = directive.arguments?.find((a) => a.name.value === "fields")?.value;
    if (fields?.kind !== Kind.STRING || fields.value.trim() !== "id") continue;
    const resolvable = directive.arguments?.find((a) => a.name.value === "resolvable")?.value;
    return { resolvable: !(resolvable?.kind === Kind.BOOLEAN && resolvable.value === false) };
  }
  return null;
}

/**
 * The subgraph with `Node`: each entity implements it with its `nodeId` key; the owner also gets
 * the entity interface, the stubs of the graph's other entities and `Query.node`/`Query.nodes`.
 */
export function withNodes(document: DocumentNode, resolvers: Resolvers, options: { owner: boolean }): { document: DocumentNode; resolvers: Resolvers } {
  const entities = new Set<string>();
  const definitions: DefinitionNode[] = document.definitions.map((definition) => {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) return definition;
    const key = idKey(definition);
    if (!key) return definition;
    const typeName = definition.name.value;
    // a graph's entity outside the list (a test's probe subgraph) is no Node: test/gateway/node.test.ts checks the graph's are all in
    if (!NODE_TYPES.includes(typeName)) return definition;
    entities.add(typeName);
    return {
      ...definition,
      interfaces: [...(definition.interfaces ?? []), namedType(NODE_INTERFACE)],
      // the owner resolves every Node it answers by either key, whatever the id key says
      directives: [...(definition.directives ?? []), keyDirective(NODE_ID_FIELD, key.resolvable || options.owner)],
      fields: [...(definition.fields ?? []), nodeIdField],
    };
  });
  if (entities.size === 0 && !options.owner) return { document, resolvers };

  definitions.push({
    kind: Kind.INTERFACE_TYPE_DEFINITION,
    name: name(NODE_INTERFACE),
    fields: [nodeIdField],
    ...(options.owner ? { directives: [keyDirective(NODE_ID_FIELD, true)] } : {}),
  });
  const next: Resolvers = { ...resolvers, [NODE_INTERFACE]: { __resolveType: nodeTypeOf } };
  for (const typeName of entities) next[typeName] = entityResolvers(typeName, resolvers[typeName]);

  if (options.owner) {
    for (const typeName of NODE_TYPES.filter((t) => !entities.has(t))) {
      // another subgraph's entity: the owner knows its id, the router fetches the rest from its subgraph
      definitions.push({
        kind: Kind.OBJECT_TYPE_DEFINITION,
        name: name(typeName),
        interfaces: [namedType(NODE_INTERFACE)],
        directives: [keyDirective(NODE_ID_FIELD, true)],
        fields: [nodeIdField],
      });
      next[typeName] = entityResolvers(typeName, undefined);
    }
    const queryIndex = definitions.findIndex((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === "Query");
    const query = definitions[queryIndex] as ObjectTypeDefinitionNode;
    const arg = (argName: string, type: any) => ({ kind: Kind.INPUT_VALUE_DEFINITION, name: name(argName), type }) as const;
    definitions[queryIndex] = {
      ...query,
      fields: [
        ...(query.fields ?? []),
        { kind: Kind.FIELD_DEFINITION, name: name("node"), arguments: [arg(NODE_ID_FIELD, nonNull(namedType("ID")))], type: namedType(NODE_INTERFACE) },
        {
          kind: Kind.FIELD_DEFINITION,
          name: name("nodes"),
          arguments: [arg("nodeIds", nonNull({ kind: Kind.LIST_TYPE, type: nonNull(namedType("ID")) }))],
          type: nonNull({ kind: Kind.LIST_TYPE, type: namedType(NODE_INTERFACE) }),
        },
      ],
    };
    const references = next;
    next.Query = {
      ...(resolvers.Query ?? {}),
      node: (_: unknown, args: { nodeId: string }, ctx: unknown, info: GraphQLResolveInfo) => {
        const [decoded] = decodeAll([args.nodeId], NODE_ID_FIELD);
        return resolveNode(references, decoded!, ctx, info);
      },
      nodes: (_: unknown, args: { nodeIds: string[] }, ctx: unknown, info: GraphQLResolveInfo) => {
        if (args.nodeIds.length > MAX_NODE_IDS) throw badUserInput(`nodeIds takes at most ${MAX_NODE_IDS} entries, got ${args.nodeIds.length}`, "nodeIds");
        return decodeAll(args.nodeIds, "nodeIds").map((decoded) => resolveNode(references, decoded, ctx, info));
      },
    };
  }
  return { document: { ...document, definitions }, resolvers: next };
}

/** Every id decoded, or one BAD_USER_INPUT naming the first that is not one, before any upstream call. */
function decodeAll(nodeIds: string[], argument: string): Array<{ typeName: string; id: string }> {
  return nodeIds.map((nodeId, index) => {
    const decoded = decodeNodeId(nodeId);
    if (!decoded) throw badUserInput(`${argument}${argument === NODE_ID_FIELD ? "" : `[${index}]`} is not the nodeId of any node of this graph`, argument);
    return decoded;
  });
}

/** The type of each object a `node` answers, since a record of the directory does not say it. */
const nodeTypes = new WeakMap<object, string>();

function nodeTypeOf(value: object): string | undefined {
  return nodeTypes.get(value) ?? (value as { __typename?: string }).__typename;
}

/** The record through the type's reference resolver (its loader batches the ids of one type), typed for `Node`. */
async function resolveNode(resolvers: Resolvers, node: { typeName: string; id: string }, ctx: unknown, info: GraphQLResolveInfo): Promise<object | null> {
  const reference = { __typename: node.typeName, id: node.id };
  const resolve = resolvers[node.typeName]?.__resolveReference as ((r: Reference, c: unknown, i: GraphQLResolveInfo) => unknown) | undefined;
  const record = resolve ? ((await resolve(reference, ctx, info)) as object | null) : reference;
  if (record === null || record === undefined) return null;
  nodeTypes.set(record, node.typeName);
  return record;
}

/** An entity's `nodeId` (from its `id`, as the type resolves it) and its reference resolver reading either key. */
function entityResolvers(typeName: string, own: Resolvers | undefined): Resolvers {
  const original = own?.__resolveReference as ((r: Reference, c: unknown, i: GraphQLResolveInfo) => unknown) | undefined;
  return {
    ...(own ?? {}),
    [NODE_ID_FIELD]: async (source: unknown, _args: unknown, ctx: unknown, info: GraphQLResolveInfo) => {
      const idField = info.parentType.getFields().id;
      const id = idField ? await (idField.resolve ?? defaultFieldResolver)(source, {}, ctx, { ...info, fieldName: "id", fieldNodes: info.fieldNodes }) : (source as Reference).id;
      return encodeNodeId(typeName, String(id));
    },
    __resolveReference(reference: Reference, ctx: unknown, info: GraphQLResolveInfo) {
      let keyed = reference;
      if (typeof reference.id !== "string" && typeof reference.nodeId === "string") {
        const decoded = decodeNodeId(reference.nodeId);
        if (!decoded || decoded.typeName !== typeName) return null;
        keyed = { ...reference, id: decoded.id };
      }
      return original ? original(keyed, ctx, info) : { id: keyed.id };
    },
  };
}
