import DataLoader from "dataloader";
import { GraphQLError } from "graphql";
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
import { ErrorCode, codedError } from "../../platform/error-codes.js";
import {
  asError,
  chunk,
  groupBy,
  isLegacyId,
  loadEvery,
  keyedLoader,
  legacyAll,
  legacyAllByValues,
  legacyCount,
  legacyData,
  legacyItems,
  legacyListByIdsLoader,
  legacyWindow,
  groupedLoader,
  listByIdsLoader,
  singleReadLoader,
  type QueryParams,
  type UpstreamSession,
} from "../shared/upstream/index.js";
import {
  USER_FIELDS,
  type RestAxisSection,
  type RestCurrentEmployee,
  type RestLegacyDepartment,
  type RestLegacyEstablishment,
  type RestLegacyUser,
  type RestTimeEntry,
  type RestTimesheet,
  type RestWorkContract,
} from "./rest.js";

/**
 * The request's loaders of the legacy-time subgraph, by name. Each lives in the request's
 * registry (`ctx.loaders`) and dies with it; the contract is the one of
 * subgraphs/shared/upstream/loaders.ts (keys in, values or null out, in order; a failed call
 * fails only its own keys).
 *
 * Which upstream call backs which loader:
 * - users, departments, establishments: the legacy list with an `id` filter, one call per 100 ids;
 * - axis sections: the list with an `id` filter for up to 100 ids, the whole (unpaged) list beyond;
 * - work contracts of employees: the list filtered by `ownerId`, one call per 100 owners (pages of
 *   1000); a work contract by id alone is a single read (the list has no `id` filter);
 * - time entries of employees: the list filtered by `ownerId` and `startsAt=between,...`, one call
 *   per 100 owners and date range, paged by 1000;
 * - a time entry by id: a single read;
 * - forward mode: the caller's view of `/employees` (current API, the caller's token), one call
 *   per 100 ids.
 */

export const USERS_PATH = "/api/v3/users";
export const DEPARTMENTS_PATH = "/api/v3/departments";
export const ESTABLISHMENTS_PATH = "/organization/structure/api/establishments";
export const WORK_CONTRACTS_PATH = "/directory/api/4.0/work-contracts";
export const TIME_ENTRIES_PATH = "/api/v3/timeentries";
export const AXIS_SECTIONS_PATH = "/api/v3/axisSections";
export const TIMESHEETS_PATH = "/api/v3/timmitimesheets";

/** the largest page of the work-contract and time-entry lists (docs/interface.md#legacy-paging) */
const LEGACY_PAGE = 1000;
const MAX_IDS = 100;

export const legacyUserLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legacyUser", () =>
    // former employees are left out of the list unless asked for: a reference must find them too
    legacyListByIdsLoader<RestLegacyUser>(ctx.upstream, USERS_PATH, { query: { fields: USER_FIELDS, formerEmployees: "true" } }),
  );

/**
 * One page of the legacy users list (`paging=<start>,<count>`), primed into the user loader. One
 * more than asked is read: whether a next page exists, without a count the list does not give.
 */
export async function legacyUsersPage(
  ctx: SubgraphContext,
  query: QueryParams,
  start: number,
  count: number,
): Promise<{ page: RestLegacyUser[]; hasNextPage: boolean }> {
  const users = legacyItems<RestLegacyUser>(await ctx.upstream.legacy.get<unknown>(USERS_PATH, { ...query, paging: `${start},${count + 1}` }));
  const page = users.slice(0, count);
  const loader = legacyUserLoader(ctx);
  for (const user of page) loader.prime(String(user.id), user);
  return { page, hasNextPage: users.length > count };
}

/** The axis sections of a list call (`id` and `axisId` filters), by id, primed into the section loader. */
export async function axisSectionsList(ctx: SubgraphContext, query: QueryParams): Promise<RestAxisSection[]> {
  const sections = legacyItems<RestAxisSection>(await ctx.upstream.legacy.get<unknown>(AXIS_SECTIONS_PATH, query)).sort((a, b) => a.id - b.id);
  const loader = axisSectionLoader(ctx);
  for (const section of sections) loader.prime(String(section.id), section);
  return sections;
}

