import type { GraphQLDataSource, GraphQLDataSourceProcessOptions } from "@apollo/gateway";
import type { FetchNode, PlanNode, QueryPlan, QueryPlanSelectionNode } from "@apollo/query-planner";
import { Kind, parse, type FieldNode, type OperationDefinitionNode } from "graphql";

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
export function speculate(options: {
  queryPlan: QueryPlan;
  serviceMap: Record<string, GraphQLDataSource>;
  requestContext: { request: { variables?: Record<string, unknown> | undefined }; context: unknown };
}): void {
  const { queryPlan, serviceMap, requestContext } = options;
  const context = requestContext.context as SpeculationContext | undefined;
  if (!context) return;
  const variables = requestContext.request.variables ?? {};
  for (const candidate of candidatesOf(queryPlan)) {
    const id = candidate.id.variable === undefined ? candidate.id.literal : variables[candidate.id.variable];
    const service = serviceMap[candidate.fetch.serviceName];
    if (typeof id !== "string" || !service) continue;
    const fetch = candidate.fetch;
    // the executor's request: the variables it uses, in order, then the representations
    const used: Record<string, unknown> = Object.create(null);
    for (const name of fetch.variableUsages ?? []) {
      if (Object.prototype.hasOwnProperty.call(variables, name) && variables[name] !== undefined) used[name] = variables[name];
    }
    const request = {
      query: fetch.operation,
      variables: { ...used, representations: [{ __typename: candidate.typename, id }] },
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

/** Per plan (the gateway caches plans): the fetches that can be started with the root fetch. */
const candidatesByPlan = new WeakMap<QueryPlan, Candidate[]>();

function candidatesOf(plan: QueryPlan): Candidate[] {
  let found = candidatesByPlan.get(plan);
  if (!found) {
    found = findCandidates(plan);
    candidatesByPlan.set(plan, found);
  }
  return found;
}

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
