import DataLoader from "dataloader";
import { type FieldNode, type GraphQLResolveInfo, type SelectionNode } from "graphql";
import { Directive, Field, Int, ObjectType, type ClassType } from "type-graphql";
import { groupedLoader, type ParentKeys } from "../upstream/loaders.js";
import { asError, followPages, isListable, nextPageCursor } from "../upstream/util.js";
import type { Envelope, QueryParams, UpstreamSession } from "../upstream/types.js";
import { cursorScope, decodeCursor, encodeCursor, NOT_A_CURSOR, type Cursor, type CursorBinding } from "./cursors.js";
import { badUserInput, MAX_FIRST, DEFAULT_FIRST } from "../../../platform/user-input.js";

export { badUserInput, DEFAULT_FIRST, MAX_FIRST } from "../../../platform/user-input.js";
export { cursorScope, decodeCursor, encodeCursor, MAX_CURSOR_OFFSET, NOT_A_CURSOR, verifiedCursorPayload, type CursorBinding } from "./cursors.js";

/**
 * Relay connections over the REST interface's cursor-paged lists (docs/graph.md#connections).
 *
 * A cursor wraps the REST `page` cursor: an edge's cursor names the REST page it came from and
 * how many items of that page precede the next edge, so `after` resumes exactly behind it; when
 * an edge ends its REST page, its cursor wraps the REST `next` cursor itself. Connections built
 * from a list already in hand (one-to-many edges batched for many parents) use offset cursors.
 *
 * Cursors are signed (HMAC with the upstream's cursor key) and bound to their list: the payload
 * carries a hash of the list's path and REST query (filter and sort), so a cursor that was
 * altered, made up, or issued for another list, filter or sort is BAD_USER_INPUT before any
 * upstream call, and an offset cannot send the subgraph walking a list it never served.
 */

@ObjectType({ description: "Relay page information." })
@Directive("@shareable")
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => Boolean)
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true })
  startCursor!: string | null;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

export interface Edge<N> {
  cursor: string;
  node: N;
}

export interface ConnectionResult<N> {
  edges: Edge<N>[];
  nodes: N[];
  pageInfo: PageInfo;
  totalCount: number | null;
}

/**
 * The `<Name>Connection` and `<Name>Edge` object types of one node type. Call it once per node
 * type: type-graphql registers each class by name, so a second call would define the types twice.
 */