export const legacyDepartmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legacyDepartment", () => legacyListByIdsLoader<RestLegacyDepartment>(ctx.upstream, DEPARTMENTS_PATH));

/**
 * The rank of every legacy department in a depth-first walk of the tree, by id: the order of
 * their general `position` (docs/interface.md#legacy-department), read once per request with the
 * list's `fields` and `orderby`.
 */
export const legacyDepartmentTreeRanks = (ctx: SubgraphContext): Promise<Map<number, number>> =>
  ctx.loaders.get("legacyDepartmentTreeRanks", async () => {
    const tree = await legacyAll<{ id: number }>(ctx.upstream.legacy, DEPARTMENTS_PATH, "offset", { fields: "id", orderby: "position,asc" });
    return new Map(tree.map((d, i) => [d.id, i + 1]));
  });

/** Archived establishments are left out of the list unless asked for: a reference must find them too. */
export const legacyEstablishmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legacyEstablishment", () =>
    legacyListByIdsLoader<RestLegacyEstablishment>(ctx.upstream, ESTABLISHMENTS_PATH, { query: { isArchived: "true,false", limit: 100 } }),
  );

/**
 * Axis sections by id. Up to 100 ids are one call with the `id` filter; a batch of more (the
 * sections of a whole team's timesheets) reads the list once without filter, which the legacy API
 * answers in one unpaged call, so the count stays one however many entries there are.
 */
export const axisSectionLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("axisSection", () =>
    keyedLoader<string, RestAxisSection>(async (keys) => {
      const ids = [...new Set(keys.filter(isLegacyId))];
      if (ids.length === 0) return new Map();
      const query = ids.length <= MAX_IDS ? { id: ids } : {};
      const sections = legacyItems<RestAxisSection>(await ctx.upstream.legacy.get<unknown>(AXIS_SECTIONS_PATH, query));
      return new Map(sections.map((s) => [String(s.id), s]));
    }),
  );

export const workContractLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("workContract", () =>
    singleReadLoader<RestWorkContract>(ctx.upstream, (id) => `${WORK_CONTRACTS_PATH}/${id}`, { api: "legacy", unwrap: legacyData }),
  );

export const timeEntryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("timeEntry", () =>
    singleReadLoader<RestTimeEntry>(ctx.upstream, (id) => `${TIME_ENTRIES_PATH}/${id}`, { api: "legacy", unwrap: legacyData }),
  );

/** The work contracts of each employee (by owner id), by start date. */
export const workContractsByOwnerLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("workContractsByOwner", () =>
    groupedByOwner<RestWorkContract>(
      ctx.upstream,
      WORK_CONTRACTS_PATH,
      (owners) => legacyAllByValues<RestWorkContract>(ctx.upstream, WORK_CONTRACTS_PATH, "ownerId", owners, { limit: LEGACY_PAGE }, "page"),
      (a, b) => compare(a.startsOn, b.startsOn) || a.id - b.id,
    ),
  );

/**
 * The archived work contracts of each employee (by owner id): the list filtered by `ownerId` and
 * `isArchived=true`, since a contract does not write whether it is archived
 * (docs/interface.md#legacy-work-contract).
 */
export const archivedWorkContractsByOwnerLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("archivedWorkContractsByOwner", () =>
    groupedByOwner<RestWorkContract>(
      ctx.upstream,
      WORK_CONTRACTS_PATH,
      (owners) => legacyAllByValues<RestWorkContract>(ctx.upstream, WORK_CONTRACTS_PATH, "ownerId", owners, { limit: LEGACY_PAGE, isArchived: "true" }, "page"),
      (a, b) => a.id - b.id,
    ),
  );

/** The REST filters of a time-entry read besides `ownerId` and `paging` (`startsAt`, `modifiedAt`, `layer`). */
export type TimeEntryQuery = Readonly<Record<string, string>>;

