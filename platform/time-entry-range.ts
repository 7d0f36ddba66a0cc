import { badUserInput } from "./user-input.js";

/**
 * The rules of the time-entry fields, checked on the whole operation before it starts, by the
 * legacy-time subgraph and by the gateway (so that the people fetch before it is not spent), and
 * again by the resolvers. The range's length is not bounded: a connection (`timeEntries`,
 * `Employee.timeEntryConnection`) reads any range page by page, and the list
 * `Employee.timeEntries` is bounded by the number of entries it answers instead (its resolver).
 */

/** The range of `Employee.timeEntries`: it does not end before it starts. */
export function checkTimeEntryRange({ from, to }: { from: string; to: string }): void {
  if (from > to) throw badUserInput(`from (${from}) must be on or before to (${to})`, "from");
}

interface TimeEntryFilterArgs {
  ownerIds?: unknown[] | null;
  startsOn?: unknown;
  startsAt?: unknown;
}

/** A time-entry filter: one range at most (both are the REST `startsAt`), and with `owners`, at least one owner. */
export function checkTimeEntryFilter(filter: TimeEntryFilterArgs | null | undefined, options: { owners: boolean }): void {
  if (options.owners && (!Array.isArray(filter?.ownerIds) || filter.ownerIds.length === 0)) {
    throw badUserInput("filter.ownerIds must name at least one employee", "filter.ownerIds");
  }
  if (filter?.startsOn && filter.startsAt) {
    throw badUserInput("filter.startsOn and filter.startsAt cannot be given together: both bound the entries' start", "filter.startsOn");
  }
}

/** The legacy-time subgraph's field checks (`SubgraphModule.fieldChecks`), also applied by the gateway. */
export const legacyTimeFieldChecks = {
  "Employee.timeEntries": (args: Record<string, any>) => checkTimeEntryRange(args as { from: string; to: string }),
  "Employee.timeEntryConnection": (args: Record<string, any>) => checkTimeEntryFilter(args.filter, { owners: false }),
  "Query.timeEntries": (args: Record<string, any>) => checkTimeEntryFilter(args.filter, { owners: true }),
};
