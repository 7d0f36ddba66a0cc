import { ANNOUNCEMENT_OPERATION, SPLIT_PART } from "../../platform/speculation-protocol.js";
import type { FetchNode, PlanNode, QueryPlan, QueryPlanSelectionNode } from "@apollo/query-planner";
import {
  Kind,
  parse,
  print,
  stripIgnoredCharacters,
  visit,
  type DocumentNode,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionNode,
  type VariableDefinitionNode,
} from "graphql";

export interface Candidate {
  /** the root lookup's `id` argument: a variable's name, or a literal */
  id: { variable?: string; literal?: string };
  typename: string;
  fetch: FetchNode;
}

export function findCandidates(plan: QueryPlan): Candidate[] {
  const root = plan.node;
  if (root?.kind !== "Sequence" || root.nodes.length < 2) return [];
  const first = root.nodes[0]!;
  if (first.kind !== "Fetch" || first.requires || first.operationKind !== "query") return [];
  const lookups = rootLookups(first);
  if (lookups.size === 0) return [];
  const out: Candidate[] = [];
  for (const flatten of nextFetches(root.nodes[1]!)) {
    if (flatten.path.length !== 1) continue;
    const id = lookups.get(String(flatten.path[0]));
    const fetch = flatten.node.kind === "Fetch" ? flatten.node : null;
    if (id === undefined || !fetch || fetch.operationKind !== "query" || fetch.inputRewrites?.length || fetch.contextRewrites?.length) continue;
    const typename = keyOnly(fetch.requires);
    if (typename !== null) out.push({ id, typename, fetch });
  }
  return out;
}

/**
 * The root fetch's lookups by id: response name -> how its id is given. Only fields that ask
 * `__typename`, which the plan does for the representation of a next fetch, and take exactly one
 * argument, `id`. Should the field answer another entity, its representation differs and the
 * speculative answer is not claimed.
 */
function rootLookups(fetch: FetchNode): Map<string, Candidate["id"]> {
  const out = new Map<string, Candidate["id"]>();
  let operation: OperationDefinitionNode | undefined;
  try {
    operation = parse(fetch.operation).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  } catch {
    return out;
  }
  for (const selection of operation?.selectionSet.selections ?? []) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) continue;
    const id = idArgument(selection);
    const asksTypename = selection.selectionSet?.selections.some((s) => s.kind === Kind.FIELD && s.name.value === "__typename" && !s.alias) ?? false;
    if (id !== null && asksTypename) out.set(selection.alias?.value ?? selection.name.value, id);
  }
  return out;
}

function idArgument(field: FieldNode): Candidate["id"] | null {
  if (field.arguments?.length !== 1 || field.arguments[0]!.name.value !== "id") return null;
  const value = field.arguments[0]!.value;
  if (value.kind === Kind.VARIABLE) return { variable: value.name.value };
  return value.kind === Kind.STRING || value.kind === Kind.INT ? { literal: value.value } : null;
}

/** The Flatten fetches that start as soon as the root fetch has answered. */
function nextFetches(node: PlanNode): Array<{ path: ReadonlyArray<string | number>; node: PlanNode }> {
  switch (node.kind) {
    case "Flatten":
      return [{ path: node.path, node: node.node }];
    case "Parallel":
      return node.nodes.flatMap(nextFetches);
    case "Sequence":
      return node.nodes.length > 0 ? nextFetches(node.nodes[0]!) : [];
    default:
      return [];
  }
}

/** The entity type of a fetch that needs nothing but the key `id`: `... on T { __typename id }`. */
function keyOnly(requires: QueryPlanSelectionNode[] | undefined): string | null {
  if (!requires || requires.length !== 1) return null;
  const fragment = requires[0]!;
  if (fragment.kind !== "InlineFragment" || !fragment.typeCondition) return null;
  const names = fragment.selections.map((s) => (s.kind === "Field" && !s.selections ? s.name : "?"));
  return names.length === 2 && names[0] === "__typename" && names[1] === "id" ? fragment.typeCondition : null;
}

export interface Announcement {
  serviceName: string;
  query: string;
  document: DocumentNode;
  /** the operation's variables its selections use */
  variables: string[];
}

