import DataLoader from "dataloader";
import { GraphQLError } from "graphql";
import type { SubgraphContext } from "../shared/graphql/index.js";
import { ErrorCode, codedError } from "../../platform/error-codes.js";
import {
  asError,
  isLegacyId,
  loadEvery,
  keyedLoader,
  legacyAllByValues,
  legacyData,
  legacyItems,
  legacyListByIdsLoader,
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
      (owners) => legacyAllByValues<RestWorkContract>(ctx.upstream, WORK_CONTRACTS_PATH, "ownerId", owners, { limit: LEGACY_PAGE }, "page"),
      (a, b) => compare(a.startsOn, b.startsOn) || a.id - b.id,
    ),
  );

export interface TimeEntriesKey {
  ownerId: string;
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** YYYY-MM-DD, inclusive (the whole day) */
  to: string;
  /** only entries modified at or after this offset-free date-time */
  modifiedSince?: string | null;
  /** theoretical entries (layer 1, from the work cycle) too */
  includeTheoretical?: boolean;
}

/** The query of one group of keys: keys with the same range and filters share their calls. */
function groupOf(key: TimeEntriesKey): string {
  return `${key.from}|${key.to}|${key.modifiedSince ?? ""}|${key.includeTheoretical ? 1 : 0}`;
}

/**
 * The time entries of each employee within a date range, by `startsAt`. Keys of one range share
 * one list call per 100 owners, however many employees the operation holds.
 */
export const timeEntriesLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("timeEntries", () => timeEntriesByOwner(ctx.upstream));

function timeEntriesByOwner(session: UpstreamSession): DataLoader<TimeEntriesKey, RestTimeEntry[], string> {
  return new DataLoader<TimeEntriesKey, RestTimeEntry[], string>(
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
            const items = await timeEntriesIn(session, [...owners], key);
            results.set(range, groupBy(items, (e) => String(e.ownerId), byStartsAt));
          } catch (err) {
            results.set(range, asError(err));
          }
        }),
      );
      return keys.map((key) => {
        const found = results.get(groupOf(key))!;
        return found instanceof Error ? found : (found.get(key.ownerId) ?? []);
      });
    },
    { cacheKeyFn: (key) => `${key.ownerId}|${groupOf(key)}` },
  );
}

/**
 * Every entry of the owners in the range: one call per 100 owners when the answer fits a page of
 * 1000; otherwise the first page's `count` tells how many pages remain, and they are read at once
 * (the session bounds the concurrency) rather than one after the other.
 */
async function timeEntriesIn(session: UpstreamSession, owners: readonly string[], key: TimeEntriesKey): Promise<RestTimeEntry[]> {
  if (owners.length === 0) return [];
  const chunks: string[][] = [];
  for (let i = 0; i < owners.length; i += MAX_IDS) chunks.push(owners.slice(i, i + MAX_IDS));
  const parts = await Promise.all(
    chunks.map(async (chunk) => {
      const query = {
        ownerId: chunk,
        startsAt: `between,${key.from},${key.to}`,
        // theoretical working time (layer 1) is left out unless asked for, as the legacy reference advises sync clients
        ...(key.includeTheoretical ? {} : { layer: "notequal,1" }),
        ...(key.modifiedSince ? { modifiedAt: `since,${key.modifiedSince}` } : {}),
      };
      const first = await session.legacy.get<unknown>(TIME_ENTRIES_PATH, { ...query, paging: `0,${LEGACY_PAGE}` });
      const items = legacyItems<RestTimeEntry>(first);
      const count = (first as { data?: { count?: unknown } }).data?.count;
      // the page the upstream actually served: a smaller cap than asked for still pages correctly
      const step = items.length;
      if (typeof count !== "number" || step === 0 || count <= step) return items;
      const offsets: number[] = [];
      for (let offset = step; offset < count; offset += step) offsets.push(offset);
      const rest = await Promise.all(
        offsets.map(async (offset) => legacyItems<RestTimeEntry>(await session.legacy.get<unknown>(TIME_ENTRIES_PATH, { ...query, paging: `${offset},${step}` }))),
      );
      return [...items, ...rest.flat()];
    }),
  );
  return parts.flat();
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
    new DataLoader<TimesheetKey, RestTimesheet | null, number>(
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
        return keys.map((k) => byId.get(k.id) ?? null);
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

/** A one-to-many loader over owner ids: keys that cannot be legacy ids get []. */
function groupedByOwner<T extends { ownerId: number }>(
  fetch: (owners: string[]) => Promise<T[]>,
  order: (a: T, b: T) => number,
): DataLoader<string, T[]> {
  return new DataLoader<string, T[]>(async (owners) => {
    const valid = [...new Set(owners.filter(isLegacyId))];
    let grouped: Map<string, T[]>;
    try {
      grouped = groupBy(valid.length > 0 ? await fetch(valid) : [], (item) => String(item.ownerId), order);
    } catch (err) {
      const error = asError(err);
      return owners.map(() => error);
    }
    return owners.map((owner) => grouped.get(owner) ?? []);
  });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string, order: (a: T, b: T) => number): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  for (const group of groups.values()) group.sort(order);
  return groups;
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
