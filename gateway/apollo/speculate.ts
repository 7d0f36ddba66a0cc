import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import { ANNOUNCEMENT_OPERATION } from "../../platform/speculation-protocol.js";
import type { QueryPlan } from "@apollo/query-planner";
import { NO_BRAKE, type SpeculationBrake } from "../speculation-brake.js";
import { findAnnouncements, findCandidates, splitOf, type SplitNodes } from "./plan-rewrites.js";

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
 * id makes predictable, and keeps them in the operation's context for `claimSpeculation`; sends
 * the announcements (GATEWAY_PREFETCH) and chooses the split plan (GATEWAY_SPLIT_ROOT_FETCH). When
 * each fires: seams.ts, docs/graph.md#which-mechanism-fires-when; what each finds in a plan:
 * plan-rewrites.ts.
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
  lookups = true,
): void {
  const { queryPlan, serviceMap, requestContext } = options;
  const context = requestContext.context as SpeculationContext | undefined;
  if (!context) return;
  const variables = requestContext.request.variables ?? {};
  announce(queryPlan, serviceMap, requestContext, prefetchTo, brake);
  // lookup speculation's candidates, read before the split rewrites the plan (GATEWAY_LOOKUP_SPECULATION)
  const candidates = lookups ? candidatesOf(queryPlan) : [];
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


const announcementsOf = perPlan(findAnnouncements);

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

const splitNodes = new WeakMap<QueryPlan, SplitNodes>();
