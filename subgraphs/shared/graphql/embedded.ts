import {
  Kind,
  TypeInfo,
  getNamedType,
  isAbstractType,
  isObjectType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionNode,
} from "graphql";
import { readsBeyondKey, someField } from "./connection.js";
import { prefixedRootField } from "./namespace.js";
import { RESOURCE_SHAPES } from "../../../contract/rest-shapes.js";
import type { Envelope } from "../upstream/types.js";

/**
 * `include=embedded` as a prefetch that primes the loaders (docs/performance.md#batching-rules): a
 * parent's call asks for the resources it embeds when the operation reads one of them, and a
 * representation embedded is handed to the loader of its type only when it holds every member the
 * operation reads of that type anywhere (the interface allows partial representations, and the
 * loader's memo answers every reference of the request). Otherwise the loader reads it as without
 * the embed. What the caller may not read is left out by the upstream, and loaders live in the
 * caller's request, so visibility is the caller's own. Fires on the embeddable reads (the
 * upstream client's EMBEDDED_SOURCES) whose operation reads an embedded resource; no setting turns it
 * off (docs/performance.md#which-mechanism-fires-when).
 */

/**
 * The fields an operation selects on each named type (through fragments and `_entities`), by type
 * name; under `VIA + name`, the fields through which the type is reached (`BusinessEstablishment.legalEntity`).
 */
export type SelectedFields = ReadonlyMap<string, ReadonlySet<string>>;

const VIA = "via:";

const selectedByDocument = new WeakMap<DocumentNode, Map<string, Set<string>>>();

/**
 * Every field the document selects, by the named type it is selected on (an over-approximation:
 * `@skip` is not evaluated, every operation of the document counts). Computed once per document.
 */
export function selectedFieldsOf(schema: GraphQLSchema, document: DocumentNode): SelectedFields {
  let found = selectedByDocument.get(document);
  if (!found) {
    const into = new Map<string, Set<string>>();
    const add = (key: string, value: string) => {
      let set = into.get(key);
      if (!set) into.set(key, (set = new Set()));
      set.add(value);
    };
    const typeInfo = new TypeInfo(schema);
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (!parent) return;
          const name = getNamedType(parent).name;
          add(name, node.name.value);
          // how each type is reached: `Parent.field`, through the inline fragments of an abstract type too
          const returned = typeInfo.getType();
          if (!returned) return;
          const type = getNamedType(returned);
          const via = `${name}.${node.name.value}`;
          if (isObjectType(type)) add(VIA + type.name, via);
          else if (isAbstractType(type)) {
            for (const sel of node.selectionSet?.selections ?? []) if (sel.kind === Kind.INLINE_FRAGMENT && sel.typeCondition) add(VIA + sel.typeCondition.name.value, via);
          }
        },
      }),
    );
    found = into;
    selectedByDocument.set(document, found);
  }
  return found;
}

/** `selectedFieldsOf` for the document a resolver runs in. */
export function selectedFieldsIn(info: GraphQLResolveInfo): SelectedFields {
  // keyed by the operation node, which graphql-js keeps for the whole request
  let document = documentByOperation.get(info.operation);
  if (!document) {
    document = { kind: Kind.DOCUMENT, definitions: [info.operation, ...Object.values(info.fragments)] };
    documentByOperation.set(info.operation, document);
  }
  return selectedFieldsOf(info.schema, document);
}

const documentByOperation = new WeakMap<object, DocumentNode>();

/** What one request's operation selects, with the names of the subgraph's own types (GRAPH_PREFIX). */
export interface OperationSelections {
  selected: SelectedFields;
  /** `BusinessEstablishment` -> the schema's name for it (`DirBusinessEstablishment` under a prefix) */
  typeName(name: string): string;
  /** the fields selected on the type named `name` (unprefixed) */
  fieldsOf(name: string): ReadonlySet<string>;
  /** whether the operation reads the type named `name` (unprefixed) beyond its key */
  readsBeyondKey(name: string): boolean;
  /** whether the operation selects the root query field `name` (unprefixed) */
  selectsRoot(name: string): boolean;
  /** the fields through which the operation reaches the type named `name` (unprefixed), as `Parent.field` with the schema's names */
  reachedVia(name: string): ReadonlySet<string>;
}

