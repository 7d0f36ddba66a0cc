import type { GraphQLResolveInfo } from "graphql";
import type { QueryParams } from "../upstream/types.js";
import { InFlightReads } from "../upstream/loaders.js";
import { arrayConnection, childConnectionLoader, cursorScope, pageSize, restConnection, selects, type ConnectionArgs, type ConnectionResult } from "./connection.js";
import type { SubgraphContext } from "./server.js";
import { primeEmbedded, selectedFieldsIn, type EmbeddedPrime } from "./embedded.js";
import { ownFilterRefusal, type FieldRules } from "../../../platform/field-rules.js";
import type { FieldChecks } from "../../../platform/input-checks.js";
import { listQuery, type ListArgs } from "./list-args.js";

/**
 * The two ways a subgraph serves a REST list as a connection, the same for every subgraph:
 * - `listConnection`: a root list (`employees`, `departments`): one REST page;
 * - `childConnection`: a one-to-many edge (`Employee.employments`, `Taxonomy.labels`), declared
 *   once as a `ChildEdge` in the subgraph's `edges.ts` and batched across the parents of the
 *   request.
 * Both ask `totalCount` of the upstream only when the operation selects it, and both can hand the
 * items they read to an entity loader (`primes`), so that a later reference to one costs nothing.
 */

/** A loader that takes items read elsewhere in the request (`AdaptiveLoader.primeAll`). */
export interface Primes<T> {
  primeAll(items: readonly T[]): unknown;
  /** a list in flight that holds some of the loader's entities (`PrimableLoader.expectAll`) */
  expectAll?(items: Promise<readonly T[]>): unknown;
}

/**
 * A root connection over one REST list page; `query` holds the caller's filters and sort, already
 * checked; `include` the members each item needs beyond its representation (`links`).
 */
export async function listConnection<T>(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  path: string,
  query: QueryParams,
  args: ConnectionArgs,
  primes?: Primes<T>,
  include?: readonly string[],
  /** the resources the items embed that the operation reads (embedded.ts): asked for and primed */
  embeds: readonly EmbeddedPrime[] = [],
): Promise<ConnectionResult<T>> {
  const all = embeds.length > 0 ? [...(include ?? []), "embedded"] : include;
  const connection = await restConnection<T>(ctx.upstream, path, query, { first: args.first, after: args.after }, {
    totalCount: selects(info, "totalCount"),
    ...(all ? { include: all } : {}),
    ...(embeds.length > 0 ? { onPage: (envelope) => primeEmbedded(envelope, embeds, selectedFieldsIn(info)) } : {}),
  });
  primes?.primeAll(connection.nodes);
  return connection;
}

/**
 * A one-to-many edge that is a connection, named by the REST list and filter that back it
 * (`links.employments` of an employee is `/employments?employee.id=`).
 */
export interface ChildEdge<T> {
  /** the REST list, e.g. `/employments` */
  path: string;
  /** the list filter that names the parent, e.g. `employee.id` */
  filter: string;
  /** the field that serves the edge, when it takes the caller's `filter` (and `sort`) */
  field?: EdgeField;
  /** the order when the caller asks none (a REST sort instruction); without it, the list's default */
  sort?: string;
  /** the parent of an item; may load what it needs through the request's loaders */
  parentOf(item: T, ctx: SubgraphContext): string | null | undefined | Promise<string | null | undefined>;
  /** the entity loader the children are primed into, if any */
  primes?(ctx: SubgraphContext): Primes<T>;
  /** the resources the children embed that the operation reads (embedded.ts): asked for and primed */
  embeds?(ctx: SubgraphContext, info: GraphQLResolveInfo): readonly EmbeddedPrime[];
}

/**
 * The field of an edge that takes the caller's `filter` and `sort` (`Employee.employments`), declared
 * with the edge: the subgraph's field checks and the gateway's copy of them
 * (`schema/field-checks.json`) are derived from it (`edgeFieldChecks`).
 */
export interface EdgeField {
  /** its schema coordinate, without GRAPH_PREFIX: `Employee.employments` */
  coordinate: string;
  /** the field of the filter input that names the edge's own filter (`employeeIds`): refused there */
  ownFilter: string;
  /** the REST query of the caller's `filter` (which it validates), the resolver's and the checks' */
  query(filter: any): Record<string, string>;
}

/** An edge whose field takes the caller's `filter` and `sort`. */
export type FilteredEdge<T> = ChildEdge<T> & { field: EdgeField };

/**
 * The REST query of one edge's list for the caller's other filters and sort (`query`, already
 * validated): refuses the filter the edge sets itself, and adds the edge's default order. The
 * subgraph's whole-operation input checks call it too, so that a bad edge argument anywhere in an
 * operation is refused before its first upstream call.
 */
export function edgeQuery<T>(edge: ChildEdge<T>, query: QueryParams): QueryParams {
  if (query[edge.filter] !== undefined) throw ownFilterRefusal(edge.field?.ownFilter ?? edge.filter);
  return edge.sort && query.sort === undefined ? { ...query, sort: edge.sort } : query;
}

/** The REST query of the caller's arguments (`filter`, `sort`) on a filtered edge's field, by the edge's own `query`. */
export function edgeArgsQuery(edge: FilteredEdge<unknown>, args: ListArgs<unknown, string>): QueryParams {
  return listQuery(args, edge.field.query);
}

