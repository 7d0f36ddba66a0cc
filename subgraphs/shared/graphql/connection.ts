import DataLoader from "dataloader";
import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import { Directive, Field, Int, ObjectType, type ClassType } from "type-graphql";
import type { Envelope, QueryParams, UpstreamSession } from "../upstream/types.js";

/**
 * Relay connections over the REST interface's cursor-paged lists (GRAPH.md).
 *
 * A cursor wraps the REST `page` cursor: an edge's cursor names the REST page it came from, the
 * page size used, and its index in that page, so `after` resumes exactly behind it; when an edge
 * closes its REST page, its cursor is the REST `next` cursor itself and resuming costs one call.
 * Connections built from a list already in hand (one-to-many edges batched for many parents)
 * use offset cursors.
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

/** `@ObjectType() class EmployeeConnection extends Connection("Employee", Employee) {}` is not needed: call this once per node type. */
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
      description: "Number of items across all pages; asked of the upstream only when selected.",
    })
    totalCount!: number | null;
  }

  return ConnectionType;
}

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

export const DEFAULT_FIRST = 25;
export const MAX_FIRST = 100;

export function badUserInput(message: string, field?: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", ...(field ? { field } : {}) } });
}

/** `first`, validated: 0..100, default 25. */
export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw badUserInput(`first must be between 0 and ${MAX_FIRST}, got ${first}`, "first");
  }
  return first;
}

type Cursor =
  /** resume at the start of REST page `n` */
  | { n: string; l: number }
  /** resume after item `i` of REST page `p` (null: the first page) fetched with limit `l` */
  | { p: string | null; i: number; l: number }
  /** resume after offset `o` of a list in hand */
  | { o: number };

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(raw: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof value === "object" && value !== null) {
      if (typeof value.n === "string" && isLimit(value.l)) return { n: value.n, l: value.l as number };
      if ((typeof value.p === "string" || value.p === null) && isIndex(value.i) && isLimit(value.l)) {
        return { p: value.p as string | null, i: value.i as number, l: value.l as number };
      }
      if (isIndex(value.o)) return { o: value.o as number };
    }
  } catch {
    // fall through
  }
  throw badUserInput("after is not a cursor of this connection", "after");
}

const isIndex = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isLimit = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_FIRST;

/** The opaque `page` cursor of an envelope's `links.next`, or null on the last page. */
export function nextPageCursor(envelope: Envelope<unknown>): string | null {
  const href = envelope.links?.next?.href;
  if (!href) return null;
  return new URL(href, "http://upstream.invalid").searchParams.get("page");
}

/** Whether the operation selects `field` directly under the current field (e.g. `totalCount`). */
export function selects(info: GraphQLResolveInfo, field: string): boolean {
  for (const node of info.fieldNodes) {
    if (selectionHas(node.selectionSet?.selections ?? [], field, info)) return true;
  }
  return false;
}

function selectionHas(selections: readonly import("graphql").SelectionNode[], field: string, info: GraphQLResolveInfo): boolean {
  for (const sel of selections) {
    if (sel.kind === "Field" && sel.name.value === field) return true;
    if (sel.kind === "InlineFragment" && selectionHas(sel.selectionSet.selections, field, info)) return true;
    if (sel.kind === "FragmentSpread") {
      const fragment = info.fragments[sel.name.value];
      if (fragment && selectionHas(fragment.selectionSet.selections, field, info)) return true;
    }
  }
  return false;
}

export interface RestConnectionOptions<T, N> {
  /** ask the upstream for `totalCount` (only when the operation selects it) */
  totalCount: boolean;
  map?: (item: T) => N;
}

/** One page of a REST list as a connection: one upstream call in the common case. */
export async function restConnection<T, N = T>(
  session: UpstreamSession,
  path: string,
  query: QueryParams,
  args: ConnectionArgs,
  options: RestConnectionOptions<T, N>,
): Promise<ConnectionResult<N>> {
  const first = pageSize(args.first);
  const map = options.map ?? ((item: T) => item as unknown as N);
  const after = args.after ? decodeCursor(args.after) : null;
  const include = options.totalCount ? { include: "totalCount" } : {};

  if (after && "o" in after) return offsetResume(session, path, query, first, after.o, options, map);

  let pageCursor: string | null = after ? ("n" in after ? after.n : after.p) : null;
  let limit = after ? after.l : Math.max(first, 1);
  let skip = after && "i" in after ? after.i + 1 : 0;
  const edges: Edge<N>[] = [];
  let totalCount: number | null = null;
  let hasNextPage = false;
  let needTotal = options.totalCount;

  for (;;) {
    const envelope = await session.current.page<T>(path, {
      ...query,
      ...(needTotal ? include : {}),
      ...(pageCursor ? { page: pageCursor } : {}),
      limit: first === 0 && !after ? 0 : limit,
    });
    if (needTotal) {
      totalCount = envelope.totalCount ?? null;
      needTotal = false;
    }
    const next = nextPageCursor(envelope);
    const items = envelope.items;
    let i = skip;
    for (; i < items.length && edges.length < first; i++) {
      const closesPage = i === items.length - 1 && next !== null;
      const cursor: Cursor = closesPage ? { n: next!, l: limit } : { p: pageCursor, i, l: limit };
      edges.push({ cursor: encodeCursor(cursor), node: map(items[i]!) });
    }
    if (edges.length >= first || next === null) {
      hasNextPage = i < items.length || next !== null;
      if (first === 0) hasNextPage = (totalCount ?? 0) > 0 || items.length > 0 || next !== null;
      break;
    }
    pageCursor = next;
    skip = 0;
    limit = Math.min(MAX_FIRST, first - edges.length);
  }

  return result(edges, totalCount, hasNextPage, args.after != null);
}