export function operationSelections(schema: GraphQLSchema, document: DocumentNode, prefix: string | null): OperationSelections {
  const selected = selectedFieldsOf(schema, document);
  const typeName = (name: string) => `${prefix ?? ""}${name}`;
  return {
    selected,
    typeName,
    fieldsOf: (name) => selected.get(typeName(name)) ?? new Set(),
    readsBeyondKey: (name) => readsTypeBeyondKey(selected, typeName(name)),
    reachedVia: (name) => selected.get(VIA + typeName(name)) ?? new Set(),
    selectsRoot: (name) => selected.get("Query")?.has(prefix ? prefixedRootField(prefix, name) : name) ?? false,
  };
}

/** Whether the operation reads anything of `typeName` beyond its key. */
export function readsTypeBeyondKey(selected: SelectedFields, typeName: string): boolean {
  for (const field of selected.get(typeName) ?? []) if (field !== "id" && field !== "__typename") return true;
  return false;
}

/** How the representations of one embedded type are handed to a loader. */
export interface EmbeddedPrime {
  /** the REST type of the embedded representations (`job-position`) */
  restType: string;
  /** the graph's type they answer (`JobPosition`) */
  graphType: string;
  /**
   * the REST members a graph field needs, where they differ from the field's name
   * (`startsOn: ["start"]`); a field that names no member of the type's declared shape and is not
   * listed here needs none (it is read through a loader of its own)
   */
  members?: Readonly<Record<string, readonly string[]>>;
  prime(entries: ReadonlyArray<readonly [string, unknown]>): unknown;
}

/** The REST members the operation's reads of `prime.graphType` need. */
function neededMembers(prime: EmbeddedPrime, selected: SelectedFields): string[] {
  const shape = RESOURCE_SHAPES[prime.restType];
  const declared = new Set(Object.keys(shape?.properties ?? {}));
  const out = new Set<string>(["id"]);
  for (const field of selected.get(prime.graphType) ?? []) {
    if (field === "__typename") continue;
    const members = prime.members?.[field] ?? (declared.has(field) ? [field] : []);
    for (const m of members) out.add(m);
  }
  return [...out];
}

/**
 * Hands the representations of an answer's `embedded` that hold every member the operation reads
 * to their loaders; the others (partial, or missing) are left to the loaders to read.
 */
export function primeEmbedded(envelope: Pick<Envelope<unknown>, "embedded">, primes: readonly EmbeddedPrime[], selected: SelectedFields): void {
  const embedded = envelope.embedded;
  if (!embedded) return;
  for (const prime of primes) {
    const byId = embedded[prime.restType];
    if (!byId) continue;
    const needed = neededMembers(prime, selected);
    const entries = Object.entries(byId).filter(
      ([id, representation]) =>
        typeof representation === "object" && representation !== null && (representation as { id?: unknown }).id === id && needed.every((m) => m in representation),
    );
    if (entries.length > 0) prime.prime(entries);
  }
}

/** The named type of `field` on the object type `typeName` (prefixed names follow: GRAPH_PREFIX). */
export function fieldTypeName(schema: GraphQLSchema, typeName: string, field: string): string | null {
  const type = schema.getType(typeName);
  const def = isObjectType(type) ? type.getFields()[field] : undefined;
  return def ? getNamedType(def.type).name : null;
}

/**
 * The selections of the items of the connection a resolver answers (`nodes { … }` and
 * `edges { node { … } }`), with the items' type name.
 */
export function connectionItems(info: GraphQLResolveInfo): { typeName: string | null; selections: SelectionNode[] } {
  const selections: SelectionNode[] = [];
  const collect = (nodes: readonly SelectionNode[], name: string, into: (f: FieldNode) => void) =>
    someField(nodes, info, (f) => {
      if (f.name.value === name) into(f);
      return false;
    });
  const top = info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []);
  collect(top, "nodes", (f) => selections.push(...(f.selectionSet?.selections ?? [])));
  collect(top, "edges", (edges) => collect(edges.selectionSet?.selections ?? [], "node", (f) => selections.push(...(f.selectionSet?.selections ?? []))));
  const connection = getNamedType(info.returnType);
  const typeName = isObjectType(connection) ? fieldTypeName(info.schema, connection.name, "nodes") : null;
  return { typeName, selections };
}

/** Whether `selections` read the reference `field` beyond its key (`applicableJobPosition { jobTitle }`). */
export function readsReference(selections: readonly SelectionNode[], info: GraphQLResolveInfo, field: string): boolean {
  return someField(selections, info, (f) => f.name.value === field && readsBeyondKey(f.selectionSet?.selections ?? [], info));
}