/**
 * The field rules and checks of a subgraph's filtered edges (`SubgraphModule.fieldRules` and
 * `fieldChecks`), derived from their declarations (the values of its `edges.ts`; anything that is
 * no filtered edge is passed over): the own filter as a rule, which the gateway applies too, and
 * the REST query of the other arguments as the subgraph's check. Both run on the whole operation
 * before it starts, so that a bad filter on `departments { nodes { jobPositions(filter: …) } }` is
 * refused with no upstream call at all, not after the list above it was read; the resolvers run
 * the same query (`childConnection`).
 */
export function edgeFieldChecks(declared: Iterable<unknown>): { fieldRules: FieldRules; fieldChecks: FieldChecks } {
  const fieldRules: FieldRules = {};
  const fieldChecks: FieldChecks = {};
  for (const edge of declared) {
    if (!isFilteredEdge(edge)) continue;
    const { coordinate, ownFilter } = edge.field;
    if (fieldRules[coordinate]) throw new Error(`two edges are declared for ${coordinate}`);
    fieldRules[coordinate] = [{ rule: "ownFilter", field: ownFilter }];
    fieldChecks[coordinate] = (args) => void edgeQuery(edge, edgeArgsQuery(edge, args));
  }
  return { fieldRules, fieldChecks };
}

function isFilteredEdge(value: unknown): value is FilteredEdge<unknown> {
  return typeof value === "object" && value !== null && typeof (value as ChildEdge<unknown>).path === "string" && (value as ChildEdge<unknown>).field !== undefined;
}

/**
 * One parent's connection over an edge: a single parent gets one REST page; the parents of one
 * tick share one list call per 100 parents, grouped back with `parentOf`. `query` holds the
 * caller's other filters and sort, already validated; with the page size, they are checked
 * before any call.
 */
export async function childConnection<T>(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  edge: ChildEdge<T>,
  parentId: string,
  page: ConnectionArgs,
  query: QueryParams = {},
): Promise<ConnectionResult<T>> {
  // checked here so that a bad `first` fails before the batch, not inside it for every parent
  pageSize(page.first);
  const full = edgeQuery(edge, query);
  // children another read of the request already holds (only in the edge's own order, unfiltered,
  // from the first page: a later page's cursor may be one of the REST page's, which only a REST read resumes)
  const children = Object.keys(query).length === 0 && !page.after ? knownChildren(ctx, edge).of(parentId) : undefined;
  if (children !== undefined) {
    const known = await children;
    if (known !== undefined) {
      const binding = { signer: ctx.upstream.cursors, scope: cursorScope(edge.path, { ...full, [edge.filter]: parentId }) };
      return arrayConnection(known, page, binding);
    }
  }
  // the same edge asked with other filters or another sort, or with other embeds, needs a loader of its own
  const embeds = edge.embeds?.(ctx, info) ?? [];
  const embedding = embeds.map((e) => e.restType).join(",");
  const loader = ctx.loaders.get(`children:${edge.path}:${edge.filter}:${JSON.stringify(full)}:${embedding}`, () =>
    childConnectionLoader<T>(ctx.upstream, edge.path, edge.filter, (item) => edge.parentOf(item, ctx), {
      query: full,
      ...(embeds.length > 0 ? { include: ["embedded"], onPage: (envelope) => primeEmbedded(envelope, embeds, selectedFieldsIn(info)) } : {}),
    }),
  );
  const loading = loader.load({ parentId, args: { first: page.first, after: page.after }, totalCount: selects(info, "totalCount") });
  const primes = edge.primes?.(ctx);
  // a reference read in the same tick waits for this page instead of reading on its own
  primes?.expectAll?.(loading.then((c) => c.nodes));
  const connection = await loading;
  primes?.primeAll(connection.nodes);
  return connection;
}

/**
 * The children of some parents over an edge, read by another list of the request (an employee's
 * job positions answer each of the employee's employments' positions), complete and in the edge's
 * own order. `expect` registers the read while in flight: a connection asked meanwhile waits for
 * it instead of reading its own page.
 */
export class KnownChildren<T> {
  private readonly groups = new Map<string, readonly T[]>();
  private readonly expected = new InFlightReads();

  /** The parent's children when known; a Promise while a read that may know them is in flight; undefined when none can. */
  of(parentId: string): Promise<readonly T[] | undefined> | undefined {
    if (this.groups.has(parentId)) return Promise.resolve(this.groups.get(parentId));
    if (!this.expected.any) return undefined;
    return this.expected.settled().then(() => this.groups.get(parentId));
  }

  /** A read in flight that answers the children of the parents it names (each list complete); its failure answers none. */
  expect(groups: Promise<Iterable<readonly [string, readonly T[]]>>): this {
    this.expected.add(
      groups.then((found) => {
        for (const [parentId, children] of found) this.groups.set(parentId, children);
      }),
    );
    return this;
  }
}

/** The request's known children over an edge. */
export function knownChildren<T>(ctx: SubgraphContext, edge: ChildEdge<T>): KnownChildren<T> {
  return ctx.loaders.get(`known-children:${edge.path}:${edge.filter}`, () => new KnownChildren<T>());
}