/** Per subgraph, the selections of its entity fetches that wait for another fetch, as one `_entities` query. */
export function findAnnouncements(plan: QueryPlan): Announcement[] {
  const root = plan.node;
  if (root?.kind !== "Sequence" && root?.kind !== "Parallel") return [];
  const fetches = allFetches(root);
  if (fetches.some((f) => f.operationKind !== "query")) return [];
  const bySubgraph = new Map<string, { selections: SelectionNode[]; definitions: Map<string, VariableDefinitionNode> }>();
  for (const fetch of fetches) {
    if (!fetch.requires || fetch.requires.length === 0) continue;
    let operation: OperationDefinitionNode | undefined;
    try {
      const document = fetch.operationDocumentNode ?? parse(fetch.operation);
      operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    } catch {
      continue;
    }
    const entities = operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === "_entities");
    if (!operation || !entities?.selectionSet) continue;
    let group = bySubgraph.get(fetch.serviceName);
    if (!group) bySubgraph.set(fetch.serviceName, (group = { selections: [], definitions: new Map() }));
    group.selections.push(...entities.selectionSet.selections);
    for (const definition of operation.variableDefinitions ?? []) group.definitions.set(definition.variable.name.value, definition);
  }
  const out: Announcement[] = [];
  for (const [serviceName, group] of bySubgraph) {
    const document: DocumentNode = {
      kind: Kind.DOCUMENT,
      definitions: [
        {
          kind: Kind.OPERATION_DEFINITION,
          operation: "query" as never,
          name: { kind: Kind.NAME, value: ANNOUNCEMENT_OPERATION },
          variableDefinitions: [...group.definitions.values()],
          selectionSet: {
            kind: Kind.SELECTION_SET,
            selections: [
              {
                kind: Kind.FIELD,
                name: { kind: Kind.NAME, value: "_entities" },
                arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "representations" }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: "representations" } } }],
                selectionSet: { kind: Kind.SELECTION_SET, selections: group.selections },
              },
            ],
          },
        },
      ],
    };
    out.push({ serviceName, query: print(document), document, variables: [...group.definitions.keys()].filter((n) => n !== "representations") });
  }
  return out;
}

/** Every fetch of a plan but its first (the one nothing waits for), in plan order. */
function allFetches(root: PlanNode): FetchNode[] {
  const out: FetchNode[] = [];
  const walk = (node: PlanNode): void => {
    switch (node.kind) {
      case "Fetch":
        out.push(node);
        return;
      case "Flatten":
        return walk(node.node);
      case "Sequence":
      case "Parallel":
        return node.nodes.forEach(walk);
      default:
        // conditions, deferred parts, subscriptions: announced by nothing
        return;
    }
  };
  walk(root);
  // a fetch with no requirement starts with the operation anyway
  return out.filter((f) => f.requires && f.requires.length > 0);
}

/** A plan's node as planned and split (null: it cannot be), and the subgraph of its root fetch. */
export interface SplitNodes {
  planned: QueryPlan["node"];
  split: PlanNode | null;
  subgraph: string;
}

export function splitOf(plan: QueryPlan): SplitNodes {
  const root = plan.node;
  const unsplit: SplitNodes = { planned: root, split: null, subgraph: "" };
  if (root?.kind !== "Sequence" || root.nodes.length < 2) return unsplit;
  const first = root.nodes[0]!;
  if (first.kind !== "Fetch" || first.requires || first.operationKind !== "query" || first.inputRewrites?.length || first.outputRewrites?.length) return unsplit;
  const part = partOf(first, root.nodes.slice(1));
  if (!part) return unsplit;
  return { planned: root, split: { kind: "Parallel", nodes: [first, { kind: "Sequence", nodes: [part, ...root.nodes.slice(1)] }] }, subgraph: first.serviceName };
}

/** The fields each later fetch needs of the root fetch's answer: response name -> what below it. */
type Needed = Map<string, Needed>;