export function connectionType<N extends object>(name: string, nodeType: ClassType<N>) {
  @ObjectType(`${name}Edge`, { description: `An edge to one ${name}.` })
  class EdgeType {
    @Field(() => String)
    cursor!: string;

    @Field(() => nodeType)
    node!: N;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${name} items.` })
  class ConnectionType {
    @Field(() => [EdgeType])
    edges!: Edge<N>[];

    @Field(() => [nodeType])
    nodes!: N[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, {
      nullable: true,
      description: "Number of items across all pages; counted only when selected.",
    })
    totalCount!: number | null;
  }

  return ConnectionType;
}

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

/** `first`, validated: 0..100, default 25. */
export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw badUserInput(`first must be between 0 and ${MAX_FIRST}, got ${first}`, "first");
  }
  return first;
}

/** Whether the operation selects `field` directly under the current field (e.g. `totalCount`). */
export function selects(info: GraphQLResolveInfo, field: string): boolean {
  return info.fieldNodes.some((node) => someField(node.selectionSet?.selections ?? [], info, (f) => f.name.value === field));
}

/**
 * Whether any field of a selection set passes `test`, looking through inline fragments and
 * fragment spreads. `@skip`/`@include` are not evaluated: a skipped field counts as selected.
 */
export function someField(selections: readonly SelectionNode[], info: GraphQLResolveInfo, test: (field: FieldNode) => boolean): boolean {
  return selections.some((sel) => {
    if (sel.kind === "Field") return test(sel);
    if (sel.kind === "InlineFragment") return someField(sel.selectionSet.selections, info, test);
    const fragment = info.fragments[sel.name.value];
    return fragment ? someField(fragment.selectionSet.selections, info, test) : false;
  });
}

/**
 * Whether the operation reads anything of the current field's object besides its key (`id`,
 * `__typename`), through fragments too (a field under `@skip` counts as read, which only costs the
 * read it would have saved).
 */
export function selectsBeyondKey(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => readsBeyondKey(node.selectionSet?.selections ?? [], info));
}

/** The same for a selection set in hand (e.g. the selections of a field below the current one). */
export function readsBeyondKey(selections: readonly SelectionNode[], info: GraphQLResolveInfo): boolean {
  return someField(selections, info, (field) => field.name.value !== "id" && field.name.value !== "__typename");
}

/**
 * A reference field to an entity of this subgraph (`Employment.employee`, `JobPosition.manager`).
 * When the operation reads only the key — the gateway asks `employee { id }` to satisfy
 * `Employment.workContract @requires(fields: "employee { id }")` or to jump to another subgraph —
 * the REST reference already holds it, and the entity is not read. Otherwise the entity comes
 * through its loader: null when the directory does not know it or the caller may not see it.
 * (The id is in the REST payload the caller could read, so answering it reveals nothing more.)
 */
export function referenceTo<T>(
  ref: { id: string } | null | undefined,
  info: GraphQLResolveInfo,
  load: (id: string) => Promise<T | null>,
): Promise<T | null> | { id: string } | null {
  if (!ref) return null;
  return selectsBeyondKey(info) ? load(ref.id) : { id: ref.id };
}

export interface RestConnectionOptions<T, N> {
  /** ask the upstream for `totalCount` (only when the operation selects it) */
  totalCount: boolean;
  /**
   * other `include` members the operation needs on every item (`links`, for an employee's portrait
   * address). Sent with every page and left out of the cursor's binding: they add members to the
   * items, they change neither which items a page holds nor their order.
   */
  include?: readonly string[];
  map?: (item: T) => N;
  /** every page read, as it comes (its `embedded` primes loaders: embedded.ts) */
  onPage?: (envelope: Envelope<T>) => void;
}

/**
 * One page of a REST list as a connection. Without `after`, and after any edge whose page
 * position is known, `first` edges cost one upstream call unless they straddle a REST page of
 * 100; an offset cursor (from a batched child connection) walks the list from its start.
 */
export async function restConnection<T, N = T>(
  session: UpstreamSession,
  path: string,
  query: QueryParams,
  args: ConnectionArgs,
  options: RestConnectionOptions<T, N>,
): Promise<ConnectionResult<N>> {
  const binding: CursorBinding = { signer: session.cursors, scope: cursorScope(path, query) };
  const after = args.after ? decodeCursor(args.after, binding) : null;
  let askTotal = options.totalCount;
  // an offset cursor (from a batched child connection) walks the list from its start
  const start = after === null ? { p: null, s: 0 } : "p" in after ? after : { p: null, s: after.o + 1 };
  return cursorPagedConnection<T, N>(path, args, start, binding, {
    maxLimit: MAX_FIRST,
    map: options.map,
    // the start cursor of an empty page (`first: 0`) is no previous page
    hasPreviousPage: !(after === null || ("p" in after && after.p === null && after.s === 0)),
    position: () => positionCursor(args.after, binding),
    readPage: async (pageCursor, limit) => {
      const include = [...(options.include ?? []), ...(askTotal ? ["totalCount"] : [])];
      const envelope = await session.current.page<T>(path, {
        ...query,
        ...(include.length > 0 ? { include: include.join(",") } : {}),
        ...(pageCursor !== null ? { page: pageCursor } : {}),
        limit,
      });
      options.onPage?.(envelope);
      const totalCount = askTotal ? (envelope.totalCount ?? null) : undefined;
      askTotal = false;
      return { items: envelope.items, next: nextPageCursor(envelope), totalCount };
    },
  });
}

/** One page of a list paged by its own cursors, as `cursorPagedConnection` reads it. */
export interface CursorPage<T> {
  items: readonly T[];
  next: string | null;
  /** the list's count when this page carried it (undefined: not asked) */
  totalCount?: number | null;
}

/**
 * The connection over a list that pages by its own cursors (the current API's lists, the legacy
 * establishment list): an edge's cursor names the list's page it came from (null: the start) and
 * how many of its items precede the next edge, so `after` resumes exactly behind it; the edge
 * that ends a page wraps the list's next cursor itself. `readPage(pageCursor, limit)` asks for the
 * items to skip and the edges still wanted in one call (at least one item, so that `first: 0`
 * still learns whether more follow), at most `maxLimit`; the pages are followed with
 * `followPages`, so `first` edges cost one call unless they straddle the list's pages.
 */
export async function cursorPagedConnection<T, N = T>(
  what: string,
  args: ConnectionArgs,
  /** where the page starts: the list's page (null: its start) and how many of its items to skip */
  start: { p: string | null; s: number },
  binding: CursorBinding,
  options: {
    readPage: (pageCursor: string | null, limit: number) => Promise<CursorPage<T>>;
    maxLimit: number;
    hasPreviousPage: boolean;
    map?: (item: T) => N;
    /** the endCursor of a page without edges that says more follow */
    position?: () => string;
  },
): Promise<ConnectionResult<N>> {
  const first = pageSize(args.first);
  const map = options.map ?? ((item: T) => item as unknown as N);
  let skip = start.s;
  const edges: Edge<N>[] = [];
  let totalCount: number | null = null;
  const pages = followPages<CursorPage<T>>(what, start.p, (pageCursor) =>
    options.readPage(pageCursor, Math.min(options.maxLimit, skip + Math.max(first - edges.length, 1))).then((page) => ({ page, next: page.next })),
  );
  for await (const { page, next, cursor: pageCursor } of pages) {
    if (page.totalCount !== undefined) totalCount ??= page.totalCount;
    const items = page.items;
    let i = skip;
    for (; i < items.length && edges.length < first; i++) {
      const cursor: Cursor = i === items.length - 1 && next !== null ? { p: next, s: 0 } : { p: pageCursor, s: i + 1 };
      edges.push({ cursor: encodeCursor(cursor, binding), node: map(items[i]!) });
    }
    if (next === null || edges.length >= first) {
      return connectionPage(edges, totalCount, i < items.length || next !== null, options.hasPreviousPage, options.position);
    }
    skip = Math.max(0, skip - items.length);
  }
  throw new Error(`GET ${what}: the list ended without a last page`);
}

/** A connection over a list already in hand (offset cursors bound to `binding`). */
export function arrayConnection<N>(items: readonly N[], args: ConnectionArgs, binding: CursorBinding): ConnectionResult<N> {
  const first = pageSize(args.first);
  const start = offsetAfter(args.after, binding);
  const slice = items.slice(start, start + first);
  const connection = offsetConnection(slice, start, binding, { totalCount: items.length, hasNextPage: start + first < items.length });
  if (slice.length === 0 && connection.pageInfo.hasNextPage) connection.pageInfo.endCursor = positionCursor(args.after, binding);
  return connection;
}

/**
 * The cursor of the position a page without edges starts at (`first: 0`): the `after` it was
 * asked with, or the list's start. It is that page's `endCursor` whenever `hasNextPage` is true,
 * so that a client can always continue from a page that says more follow (docs/graph.md#connections).
 */
function positionCursor(after: string | null | undefined, binding: CursorBinding): string {
  return after ? after : encodeCursor(LIST_START, binding);
}

/** Before the first item of a list: read by `restConnection` and `offsetAfter` alike. */
const LIST_START: Cursor = { p: null, s: 0 };

/** Where an offset cursor (`arrayConnection`, lists paged by offset) resumes: 0 without one. */
export function offsetAfter(after: string | null | undefined, binding: CursorBinding): number {
  if (!after) return 0;
  const cursor = decodeCursor(after, binding);
  // the list's start (the endCursor of an empty first page, `positionCursor`)
  if ("p" in cursor && cursor.p === null && cursor.s === 0) return 0;
  if (!("o" in cursor)) throw badUserInput(NOT_A_CURSOR, "after");
  return cursor.o + 1;
}

/**
 * One page of a list paged by offset (the legacy lists: `paging=<start>,<count>`) as a
 * connection: `page` holds the items from `start` on; `keep` leaves items out of the edges (the
 * caller may not see them) while the cursors still count them.
 */
export function offsetConnection<N>(
  page: readonly N[],
  start: number,
  binding: CursorBinding,
  options: { hasNextPage: boolean; totalCount?: number | null; keep?: (node: N) => boolean },
): ConnectionResult<N> {
  const edges = page.flatMap((node, k) => (options.keep && !options.keep(node) ? [] : [{ cursor: encodeCursor({ o: start + k }, binding), node }]));
  const connection = connectionPage(edges, options.totalCount ?? null, options.hasNextPage, start > 0);
  // the page's last item ends it even when it is left out, so that the next page follows it
  if (page.length > 0) connection.pageInfo.endCursor = encodeCursor({ o: start + page.length - 1 }, binding);
  return connection;
}

/**
 * A connection's page, the one place `pageInfo` is built. A page without edges that says more
 * follow (`first: 0`) ends at `position` (`positionCursor`): `endCursor` is never null while
 * `hasNextPage` is true when the caller can name that position.
 */
export function connectionPage<N>(
  edges: Edge<N>[],
  totalCount: number | null,
  hasNextPage: boolean,
  hasPreviousPage: boolean,
  position?: () => string,
): ConnectionResult<N> {
  return {
    edges,
    nodes: edges.map((e) => e.node),
    totalCount,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? (hasNextPage && position ? position() : null),
    },
  };
}

export interface ChildConnectionKey {
  parentId: string;
  args: ConnectionArgs;
  totalCount: boolean;
}

/**
 * A connection per parent over a list filtered by parent ids (`Department.employees`,
 * `Employee.directReports`), batched so that the number of calls does not grow with the number
 * of parents: a lone parent, and a parent asked `after` a cursor, gets one REST page of its own;
 * the other parents of one tick share the whole filtered list through a `groupedLoader` (one call
 * per chunk of 100 parent ids and per 100 children), with offset cursors that `restConnection`
 * resumes.
 */
export function childConnectionLoader<T, N = T>(
  session: UpstreamSession,
  path: string,
  filter: string,
  /** the parents an item belongs to; may load what it needs (through the request's loaders) */
  parentsOf: (item: T) => ParentKeys | Promise<ParentKeys>,
  options: { query?: QueryParams; map?: (item: T) => N; include?: readonly string[]; onPage?: (envelope: Envelope<T>) => void } = {},
): DataLoader<ChildConnectionKey, ConnectionResult<N>, string> {
  const query = options.query ?? {};
  const map = options.map ?? ((item: T) => item as unknown as N);
  return new DataLoader<ChildConnectionKey, ConnectionResult<N>, string>(
    async (keys) => {
      const shared = keys.filter((k) => !k.args.after).length > 1;
      // one per batch; it makes no call for a parent id a filter cannot carry ("" or with a comma)
      const grouped = groupedLoader<T>(session, path, filter, parentsOf, query);
      return Promise.all(
        keys.map(async (k): Promise<ConnectionResult<N> | Error> => {
          try {
            const alone = Boolean(k.args.after) || !shared;
            if (alone && isListable(k.parentId)) {
              return await restConnection<T, N>(session, path, { ...query, [filter]: k.parentId }, k.args, {
                totalCount: k.totalCount,
                map,
                ...(options.include ? { include: options.include } : {}),
                ...(options.onPage ? { onPage: options.onPage } : {}),
              });
            }
            const binding = { signer: session.cursors, scope: cursorScope(path, { ...query, [filter]: k.parentId }) };
            return arrayConnection((await grouped.load(k.parentId)).map(map), k.args, binding);
          } catch (err) {
            return asError(err);
          }
        }),
      );
    },
    { cacheKeyFn: (k) => JSON.stringify([k.parentId, k.args.first ?? null, k.args.after ?? null, k.totalCount]) },
  );
}