/** Resume a connection whose cursor is an offset (it was first served from a batched list). */
async function offsetResume<T, N>(
  session: UpstreamSession,
  path: string,
  query: QueryParams,
  first: number,
  offset: number,
  options: RestConnectionOptions<T, N>,
  map: (item: T) => N,
): Promise<ConnectionResult<N>> {
  const items: T[] = [];
  let seen = 0;
  let pageCursor: string | null = null;
  let totalCount: number | null = null;
  let hasNextPage = false;
  for (;;) {
    const envelope: Envelope<T> = await session.current.page<T>(path, {
      ...query,
      ...(options.totalCount && totalCount === null ? { include: "totalCount" } : {}),
      ...(pageCursor ? { page: pageCursor } : {}),
      limit: MAX_FIRST,
    });
    if (options.totalCount && totalCount === null) totalCount = envelope.totalCount ?? null;
    const next = nextPageCursor(envelope);
    for (const item of envelope.items) {
      if (seen++ <= offset) continue;
      if (items.length < first) items.push(item);
      else {
        hasNextPage = true;
        break;
      }
    }
    if (hasNextPage || next === null) {
      hasNextPage = hasNextPage || (items.length === first && next !== null);
      break;
    }
    pageCursor = next;
  }
  const edges = items.map((item, k) => ({ cursor: encodeCursor({ o: offset + 1 + k }), node: map(item) }));
  return result(edges, totalCount, hasNextPage, true);
}

/** A connection over a list already in hand (offset cursors). */
export function arrayConnection<N>(items: readonly N[], args: ConnectionArgs): ConnectionResult<N> {
  const first = pageSize(args.first);
  let start = 0;
  if (args.after) {
    const after = decodeCursor(args.after);
    if (!("o" in after)) throw badUserInput("after is not a cursor of this connection", "after");
    start = after.o + 1;
  }
  const slice = items.slice(start, start + first);
  const edges = slice.map((node, k) => ({ cursor: encodeCursor({ o: start + k }), node }));
  return result(edges, items.length, start + first < items.length, start > 0);
}

function result<N>(edges: Edge<N>[], totalCount: number | null, hasNextPage: boolean, hasPreviousPage: boolean): ConnectionResult<N> {
  return {
    edges,
    nodes: edges.map((e) => e.node),
    totalCount,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

type ParentIds = string | readonly string[] | null | undefined;

export interface ChildConnectionKey {
  parentId: string;
  args: ConnectionArgs;
  totalCount: boolean;
}

/**
 * A connection per parent over a list filtered by parent ids (`Department.employees`,
 * `Employee.directReports`), batched so that the number of calls does not grow with the number
 * of parents: a single parent gets one REST page; several parents in one tick share one list
 * call per chunk of 100 parent ids, grouped back by parent.
 */
export function childConnectionLoader<T, N = T>(
  session: UpstreamSession,
  path: string,
  filter: string,
  /** the parents an item belongs to; may load what it needs (through the request's loaders) */
  parentsOf: (item: T) => ParentIds | Promise<ParentIds>,
  options: { query?: QueryParams; map?: (item: T) => N } = {},
): DataLoader<ChildConnectionKey, ConnectionResult<N>, string> {
  const query = options.query ?? {};
  const map = options.map ?? ((item: T) => item as unknown as N);
  return new DataLoader<ChildConnectionKey, ConnectionResult<N>, string>(
    async (keys) => {
      const single = keys.length === 1 || keys.some((k) => k.args.after);
      if (single) {
        return Promise.all(
          keys.map((k) =>
            restConnection<T, N>(session, path, { ...query, [filter]: k.parentId }, k.args, { totalCount: k.totalCount, map }).catch(
              (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
            ),
          ),
        );
      }
      const parentIds = [...new Set(keys.map((k) => k.parentId))];
      let items: T[];
      try {
        items = await session.current.allByValues<T>(path, filter, parentIds, query);
      } catch (err) {
        return keys.map(() => (err instanceof Error ? err : new Error(String(err))));
      }
      let parentLists: ParentIds[];
      try {
        parentLists = await Promise.all(items.map((item) => parentsOf(item)));
      } catch (err) {
        return keys.map(() => (err instanceof Error ? err : new Error(String(err))));
      }
      const byParent = new Map<string, N[]>();
      for (const [index, item] of items.entries()) {
        const parents = parentLists[index];
        for (const parent of parents == null ? [] : typeof parents === "string" ? [parents] : parents) {
          let group = byParent.get(parent);
          if (!group) byParent.set(parent, (group = []));
          group.push(map(item));
        }
      }
      return keys.map((k) => {
        try {
          return arrayConnection(byParent.get(k.parentId) ?? [], k.args);
        } catch (err) {
          return err as Error;
        }
      });
    },
    { cacheKeyFn: (k) => JSON.stringify([k.parentId, k.args.first ?? null, k.args.after ?? null, k.totalCount]) },
  );
}