export interface TimeEntriesKey {
  ownerId: string;
  /** `timeEntryQuery` of the field's arguments: keys with the same query share their calls */
  query: TimeEntryQuery;
}

/** The query of one group of keys: keys with the same range and filters share their calls. */
function groupOf(key: TimeEntriesKey): string {
  return JSON.stringify(Object.entries(key.query).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The most time entries the list `Employee.timeEntries` reads for the employees of one operation,
 * per 100 of them (one chunk of owners): the largest answer the legacy reference serves. It is
 * the page-size guard that replaced a cap on the range's length; a connection
 * (`timeEntryConnection`, `timeEntries`) reads any range page by page.
 */
export const MAX_LISTED_TIME_ENTRIES = 10_000;

/** A list's read whose first page counts more than `MAX_LISTED_TIME_ENTRIES`: the rest is not read. */
export class TooManyTimeEntries extends Error {
  constructor(readonly count: number) {
    super(`the range holds ${count} time entries for the employees asked together`);
  }
}

/**
 * The time entries of each employee for one query (a range, `modifiedSince`, theoretical or
 * not), by `startsAt`. Keys of one query share one list call per 100 owners, however many
 * employees the operation holds.
 */
export const timeEntriesLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("timeEntries", () => timeEntriesByOwner(ctx.upstream));

function timeEntriesByOwner(session: UpstreamSession): DataLoader<TimeEntriesKey, RestTimeEntry[]> {
  // a failed read fails only the keys of its query: an Error value rejects its key alone
  return keyedLoader<TimeEntriesKey, RestTimeEntry[] | Error>(
    async (keys) => {
      const ranges = new Map<string, { key: TimeEntriesKey; owners: Set<string> }>();
      for (const key of keys) {
        const range = groupOf(key);
        let entry = ranges.get(range);
        if (!entry) ranges.set(range, (entry = { key, owners: new Set() }));
        if (isLegacyId(key.ownerId)) entry.owners.add(key.ownerId);
      }
      const results = new Map<string, Map<string, RestTimeEntry[]> | Error>();
      await Promise.all(
        [...ranges].map(async ([range, { key, owners }]) => {
          try {
            const items = await timeEntriesIn(session, [...owners], key.query);
            results.set(range, groupBy(items, (e) => String(e.ownerId), byStartsAt));
          } catch (err) {
            results.set(range, asError(err));
          }
        }),
      );
      return new Map(
        keys.map((key) => {
          const found = results.get(groupOf(key))!;
          return [key, found instanceof Error ? found : (found.get(key.ownerId) ?? [])] as const;
        }),
      );
    },
    { cacheKeyFn: (key) => `${key.ownerId}|${groupOf(key)}` },
    // every key is answered: never null
  ) as DataLoader<TimeEntriesKey, RestTimeEntry[]>;
}

/**
 * Every entry of the owners for the query (`Employee.timeEntries`): one call per 100 owners when
 * the answer fits a page of 1000; otherwise the first page's `count` tells how many pages remain,
 * read at once, unless the count passes `MAX_LISTED_TIME_ENTRIES` (`TooManyTimeEntries`).
 */
async function timeEntriesIn(session: UpstreamSession, owners: readonly string[], filter: TimeEntryQuery): Promise<RestTimeEntry[]> {
  const chunks = await timeEntryChunks(session, owners, filter, (count) => {
    if (count > MAX_LISTED_TIME_ENTRIES) throw new TooManyTimeEntries(count);
    return true;
  });
  return chunks.flatMap((c) => c.items);
}

/**
 * The entries of the owners for the query, per 100 owners: the list's first page (1000 entries,
 * by startsAt across the owners, then id) and, when it does not hold them all and `readRest`
 * (given the count and the first page) says so, the pages left, read at once rather than one
 * after the other (the session bounds the concurrency). Each chunk says whether it holds all.
 */
async function timeEntryChunks(
  session: UpstreamSession,
  owners: readonly string[],
  filter: TimeEntryQuery,
  readRest: (count: number, firstPage: RestTimeEntry[], owners: string[], pagesLeft: number) => boolean,
): Promise<Array<{ owners: string[]; items: RestTimeEntry[]; complete: boolean }>> {
  return Promise.all(
    chunk(owners, MAX_IDS).map(async (part) => {
      const query = { ownerId: part, ...filter };
      const first = await session.legacy.get<unknown>(TIME_ENTRIES_PATH, { ...query, paging: `0,${LEGACY_PAGE}` });
      const items = legacyItems<RestTimeEntry>(first);
      const count = legacyCount(first);
      // the page the upstream actually served: a smaller cap than asked for still pages correctly
      const step = items.length;
      if (count === undefined || step === 0 || count <= step) return { owners: part, items, complete: true };
      const offsets: number[] = [];
      for (let offset = step; offset < count; offset += step) offsets.push(offset);
      if (!readRest(count, items, part, offsets.length)) return { owners: part, items, complete: false };
      const rest = await Promise.all(
        offsets.map(async (offset) => legacyItems<RestTimeEntry>(await session.legacy.get<unknown>(TIME_ENTRIES_PATH, { ...query, paging: `${offset},${step}` }))),
      );
      return { owners: part, items: [...items, ...rest.flat()], complete: true };
    }),
  );
}

export interface TimesheetKey {
  id: number;
  ownerId: number;
  /** YYYY-MM-DD: a day of the week the timesheet covers (the entry's) */
  day: string;
}

/**
 * Timesheets by id, through the timesheet list filtered by owner and start date (the list has no
 * id filter): one call per 100 owners, over the weeks of the entries asked about.
 */
export const timesheetLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("timesheet", () =>
    keyedLoader<TimesheetKey, RestTimesheet>(
      async (keys) => {
        const owners = [...new Set(keys.map((k) => k.ownerId))];
        const days = keys.map((k) => k.day).sort();
        // a week starts at most six days before the entry's day
        const from = new Date(Date.parse(`${days[0]}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
        const to = days[days.length - 1]!;
        const items = await legacyAllByValues<RestTimesheet>(ctx.upstream, TIMESHEETS_PATH, "ownerId", owners, {
          startsOn: `between,${from},${to}`,
          paging: `0,${LEGACY_PAGE * 10}`,
        });
        const byId = new Map(items.map((t) => [t.id, t]));
        return new Map(keys.flatMap((k) => (byId.has(k.id) ? [[k, byId.get(k.id)!] as const] : [])));
      },
      // owners are sent 100 at a time (legacyAllByValues), so a batch may hold any number of keys
      { cacheKeyFn: (key) => key.id },
    ),
  );

/**
 * Forward mode: the employees the caller can read through the current API with its own token.
 * null for an employee the caller cannot see.
 */
export const visibleEmployeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("visibleEmployee", () => listByIdsLoader<RestCurrentEmployee>(ctx.upstream, "/employees"));

/**
 * A one-to-many loader over owner ids (the shared `groupedLoader` over a legacy list), each
 * owner's items in `order`: keys that cannot be legacy ids get [] without a call.
 */
function groupedByOwner<T extends { ownerId: number }>(
  session: UpstreamSession,
  path: string,
  fetch: (owners: string[]) => Promise<T[]>,
  order: (a: T, b: T) => number,
): DataLoader<string, T[]> {
  const read = async (owners: string[]) => {
    const valid = [...new Set(owners.filter(isLegacyId))];
    return valid.length > 0 ? (await fetch(valid)).sort(order) : [];
  };
  return groupedLoader<T>(session, path, "ownerId", (item) => String(item.ownerId), {}, read);
}

function byStartsAt(a: RestTimeEntry, b: RestTimeEntry): number {
  return compare(a.startsAt, b.startsAt) || a.id - b.id;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Forward mode: whether the current API accepts the caller's token at all (one page of one
 * employee), once per request.
 */
export function callerCheck(ctx: SubgraphContext): Promise<void> {
  return ctx.loaders.get("callerCheck", () => ctx.upstream.current.page("/employees", { limit: 1 }).then(() => undefined));
}

/**
 * Forward mode (docs/graph.md#authentication-and-visibility): the legacy API knows only this
 * subgraph's API key, so it would show anyone's legacy data to any caller. Data about an
 * employee (legacy user, work contracts, time entries) is therefore served only when the
 * caller can read that employee through the current API with its own token; the check is one
 * batched `/employees?id=` call per 100 employees. In service mode every employee is visible.
 */

export function forbidden(employeeId: string): GraphQLError {
  return codedError(ErrorCode.FORBIDDEN, `The caller cannot read employee ${employeeId}, so its legacy data is not served.`);
}

/** Throws FORBIDDEN unless the caller can read the employee (always true in service mode). */
export async function assertVisible(ctx: SubgraphContext, employeeId: string): Promise<void> {
  if (!ctx.upstream.forwarded) return;
  const employee = await visibleEmployeeLoader(ctx).load(employeeId);
  if (!employee) throw forbidden(employeeId);
}

/**
 * Loads legacy data about an employee while checking that the caller may see it; both calls run
 * at once, and the data is dropped unless the check passes.
 */
export async function guarded<T>(ctx: SubgraphContext, employeeId: string, load: () => Promise<T>): Promise<T> {
  const [check, value] = await Promise.allSettled([assertVisible(ctx, employeeId), load()]);
  // the visibility verdict comes first: a caller who may not see the employee learns nothing else
  if (check.status === "rejected") throw check.reason;
  if (value.status === "rejected") throw value.reason;
  return value.value;
}

/** The ids among `employeeIds` that the caller can read (all of them in service mode). */
export async function visibleIds(ctx: SubgraphContext, employeeIds: readonly string[]): Promise<Set<string>> {
  if (!ctx.upstream.forwarded) return new Set(employeeIds);
  const found = await loadEvery(visibleEmployeeLoader(ctx), employeeIds);
  const visible = new Set<string>();
  found.forEach((employee, i) => {
    if (employee) visible.add(employeeIds[i]!);
  });
  return visible;
}

/**
 * Forward mode, for legacy data that belongs to no employee (axis sections, legacy departments
 * and establishments): the caller must still be one the current API accepts, or the facade's API
 * key would serve anonymous callers. One call per request, remembered in its registry.
 */
export async function assertCaller(ctx: SubgraphContext): Promise<void> {
  if (!ctx.upstream.forwarded) return;
  await callerCheck(ctx);
}

/**
 * Forward mode, before any legacy write: the legacy API checks only the facade's key, so the
 * caller's right to write cannot be asked of it. `DIRECTORY_FORWARD_LEGACY_WRITES` decides:
 * `none` (the default) refuses every legacy write at once, without any upstream call; `readers`
 * lets the write go on, and the write then checks, as reads do, that the caller's own token can
 * read the employee it concerns (a caller the current API accepts, for data of no employee).
 * Service mode: every write goes through, as before.
 */
export function assertLegacyWriteAllowed(ctx: SubgraphContext): void {
  if (!ctx.upstream.forwarded) return;
  if (ctx.upstream.forwardLegacyWrites === "readers") return;
  throw new GraphQLError(
    "Legacy writes are turned off in forward mode: the legacy API knows only the facade's own key, so it cannot check the " +
      "caller's right to write. The operator can allow them to every caller who can read the employee concerned with " +
      "DIRECTORY_FORWARD_LEGACY_WRITES=readers.",
    { extensions: { code: ErrorCode.FORBIDDEN } },
  );
}

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

/** The owners the caller may see among the items' owners (all of them in service mode). */
async function visibleOwners(ctx: SubgraphContext, items: ReadonlyArray<{ ownerId: number }>): Promise<(item: { ownerId: number }) => boolean> {
  const visible = await visibleIds(ctx, [...new Set(items.map((item) => String(item.ownerId)))]);
  return (item) => visible.has(String(item.ownerId));
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
