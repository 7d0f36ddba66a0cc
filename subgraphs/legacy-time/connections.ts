import DataLoader from "dataloader";
import {
  badUserInput,
  connectionPage,
  cursorPagedConnection,
  cursorScope,
  decodeCursor,
  encodeCursor,
  NOT_A_CURSOR,
  pageSize,
  type ConnectionArgs,
  type ConnectionResult,
  type CursorBinding,
  type Edge,
  type SubgraphContext,
} from "../shared/graphql/index.js";
import {
  asError,
  groupBy,
  isLegacyId,
  keyedLoader,
  legacyAllByValues,
  legacyItems,
  legacyWindow,
  type QueryParams,
  type UpstreamSession,
} from "../shared/upstream/index.js";
import { type RestLegacyEstablishment, type RestTimeEntry, type RestWorkContract } from "./rest.js";
import { ESTABLISHMENTS_PATH, LEGACY_PAGE, TIME_ENTRIES_PATH, WORK_CONTRACTS_PATH, byStartsAt, legacyEstablishmentLoader, timeEntriesLoader, timeEntryChunks, type TimeEntryQuery } from "./loaders.js";
import { assertCaller, visibleOwners } from "./visibility.js";

/*
 * Connections over the legacy lists (docs/interface.md#legacy-paging). The work-contract list
 * pages by page number and the time-entry list by offset: a position in either is an offset, so
 * their cursors are connection.ts's page-position cursors `{p: "<offset of the next item>", s: 0}`,
 * signed and bound to the list's path and filters like every cursor of the graph. Unlike the
 * offset cursors of a list in hand, they resume anywhere in the list with one call (two when a
 * window straddles two work-contract pages), so a connection reads any length of list page by
 * page. The establishment list pages by its own cursors, which its connection's cursors wrap.
 */

/** Where a cursor of a legacy offset or page-number list resumes: 0 without one. */
export function legacyStart(after: string | null | undefined, binding: CursorBinding): number {
  if (!after) return 0;
  const cursor = decodeCursor(after, binding);
  // the offset cursors of a batched edge (`BusinessEstablishment.workContracts` of many parents)
  if ("o" in cursor) return cursor.o + 1;
  if (cursor.p !== null && !/^\d{1,15}$/.test(cursor.p)) throw badUserInput(NOT_A_CURSOR, "after");
  return Number(cursor.p ?? 0) + cursor.s;
}

/**
 * A page of a legacy offset or page-number list, `page` holding the items from offset `start`
 * on; `keep` leaves items out of the edges (the caller may not see their owner) while the cursors
 * still count them.
 */
export function legacyConnection<N>(
  page: readonly N[],
  start: number,
  binding: CursorBinding,
  options: { hasNextPage: boolean; totalCount?: number | null; keep?: (node: N) => boolean },
): ConnectionResult<N> {
  const cursor = (next: number) => encodeCursor({ p: String(next), s: 0 }, binding);
  const edges: Edge<N>[] = page.flatMap((node, k) => (options.keep && !options.keep(node) ? [] : [{ cursor: cursor(start + k + 1), node }]));
  const connection = connectionPage(edges, options.totalCount ?? null, options.hasNextPage, start > 0);
  // the page's last item ends it even when it is left out, so that the next page follows it
  connection.pageInfo.endCursor = page.length > 0 ? cursor(start + page.length) : null;
  return connection;
}


/**
 * One page of the work-contract or time-entry list as a connection: one call for `first + 1`
 * items from the cursor's offset (the one more says whether a next page exists), `count` asked of
 * the work-contract list only with `withCount` (the time-entry list always writes it). In
 * forward mode, only the items of employees the caller can read are edges.
 */
export async function legacyListConnection<T extends { ownerId: number }>(
  ctx: SubgraphContext,
  path: typeof WORK_CONTRACTS_PATH | typeof TIME_ENTRIES_PATH,
  query: QueryParams,
  args: ConnectionArgs,
  options: { binding: CursorBinding; withCount: boolean },
): Promise<ConnectionResult<T>> {
  const first = pageSize(args.first);
  const start = legacyStart(args.after, options.binding);
  await assertCaller(ctx);
  const paging = path === WORK_CONTRACTS_PATH ? "page" : "offset";
  const { items, count } = await legacyWindow<T>(ctx.upstream.legacy, path, paging, query, { offset: start, count: first + 1, withCount: options.withCount });
  const page = items.slice(0, first);
  return legacyConnection(page, start, options.binding, {
    hasNextPage: items.length > first,
    totalCount: options.withCount ? (count ?? null) : null,
    keep: await visibleOwners(ctx, page),
  });
}

