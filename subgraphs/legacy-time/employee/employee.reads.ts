import { isLegacyId } from "../../shared/upstream/index.js";
import { readRenamedFilter, type SubgraphContext } from "../../shared/graphql/index.js";
import { checkFieldRules } from "../../../platform/field-rules.js";
import { timeEntryPagesLoader } from "../connections.js";
import { legacyTimeFieldRules } from "../field-rules.js";
import { legacyUserLoader, timeEntriesLoader, workContractsByOwnerLoader } from "../loaders.js";
import type { EmployeeTimeEntryFilter } from "../time-entry/time-entry.js";
import { timeEntryQuery } from "../time-entry/time-entry.resolver.js";

/**
 * The legacy reads of an employee's fields, from its id and the field's arguments alone. The
 * field resolvers (employee.resolver.ts, behind the visibility check) and `employee(id:)`'s
 * prefetch (employee.prefetch.ts) both call these, so that a read the prefetch started is the
 * field's own: the same loader, the same key, answered by the loader's memo.
 */

/** `Employee.timeEntries`' arguments */
export interface TimeEntriesArguments {
  from: string;
  to: string;
  lastUpdatedSince?: string | null;
  modifiedSince?: string | null;
  includeTheoretical?: boolean | null;
}

/** `Employee.timeEntryConnection`'s arguments */
export interface TimeEntryConnectionArguments {
  first?: number | null;
  after?: string | null;
  filter?: EmployeeTimeEntryFilter | null;
}

export const workContractsRead = (ctx: SubgraphContext, employeeId: string) => workContractsByOwnerLoader(ctx).load(employeeId);

/** null without a call for an id that cannot be a legacy user's */
export const legacyUserRead = (ctx: SubgraphContext, employeeId: string) =>
  isLegacyId(employeeId) ? legacyUserLoader(ctx).load(employeeId) : Promise.resolve(null);

/** Throws BAD_USER_INPUT, before any call, for arguments the field refuses. */
export function timeEntriesRead(ctx: SubgraphContext, employeeId: string, args: TimeEntriesArguments) {
  const { from, to, lastUpdatedSince, includeTheoretical } = readRenamedFilter(args, [["modifiedSince", "lastUpdatedSince"]], "");
  checkFieldRules(legacyTimeFieldRules["Employee.timeEntries"], { from, to });
  const query = timeEntryQuery({ startsOn: { from, to }, lastUpdatedSince, includeTheoretical: includeTheoretical ?? false });
  return timeEntriesLoader(ctx).load({ ownerId: employeeId, query });
}

/** Throws BAD_USER_INPUT, before any call, for arguments the field refuses. */
export function timeEntryConnectionRead(ctx: SubgraphContext, employeeId: string, args: TimeEntryConnectionArguments, first: number, totalCount: boolean) {
  const query = timeEntryQuery(args.filter ?? {});
  return timeEntryPagesLoader(ctx, query).load({ parentId: employeeId, first, after: args.after ?? null, totalCount });
}
