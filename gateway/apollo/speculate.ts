import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { ANNOUNCEMENT_OPERATION } from "../../platform/headers.js";
import { processMetrics } from "../../platform/metrics.js";
import { processLoad, type LoadMeter } from "../../platform/load.js";
import { spanEvent } from "../../platform/request-scope.js";
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

/**
 * Entity fetches started with the root fetch instead of after it (docs/graph.md#query-plans).
 *
 * A query plan asks the subgraph of a root field first, then the other subgraphs for the fields
 * they add to its entity: `department(id: $d) { name employees { … } }` asks organisation for the
 * department, then people for `_entities(representations: [{__typename: "Department", id}])`. When
 * the root field is a lookup by id (`department(id:)`, `employee(id:)`: one `id` argument,
 * answering the entity of that id or null) and the next fetch needs nothing of the entity but its
 * key, that representation is known from the argument before the root fetch answers. The next
 * fetch is then sent at once, with the request the executor will make; when the executor makes
 * it, it is answered by the fetch already under way (same subgraph, same query, same variables),
 * and when the root field answers null or another id, the speculative answer is dropped (its cost
 * is that fetch, for an operation that asked for an entity that does not exist).
 */

/** The speculative fetches of one operation, by subgraph and request. */
export type Speculations = Map<string, Promise<unknown>>;

export interface SpeculationContext {
  speculations?: Speculations;
}

export function speculationKey(serviceName: string, request: { query?: string; variables?: Record<string, unknown> }): string {
  return `${serviceName}\n${request.query ?? ""}\n${JSON.stringify(request.variables ?? {})}`;
}

/**
 * `experimental_didResolveQueryPlan` of ApolloGateway: starts the entity fetches a root lookup by
 * id makes predictable, and keeps them in the operation's context for `claimSpeculation`.
 */
export function speculate(
  options: {
    queryPlan: QueryPlan;
    serviceMap: Record<string, GraphQLDataSource>;
    requestContext: { request: { variables?: Record<string, unknown> | undefined }; context: unknown };
  },
  prefetchTo: ReadonlySet<string> = new Set(),
  splitRoot = false,
  brake: SpeculationBrake = NO_BRAKE,
): void {
  const { queryPlan, serviceMap, requestContext } = options;
  const context = requestContext.context as SpeculationContext | undefined;
  if (!context) return;
  const variables = requestContext.request.variables ?? {};
  announce(queryPlan, serviceMap, requestContext, prefetchTo, brake);
  const candidates = candidatesOf(queryPlan);
  // after the candidates and the announcements, which read the plan as planned
  if (splitRoot) split(queryPlan, brake);
  for (const candidate of candidates) {
    const id = candidate.id.variable === undefined ? candidate.id.literal : variables[candidate.id.variable];
    const service = serviceMap[candidate.fetch.serviceName];
    if (typeof id !== "string" || !service) continue;
    const fetch = candidate.fetch;
    // held, the executor sends it after the root fetch, batched with the stage's other fetches to
    // that subgraph: OrgChart's department members and department manager go as one request
    if (brake.holds(fetch.serviceName, "lookup")) continue;
    // the executor's request: the variables it uses, in order, then the representations
    const request = {
      query: fetch.operation,
      variables: { ...usedVariables(fetch.variableUsages ?? [], variables), representations: [{ __typename: candidate.typename, id }] },
      operationName: fetch.operationName,
    };
    const answer = service.process({
      kind: "incoming operation" as never,
      request,
      incomingRequestContext: requestContext as never,
      context: context as never,
      ...(fetch.operationDocumentNode ? { document: fetch.operationDocumentNode } : {}),
      pathInIncomingRequest: [],
    } as GraphQLDataSourceProcessOptions);
    // an answer nobody claims (the root field was null) fails nobody
    answer.catch(() => undefined);
    (context.speculations ??= new Map()).set(speculationKey(fetch.serviceName, request), answer);
  }
}

interface Candidate {
  /** the root lookup's `id` argument: a variable's name, or a literal */
  id: { variable?: string; literal?: string };
  typename: string;
  fetch: FetchNode;
}

/** A function of a plan computed once per plan (the gateway caches plans). */
function perPlan<T>(find: (plan: QueryPlan) => T): (plan: QueryPlan) => T {
  const found = new WeakMap<QueryPlan, T>();
  return (plan) => {
    if (!found.has(plan)) found.set(plan, find(plan));
    return found.get(plan) as T;
  };
}

/** The fetches that can be started with the root fetch. */
const candidatesOf = perPlan(findCandidates);

