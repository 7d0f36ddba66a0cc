import DataLoader from "dataloader";
import { type SubgraphContext } from "../shared/graphql/index.js";
import { LEGACY_PAGE, WORK_CONTRACTS_PATH, groupedByOwner } from "../shared/legacy/work-contracts.js";
import { departmentLoader } from "../shared/organisation/departments.js";
import type { Envelope } from "../shared/upstream/types.js";
import {
  asError,
  chunk,
  compareText,
  groupBy,
  groupedLoader,
  isLegacyId,
  isListable,
  keyedLoader,
  listByIdsLoader,
  legacyAllByValues,
  legacyCount,
  legacyData,
  legacyItems,
  legacyListByIdsLoader,
  MAX_FILTER_VALUES,
  nextPageCursor,
  singleReadLoader,
  type QueryParams,
  type UpstreamSession,
} from "../shared/upstream/index.js";
import {
  USER_FIELDS,
  type RestAxisSection,
  type RestLegacyEstablishment,
  type RestLegacyUser,
  type RestNamedItem,
  type RestTimeEntry,
  type RestTimesheet,
  type RestWorkContract,
  type RestCurrentEmployment,
  type RestMemberEmployee,
} from "./rest.js";

export { departmentLoader };

/**
 * The request's loaders of the legacy-time subgraph, by name. Each lives in the request's
 * registry (`ctx.loaders`) and dies with it; the contract is the one of
 * subgraphs/shared/upstream/loaders.ts (keys in, values or null out, in order; a failed call
 * fails only its own keys).
 *
 * Which upstream call backs which loader:
 * - users, establishments: the legacy list with an `id` filter, one call per 100 ids;
 * - departments: the current API's (`/api/v3/departments` stopped answering in September 2026),
 *   through the organisation subgraph's loader (subgraphs/shared/organisation/departments.ts), the
 *   tree from its whole collection once per request, and their members through `/employees`
 *   filtered by `applicableJobPosition.department.id`, one call per 100 departments;
 * - axis sections: the list with an `id` filter for up to 100 ids, the whole (unpaged) list beyond;
 * - work contracts of employees: the list filtered by `ownerId`, one call per 100 owners (pages of
 *   1000); a work contract by id alone is a single read (the list has no `id` filter);
 * - time entries of employees: the list filtered by `ownerId` and `startsAt=between,...`, one call
 *   per 100 owners and date range, paged by 1000;
 * - a time entry by id: a single read;
 * - the work contracts' reference lists (hiring types, termination reasons, temporary-contract
 *   grounds): each read whole, once per request, the first time one of its entries is asked;
 * - forward mode: the caller's view of `/employees` (current API, the caller's token), one call
 *   per 100 ids.
 */

export const USERS_PATH = "/api/v3/users";
export const ESTABLISHMENTS_PATH = "/organization/structure/api/establishments";
export const TIME_ENTRIES_PATH = "/api/v3/timeentries";
export const AXIS_SECTIONS_PATH = "/api/v3/axisSections";
export const TIMESHEETS_PATH = "/api/v3/timmitimesheets";

// the work-contract read people shares (subgraphs/shared/legacy/work-contracts.ts)
export { LEGACY_PAGE, WORK_CONTRACTS_PATH, workContractsByOwnerLoader } from "../shared/legacy/work-contracts.js";

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

/** Where a department sits in the tree: what the legacy API wrote of it and the current API leaves to the client. */
export interface DepartmentPlace {
  /** the path of ids from the root, `/1/4/9/` */
  hierarchy: string;
  /** 1-based rank in a depth-first walk of the whole tree, siblings by `sortOrder` (the order of the legacy `position`) */
  treeRank: number;
}

/**
 * Every department's place in the tree, by id, built from the current API's whole collection
 * (each department's `parent.id` and `sortOrder`, as production's migration guide says to rebuild
 * the tree the legacy `/api/v3/departments/tree` gave): read at most once per request through the
 * shared department loader, so ceil(N / 100) calls however many departments the operation holds,
 * and none more when the loader already read the collection's only page.
 */
export const departmentPlaces = (ctx: SubgraphContext): Promise<Map<string, DepartmentPlace>> =>
  ctx.loaders.get("departmentPlaces", async () => {
    const all = await departmentLoader(ctx).all();
    const ids = new Set(all.map((d) => d.id));
    const children = groupBy(
      all,
      // a parent the collection does not hold makes a root, as the legacy tree did
      (d) => (d.parent?.id && ids.has(d.parent.id) ? d.parent.id : ""),
      (a, b) => a.sortOrder - b.sortOrder || Number(a.id) - Number(b.id) || compareText(a.id, b.id),
    );
    const places = new Map<string, DepartmentPlace>();
    const walk = (parent: string, path: string) => {
      for (const d of children.get(parent) ?? []) {
        if (places.has(d.id)) continue;
        const hierarchy = `${path}${d.id}/`;
        places.set(d.id, { hierarchy, treeRank: places.size + 1 });
        walk(d.id, hierarchy);
      }
    };
    walk("", "/");
    return places;
  });

/** An employee as the department members' read keeps it: whether they are active, for `currentUsers`. */
export interface DepartmentMember {
  id: string;
  status: string;
}

