import type { GraphQLResolveInfo } from "graphql";
import { pageSize, prefetchScope, selects, type SubgraphContext } from "../../shared/graphql/index.js";
import { legacyUserRead, timeEntriesRead, timeEntryConnectionRead, workContractsRead, type TimeEntriesArguments } from "./employee.reads.js";

/**
 * legacy-time's `employee(id)`: the legacy fields the operation reads of the employee need nothing
 * but its id, so their reads start together with the employee's own read (the current API's
 * `/employees?id=`) instead of after it, and the whole fetch is one round
 * (docs/performance.md#what-a-company-router-gets):
 * - `timeEntries` and `timeEntryConnection`, with the field's arguments;
 * - `workContracts` and `applicableWorkContract` (one read, the employee's contracts);
 * - `legacyUser` (and its former name `legacyProfile`).
 * Each read is the field's own (employee.reads.ts): the same loader and key, so the field finds it
 * in the loader's memo, read or in flight, and no call is made twice. The visibility check of
 * forward mode is the employee's read itself; a field whose employee the caller cannot see is
 * not resolved at all (the employee is null), and what was read for it is dropped with the request.
 * Nothing here answers the client: a read that fails, or arguments refused, are reported by the
 * field that reads the same loader. The cost of an employee that does not exist is these reads,
 * made for nothing.
 * SUBGRAPH_MECHANISMS_OFF=prefetch-employee turns it off, as people's (docs/performance.md#which-mechanism-fires-when).
 */
export function prefetchEmployee(ctx: SubgraphContext, info: GraphQLResolveInfo, id: string): void {
  if (ctx.mechanismsOff?.has("prefetch-employee")) return;
  const scope = prefetchScope(info);
  if (!scope) return;
  const { fields, args, childInfo, start } = scope;

  for (const node of fields.get("timeEntries") ?? []) {
    start(() => timeEntriesRead(ctx, id, args(node) as TimeEntriesArguments));
  }
  for (const node of fields.get("timeEntryConnection") ?? []) {
    start(() => {
      const a = args(node);
      return timeEntryConnectionRead(ctx, id, a, pageSize(a.first), selects(childInfo(node), "totalCount"));
    });
  }
  if (fields.has("workContracts") || fields.has("applicableWorkContract")) start(() => workContractsRead(ctx, id));
  if (fields.has("legacyUser") || fields.has("legacyProfile")) start(() => legacyUserRead(ctx, id));
}