/** the largest page of the establishment list (docs/interface.md#legacy-paging) */
const ESTABLISHMENT_PAGE = 100;

/**
 * A page of the establishment list as a connection, following the list's own cursors: an edge's
 * cursor names the REST page (the list's `prev`/`next` cursor, null for its start) and how many of
 * its items precede the next edge; the edge that ends a REST page wraps the list's `next` itself.
 * `fields.root` is always asked: without it the list writes no `next`, so its `count` comes free.
 * `first` edges cost one call unless they straddle the list's pages of 100.
 */
export async function legacyEstablishmentsConnection(
  ctx: SubgraphContext,
  query: QueryParams,
  args: ConnectionArgs,
  binding: CursorBinding,
): Promise<ConnectionResult<RestLegacyEstablishment>> {
  const after = args.after ? decodeCursor(args.after, binding) : null;
  if (after !== null && "o" in after) throw badUserInput(NOT_A_CURSOR, "after");
  pageSize(args.first);
  await assertCaller(ctx);
  const loader = legacyEstablishmentLoader(ctx);
  return cursorPagedConnection<RestLegacyEstablishment>(ESTABLISHMENTS_PATH, args, after ?? { p: null, s: 0 }, binding, {
    maxLimit: ESTABLISHMENT_PAGE,
    hasPreviousPage: after !== null,
    readPage: async (pageCursor, limit) => {
      const body = await ctx.upstream.legacy.get<{ next?: unknown; count?: unknown }>(ESTABLISHMENTS_PATH, {
        ...query,
        "fields.root": "next,count",
        limit,
        ...(pageCursor !== null ? { page: pageCursor } : {}),
      });
      const items = legacyItems<RestLegacyEstablishment>(body);
      for (const item of items) loader.prime(String(item.id), item);
      return {
        items,
        next: typeof body.next === "string" && body.next !== "" ? body.next : null,
        totalCount: typeof body.count === "number" ? body.count : null,
      };
    },
  });
}

/** A parent's items in a shared read: all of them, or (`complete: false`) the start of its list. */
export interface SharedItems<T> {
  items: T[];
  complete: boolean;
}

export interface OwnedPageKey {
  /** the parent: an establishment (work contracts) or an employee (time entries) */
  parentId: string;
  first: number;
  after: string | null;
  totalCount: boolean;
}

const pageKey = (k: OwnedPageKey) => JSON.stringify([k.parentId, k.first, k.after, k.totalCount]);

/**
 * A connection per parent over a legacy list filtered by the parent (`BusinessEstablishment.
 * workContracts`, `Employee.timeEntryConnection`), batched as `childConnection` batches the
 * current API's edges: a lone parent, and a parent asked `after` a cursor, gets one page of its
 * own (`legacyListConnection`); the other parents of one tick share `readShared` (one list call
 * per 100 parents, through all its pages), each taking its first `first` items, with cursors that
 * the page of its own resumes. `readShared` may answer only the start of a parent's items
 * (`complete: false`): a parent whose start holds more than its `first` items (and that asks no
 * `totalCount`) is answered from it, the others get a page of their own.
 */
function ownedPagesLoader<T extends { ownerId: number }>(
  ctx: SubgraphContext,
  path: typeof WORK_CONTRACTS_PATH | typeof TIME_ENTRIES_PATH,
  filter: string,
  query: QueryParams,
  readShared: (parentIds: string[], needs: ReadonlyMap<string, number>) => Promise<Map<string, SharedItems<T>>>,
): DataLoader<OwnedPageKey, ConnectionResult<T>> {
  // a key whose page fails fails alone: an Error value rejects its key
  return keyedLoader<OwnedPageKey, ConnectionResult<T> | Error>(
    async (keys) => {
      // what each parent needs of the shared read: its first `first + 1` items, or all of them for a count
      const needs = new Map<string, number>();
      for (const k of keys) {
        if (k.after || !isLegacyId(k.parentId)) continue;
        needs.set(k.parentId, Math.max(needs.get(k.parentId) ?? 0, k.totalCount ? Infinity : k.first + 1));
      }
      const shared = keys.filter((k) => !k.after).length > 1 ? readShared([...needs.keys()], needs) : null;
      const answers = await Promise.all(
        keys.map(async (k): Promise<ConnectionResult<T> | Error> => {
          try {
            const own = { ...query, [filter]: k.parentId };
            const binding = { signer: ctx.upstream.cursors, scope: cursorScope(path, own) };
            if (!isLegacyId(k.parentId)) return legacyConnection<T>([], legacyStart(k.after, binding), binding, { hasNextPage: false, totalCount: k.totalCount ? 0 : null });
            const groups = !k.after && shared ? await shared : null;
            const group = groups?.get(k.parentId) ?? (groups ? { items: [], complete: true } : null);
            // a start that cannot tell the count, or what follows the page, is no answer: a page of its own
            if (group === null || (!group.complete && (k.totalCount || group.items.length <= k.first))) {
              return await legacyListConnection<T>(ctx, path, own, k, { binding, withCount: k.totalCount });
            }
            const items = group.items;
            const page = items.slice(0, k.first);
            return legacyConnection(page, 0, binding, {
              hasNextPage: items.length > k.first,
              totalCount: k.totalCount ? items.length : null,
              keep: await visibleOwners(ctx, page),
            });
          } catch (err) {
            return asError(err);
          }
        }),
      );
      return new Map(keys.map((k, i) => [k, answers[i]!] as const));
    },
    { cacheKeyFn: pageKey },
  ) as DataLoader<OwnedPageKey, ConnectionResult<T>>;
}