function partOf(fetch: FetchNode, rest: PlanNode[]): FetchNode | null {
  let document: DocumentNode;
  try {
    document = fetch.operationDocumentNode ?? parse(fetch.operation);
  } catch {
    return null;
  }
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || document.definitions.length !== 1) return null;
  // root lookups by id only: their reads are the loaders' own, shared by the part and the whole
  if (!operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && (s.name.value === "__typename" || idArgument(s) !== null))) return null;
  const needed: Needed = new Map();
  const roots = new Set(operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? (s.alias?.value ?? s.name.value) : "")));
  let dependents = 0;
  for (const flatten of flattensOf(rest)) {
    if (!roots.has(String(flatten.path[0]))) continue;
    const inner = flatten.node;
    if (inner.kind !== "Fetch" || !inner.requires || inner.inputRewrites?.length || inner.contextRewrites?.length) return null;
    let level = needed;
    for (const segment of flatten.path) {
      if (segment === "@") continue;
      if (typeof segment !== "string" || segment.startsWith("|") || segment.startsWith("...")) return null;
      let next = level.get(segment);
      if (!next) level.set(segment, (next = new Map()));
      level = next;
    }
    addRequired(level, inner.requires);
    dependents++;
  }
  if (dependents === 0) return null;
  const selections = prune(operation.selectionSet.selections, needed);
  if (selections === null || selections.length === 0) return null;
  const name = `${operation.name?.value ?? "Query"}${SPLIT_PART}`;
  const cut: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [{ ...operation, name: { kind: Kind.NAME, value: name }, selectionSet: { kind: Kind.SELECTION_SET, selections } }],
  };
  // minified, as the planner writes its fetches
  const text = stripIgnoredCharacters(print(cut));
  if (text.length >= stripIgnoredCharacters(fetch.operation).length) return null;
  const used = new Set<string>();
  visit(cut, { Variable: (v) => void used.add(v.name.value) });
  return {
    kind: "Fetch",
    serviceName: fetch.serviceName,
    variableUsages: (fetch.variableUsages ?? []).filter((v) => used.has(v)),
    operation: text,
    operationName: name,
    operationKind: fetch.operationKind,
    operationDocumentNode: cut,
  };
}

function addRequired(level: Needed, requires: readonly QueryPlanSelectionNode[]): void {
  for (const node of requires) {
    if (node.kind === "InlineFragment") addRequired(level, node.selections);
    else {
      const key = node.alias ?? node.name;
      let next = level.get(key);
      if (!next) level.set(key, (next = new Map()));
      if (node.selections) addRequired(next, node.selections);
    }
  }
}

/** The selections kept for `needed` (with every `__typename`); null when a fragment spread makes it unsure. */
function prune(selections: readonly SelectionNode[], needed: Needed): SelectionNode[] | null {
  const out: SelectionNode[] = [];
  for (const selection of selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) return null;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = prune(selection.selectionSet.selections, needed);
      if (inner === null) return null;
      if (inner.some((s) => !(s.kind === Kind.FIELD && s.name.value === "__typename"))) out.push({ ...selection, selectionSet: { ...selection.selectionSet, selections: inner } });
      continue;
    }
    const key = selection.alias?.value ?? selection.name.value;
    if (selection.name.value === "__typename") {
      out.push(selection);
      continue;
    }
    const below = needed.get(key);
    if (!below) continue;
    if (!selection.selectionSet) {
      out.push(selection);
      continue;
    }
    const inner = prune(selection.selectionSet.selections, below);
    if (inner === null) return null;
    const kept = inner.length > 0 ? inner : [{ kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } } as FieldNode];
    out.push({ ...selection, selectionSet: { ...selection.selectionSet, selections: kept } });
  }
  return out;
}

/** Every Flatten of the plan nodes, at any depth. */
function flattensOf(nodes: readonly PlanNode[]): Array<{ path: ReadonlyArray<string | number>; node: PlanNode }> {
  const out: Array<{ path: ReadonlyArray<string | number>; node: PlanNode }> = [];
  const walk = (node: PlanNode): void => {
    if (node.kind === "Flatten") out.push({ path: node.path, node: node.node });
    else if (node.kind === "Sequence" || node.kind === "Parallel") node.nodes.forEach(walk);
  };
  nodes.forEach(walk);
  return out;
}