/**
 * The members of departments, by department id: the current API's employees whose applicable job
 * position is in the department, whatever their status (`/employees?applicableJobPosition.department.id=`,
 * one call per 100 departments and page of 100 employees). Each page asks `include=embedded`: an
 * employee names its applicable job position only by id, and the embedded position names the
 * department, so one read serves every department of the batch. In forward mode the caller's token
 * reads it, so the members are the ones it can read.
 */
export const departmentMembersLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("departmentMembers", () =>
    groupedLoader<DepartmentMember & { departmentId: string | null }>(
      ctx.upstream,
      "/employees",
      "applicableJobPosition.department.id",
      (member) => member.departmentId,
      {},
      (departmentIds) => departmentMembers(ctx, departmentIds),
    ),
  );

async function departmentMembers(ctx: SubgraphContext, departmentIds: string[]): Promise<Array<DepartmentMember & { departmentId: string | null }>> {
  const ids = departmentIds.filter(isListable);
  const parts = await Promise.all(
    chunk(ids, MAX_FILTER_VALUES).map(async (group) => {
      const members: Array<DepartmentMember & { departmentId: string | null }> = [];
      let page: string | null = null;
      for (;;) {
        const envelope: Envelope<RestMemberEmployee> = await ctx.upstream.current.page<RestMemberEmployee>("/employees", {
          "applicableJobPosition.department.id": group,
          include: "embedded",
          limit: MAX_FILTER_VALUES,
          sort: "id",
          ...(page === null ? {} : { page }),
        });
        const positions = envelope.embedded?.["job-position"] ?? {};
        for (const e of envelope.items) {
          const positionId = e.applicableJobPosition?.id;
          const embedded = positionId ? (positions[positionId] as { department?: { id?: string } | null } | undefined) : undefined;
          // one department asked: every employee of the answer is in it, embedded or not
          const departmentId = group.length === 1 ? group[0]! : (embedded?.department?.id ?? null);
          members.push({ id: e.id, status: e.status, departmentId });
        }
        page = nextPageCursor(envelope);
        if (page === null) break;
      }
      return members;
    }),
  );
  return parts.flat();
}

/** The work contracts' reference lists by the contract field that names an entry (docs/decisions.md#legacy-api). */
export const WORK_CONTRACT_REFERENCE_LISTS = {
  hiringTypeId: "/directory/api/work-contract-hiring-types",
  terminationReasonId: "/directory/api/work-contract-termination-reasons",
  temporaryContractGroundId: "/directory/api/work-contract-temporary-contract-grounds",
} as const;

/**
 * One entry of a work contract's reference list, by id; null for no id or an id the list lacks.
 * The list is small and has no filter: it is read whole, once per request, however many
 * contracts of the operation name one of its entries.
 */
export async function workContractReference(ctx: SubgraphContext, list: keyof typeof WORK_CONTRACT_REFERENCE_LISTS, id: number | null | undefined): Promise<RestNamedItem | null> {
  if (id === null || id === undefined) return null;
  const entries = await ctx.loaders.get(`workContractReferenceList:${list}`, async () => {
    const items = legacyItems<RestNamedItem>(await ctx.upstream.legacy.get<unknown>(WORK_CONTRACT_REFERENCE_LISTS[list]));
    return new Map(items.map((item) => [item.id, item]));
  });
  return entries.get(id) ?? null;
}

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
      const query = ids.length <= MAX_FILTER_VALUES ? { id: ids } : {};
      const sections = legacyItems<RestAxisSection>(await ctx.upstream.legacy.get<unknown>(AXIS_SECTIONS_PATH, query));
      return new Map(sections.map((s) => [String(s.id), s]));
    }),
  );

export const workContractLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("workContract", () =>
    singleReadLoader<RestWorkContract>(ctx.upstream, (id) => `${WORK_CONTRACTS_PATH}/${id}`, { api: "legacy", unwrap: legacyData }),
  );

/** The current API's employments by id with the caller's credentials, for their owners (one call per 100): a contract's employment has its id. */
export const employmentOwnerLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employmentOwner", () => listByIdsLoader<RestCurrentEmployment>(ctx.upstream, "/employments"));

export const timeEntryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("timeEntry", () =>
    singleReadLoader<RestTimeEntry>(ctx.upstream, (id) => `${TIME_ENTRIES_PATH}/${id}`, { api: "legacy", unwrap: legacyData }),
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
  return JSON.stringify(Object.entries(key.query).sort(([a], [b]) => compareText(a, b)));
}

/**
 * The most time entries the list `Employee.timeEntries` reads for the employees of one operation,
 * per 100 of them (one chunk of owners): the largest answer the legacy API serves (docs/interface.md#legacy-list-conventions). It is
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
export async function timeEntryChunks(
  session: UpstreamSession,
  owners: readonly string[],
  filter: TimeEntryQuery,
  readRest: (count: number, firstPage: RestTimeEntry[], owners: string[], pagesLeft: number) => boolean,
): Promise<Array<{ owners: string[]; items: RestTimeEntry[]; complete: boolean }>> {
  return Promise.all(
    chunk(owners, MAX_FILTER_VALUES).map(async (part) => {
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

export function byStartsAt(a: RestTimeEntry, b: RestTimeEntry): number {
  return compareText(a.startsAt, b.startsAt) || a.id - b.id;
}