function findCandidates(plan: QueryPlan): Candidate[] {
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

/** The operation's variables of `names` that it gives, in that order. */
function usedVariables(names: readonly string[], variables: Record<string, unknown>): Record<string, unknown> {
  const used: Record<string, unknown> = Object.create(null);
  for (const name of names) {
    if (Object.prototype.hasOwnProperty.call(variables, name) && variables[name] !== undefined) used[name] = variables[name];
  }
  return used;
}

/** The speculative answer to this request of the operation, if one was started (once). */
export function claimSpeculation(serviceName: string, options: GraphQLDataSourceProcessOptions): Promise<unknown> | undefined {
  const context = options.context as SpeculationContext | undefined;
  const speculations = context?.speculations;
  if (!speculations || speculations.size === 0) return undefined;
  const key = speculationKey(serviceName, options.request);
  const answer = speculations.get(key);
  if (answer) speculations.delete(key);
  return answer;
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

// ---- announcements: the later entity fetches, told to their subgraph as the operation starts ----

/**
 * A subgraph asked late in a plan (after another subgraph answered) can start, as the operation
 * starts, the reads its answer will need that need no id: whole reference lists such as the
 * departments or the establishments (docs/graph.md#query-plans). The gateway announces them: for
 * each subgraph of `prefetchTo` with entity fetches after the first fetch of the plan, one request
 * at once with those fetches' selections and no representation (`_entities(representations: [])`,
 * which answers []). The subgraph starts the reads its prefetch finds in the selection, in the
 * loaders of this operation (`x-operation-id`, operation-scope.ts), which its later fetches then
 * find read or in flight. The answer is dropped; the cost, for an operation whose earlier fetches
 * name nothing of those lists (an empty page), is the reads started for nothing.
 */
function announce(
  plan: QueryPlan,
  serviceMap: Record<string, GraphQLDataSource>,
  requestContext: { request: { variables?: Record<string, unknown> | undefined }; context: unknown },
  prefetchTo: ReadonlySet<string>,
  brake: SpeculationBrake,
): void {
  if (prefetchTo.size === 0) return;
  const variables = requestContext.request.variables ?? {};
  for (const announcement of announcementsOf(plan)) {
    const service = serviceMap[announcement.serviceName];
    if (!service || !prefetchTo.has(announcement.serviceName)) continue;
    if (brake.holds(announcement.serviceName, "announcement")) continue;
    const answer = service.process({
      kind: "incoming operation" as never,
      request: { query: announcement.query, variables: { ...usedVariables(announcement.variables, variables), representations: [] }, operationName: ANNOUNCEMENT_OPERATION },
      incomingRequestContext: requestContext as never,
      context: requestContext.context as never,
      document: announcement.document,
      pathInIncomingRequest: [],
    } as GraphQLDataSourceProcessOptions);
    answer.catch(() => undefined);
  }
}


interface Announcement {
  serviceName: string;
  query: string;
  document: DocumentNode;
  /** the operation's variables its selections use */
  variables: string[];
}

const announcementsOf = perPlan(findAnnouncements);

/** Per subgraph, the selections of its entity fetches that wait for another fetch, as one `_entities` query. */
function findAnnouncements(plan: QueryPlan): Announcement[] {
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

// ---- split: the part of the root fetch later fetches need, asked on its own ----

/**
 * A root fetch's later fetches wait for its whole answer, although they need only some of it: in
 * `employee(id) { manager { … } applicableEmployment { workContract } }` legacy-time needs the
 * applicable employment's representation, which the people subgraph has after one upstream round,
 * while the manager takes a second. When the root fields are lookups by id, the plan
 * `Sequence[root, rest…]` becomes `Parallel[root, Sequence[part, rest…]]`: `part` is the root
 * fetch cut down to the fields the later fetches need (their paths and their representations'
 * fields), sent beside it to the same subgraph with the same operation id, so that its reads are
 * the root fetch's own (operation-scope.ts: one read each); the later fetches start when `part`
 * answers, and the root fetch's answer is merged over it. `part`'s errors are dropped: the root
 * fetch makes the same reads and reports them. Only for queries, and only where every later fetch's
 * path runs through the root fetch's fields without fragments or rewrites; otherwise the plan runs
 * as planned.
 *
 * The split plan is made once per plan (the gateway caches plans). Each operation then runs it, or,
 * while the brake holds the root's subgraph, the plan as planned: the plan's node is set for it
 * here, in `experimental_didResolveQueryPlan`, and @apollo/gateway reads it when it starts
 * executing, right after that hook returns, with no await between them, so that operations of
 * one plan running at once each run their own (a plan printed after execution, outside production
 * for `Apollo-Query-Plan-Experimental`, shows the latest operation's).
 */
export function split(plan: QueryPlan, brake: SpeculationBrake): void {
  let nodes = splitNodes.get(plan);
  if (!nodes) splitNodes.set(plan, (nodes = splitOf(plan)));
  if (nodes.split) (plan as { node?: QueryPlan["node"] }).node = brake.holds(nodes.subgraph, "split") ? nodes.planned : nodes.split;
}

/** A plan's node as planned and split (null: it cannot be), and the subgraph of its root fetch. */
interface SplitNodes {
  planned: QueryPlan["node"];
  split: PlanNode | null;
  subgraph: string;
}

const splitNodes = new WeakMap<QueryPlan, SplitNodes>();

function splitOf(plan: QueryPlan): SplitNodes {
  const root = plan.node;
  const unsplit: SplitNodes = { planned: root, split: null, subgraph: "" };
  if (root?.kind !== "Sequence" || root.nodes.length < 2) return unsplit;
  const first = root.nodes[0]!;
  if (first.kind !== "Fetch" || first.requires || first.operationKind !== "query" || first.inputRewrites?.length || first.outputRewrites?.length) return unsplit;
  const part = partOf(first, root.nodes.slice(1));
  if (!part) return unsplit;
  return { planned: root, split: { kind: "Parallel", nodes: [first, { kind: "Sequence", nodes: [part, ...root.nodes.slice(1)] }] }, subgraph: first.serviceName };
}

/** The operation-name suffix of a split part: its errors are the root fetch's to report. */
export const SPLIT_PART = "__part";

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

// ---- the brake: nothing asked ahead of a saturated subgraph, or by a saturated gateway ----

/** How long a subgraph's last load stands for it: a subgraph asked nothing for that long is not saturated by us. */
export const LOAD_STALE_MS = 5_000;
/** A held subgraph (or gateway) asks ahead again once its load is this many points below the limit (no flapping at the limit). */
export const LOAD_HYSTERESIS = 10;

/** What is asked ahead: a root lookup's next fetch (`speculate`), an announcement, a split part. */
export type SpeculationKind = "lookup" | "announcement" | "split";

/** Whose load holds a request back: the subgraph's it would go to, or the gateway's own. */
export type HeldBy = "subgraph" | "gateway";

/**
 * Whether to ask a subgraph ahead (a root lookup's next fetch, announcements, split parts) now.
 * What is asked ahead saves an upstream round per operation when the directory takes tens of
 * milliseconds to answer, and costs a request of its own (a lookup's next fetch, sent early, is
 * not batched with the later fetches to its subgraph): a few milliseconds of the subgraph's CPU,
 * and about a seventh of an operation's CPU in the gateway, which sends it and reads its answer
 * (README "Benchmark"). A
 * process that is saturated has no CPU to spare: each request asked ahead then delays the others,
 * and the operations complete fewer a second, while the round it saves is lost in the queue.
 *
 * - Each subgraph says its load on its answers (LOAD_HEADER, platform/load.ts). While the last one
 *   said is at least GATEWAY_SPECULATION_MAX_LOAD, the gateway asks it nothing ahead, until it
 *   says a load LOAD_HYSTERESIS points lower or says nothing for LOAD_STALE_MS. A subgraph that
 *   says no load (another team's) is held only by the gateway's own load.
 * - The gateway's own load (the same meter, read when it would ask ahead) holds what it would ask
 *   of every subgraph, by the same limit and hysteresis.
 */
export class SpeculationBrake {
  private readonly loads = new Map<string, { held: boolean; at: number; load: number }>();
  private readonly own = { held: false, load: 0 };

  /**
   * maxLoad: percent (50–100, config.ts), null for never holding; ownLoad: the gateway process's
   * meter
   */
  constructor(
    private readonly maxLoad: number | null,
    private readonly ownLoad: LoadMeter = processLoad,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A subgraph's answer said `header` (LOAD_HEADER: a whole number 0–100; anything else is ignored). */
  report(subgraph: string, header: string | null): void {
    if (this.maxLoad === null || header === null || !/^\d{1,3}$/.test(header)) return;
    const load = Number(header);
    if (load > 100) return;
    const now = this.now();
    const held = this.holding(subgraph, now) ? load > this.maxLoad - LOAD_HYSTERESIS : load >= this.maxLoad;
    this.loads.set(subgraph, { held, at: now, load });
    processMetrics().subgraphLoad.set({ subgraph }, load);
  }

  /** Whether to hold back what `kind` would ask `subgraph` ahead; counted when it does. */
  holds(subgraph: string, kind: SpeculationKind): boolean {
    if (this.maxLoad === null) return false;
    const state = this.holding(subgraph, this.now());
    const by: HeldBy | undefined = state ? "subgraph" : this.gatewayHeld(this.maxLoad) ? "gateway" : undefined;
    if (!by) return false;
    processMetrics().speculationHeld.inc({ subgraph, kind, by });
    // on the span of the fetch it leaves alone (a split part) or of the plan (an announcement)
    spanEvent("speculation.held", {
      "directory_graph.subgraph": subgraph,
      "directory_graph.speculation.kind": kind,
      "directory_graph.speculation.held_by": by,
      ...(state ? { "directory_graph.subgraph.load": state.load } : { "directory_graph.gateway.load": this.own.load }),
    });
    return true;
  }

  /** The subgraph's last word while it is held: it said a load to hold at, less than LOAD_STALE_MS ago. */
  private holding(subgraph: string, now: number): { load: number } | undefined {
    const state = this.loads.get(subgraph);
    return state?.held && now - state.at < LOAD_STALE_MS ? state : undefined;
  }

  /** Whether the gateway's own load holds, read now (the meter's window closes on the read). */
  private gatewayHeld(maxLoad: number): boolean {
    const load = this.ownLoad();
    this.own.held = this.own.held ? load > maxLoad - LOAD_HYSTERESIS : load >= maxLoad;
    this.own.load = load;
    return this.own.held;
  }
}

const NO_BRAKE = new SpeculationBrake(null);