/** The work contracts of establishments (`establishmentId`), in the list's order, with the caller's other filters. */
export const workContractsOfEstablishmentLoader = (ctx: SubgraphContext, query: QueryParams) =>
  ctx.loaders.get(`workContractsOfEstablishment:${JSON.stringify(query)}`, () =>
    ownedPagesLoader<RestWorkContract>(ctx, WORK_CONTRACTS_PATH, "establishmentId", query, async (ids) => {
      const items = await legacyAllByValues<RestWorkContract>(ctx.upstream, WORK_CONTRACTS_PATH, "establishmentId", ids, { ...query, limit: LEGACY_PAGE }, "page");
      // the list's own order (a stable sort that keeps it), so that a page of its own resumes these cursors
      const groups = groupBy(items, (c) => String(c.establishmentId), () => 0);
      return new Map([...groups].map(([id, list]) => [id, { items: list, complete: true }]));
    }),
  );

/** After a time-entry write: every list of entries read so far in the request (lists and connection pages) is read again when asked. */
export function forgetTimeEntryLists(ctx: SubgraphContext): void {
  timeEntriesLoader(ctx).clearAll();
  ctx.loaders.forget("timeEntryPages:");
}

/** The time entries of employees (`ownerId`) for one query, by `startsAt`: `Employee.timeEntryConnection`. */
export const timeEntryPagesLoader = (ctx: SubgraphContext, query: TimeEntryQuery) =>
  ctx.loaders.get(`timeEntryPages:${JSON.stringify(query)}`, () =>
    ownedPagesLoader<RestTimeEntry>(ctx, TIME_ENTRIES_PATH, "ownerId", query, (ids, needs) => timeEntryStarts(ctx.upstream, ids, query, needs)),
  );

/**
 * The shared read of time-entry connections, per 100 owners: the list's first page (1000
 * entries, by startsAt across the owners, then id). When it holds them all, every owner's list is
 * complete. Otherwise the page holds the start of each owner's list: if the pages left cost no
 * more calls than a page for each owner whose start is too short (`needs`: `first + 1`, or all
 * for a count), they are read at once and the lists are complete; else the starts are answered as
 * they are, and those owners get a page of their own. So `first: 5` over a year of 100 people
 * costs one call plus one per person with fewer than 6 entries in the page, not one call per 1000
 * entries of the year.
 */
async function timeEntryStarts(
  session: UpstreamSession,
  owners: readonly string[],
  filter: TimeEntryQuery,
  needs: ReadonlyMap<string, number>,
): Promise<Map<string, SharedItems<RestTimeEntry>>> {
  const chunks = await timeEntryChunks(session, owners, filter, (_count, firstPage, part, pagesLeft) => {
    const starts = groupBy(firstPage, (e) => String(e.ownerId), byStartsAt);
    const short = part.filter((owner) => (starts.get(owner)?.length ?? 0) < (needs.get(owner) ?? 0)).length;
    return pagesLeft <= short;
  });
  const out = new Map<string, SharedItems<RestTimeEntry>>();
  for (const { owners: part, items, complete } of chunks) {
    const groups = groupBy(items, (e) => String(e.ownerId), byStartsAt);
    for (const owner of part) out.set(owner, { items: groups.get(owner) ?? [], complete });
  }
  return out;
}
