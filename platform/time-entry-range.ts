import { badUserInput } from "./user-input.js";

/** The longest range of `timeEntries`: a quarter, so that one answer stays a few hundred entries per person. */
export const MAX_TIME_ENTRY_DAYS = 93;
const DAY_MS = 86_400_000;

/**
 * The range of `Employee.timeEntries`: checked on the whole operation before it starts, by the
 * legacy-time subgraph and by the gateway (so that the people fetch before it is not spent), and
 * again by the resolver.
 */
export function checkTimeEntryRange({ from, to }: { from: string; to: string }): void {
  if (from > to) throw badUserInput(`from (${from}) must be on or before to (${to})`, "from");
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_TIME_ENTRY_DAYS) throw badUserInput(`from..to spans ${days} days; at most ${MAX_TIME_ENTRY_DAYS} are allowed`, "to");
}

/** The legacy-time subgraph's field checks (`SubgraphModule.fieldChecks`), also applied by the gateway. */
export const legacyTimeFieldChecks = {
  "Employee.timeEntries": (args: Record<string, any>) => checkTimeEntryRange(args as { from: string; to: string }),
};
