import { GraphQLError } from "graphql";
import { type SubgraphContext } from "../shared/graphql/index.js";
import { ErrorCode, codedError } from "../../platform/error-codes.js";
import { loadEvery, listByIdsLoader } from "../shared/upstream/index.js";
import { type RestCurrentEmployee } from "./rest.js";

/**
 * Who may read what in legacy-time (docs/decisions.md#forward-mode-and-the-legacy-api): the legacy API knows only the facade's
 * key, so in forward mode the caller's own token is asked of the current API which employees it
 * can read, and only those employees' legacy data is answered.
 */

/**
 * The current API's employees by id (`/employees?id=`, one call per 100): in forward mode those
 * the caller can read with its own token, null for one it cannot see; in service mode every one
 * that exists. Forward mode's visibility checks read it, and so does `employee(id:)`
 * (employee/employee.resolver.ts), which answers the employee's names from it.
 */
export const visibleEmployeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("visibleEmployee", () => listByIdsLoader<RestCurrentEmployee>(ctx.upstream, "/employees"));

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
export async function loadIfVisible<T>(ctx: SubgraphContext, employeeId: string, load: () => Promise<T>): Promise<T> {
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
  // whether the current API accepts the caller's token at all: one page of one employee
  await ctx.loaders.get("callerAccepted", () => ctx.upstream.current.page("/employees", { limit: 1 }).then(() => undefined));
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

/** The owners the caller may see among the items' owners (all of them in service mode). */
export async function visibleOwners(ctx: SubgraphContext, items: ReadonlyArray<{ ownerId: number }>): Promise<(item: { ownerId: number }) => boolean> {
  const visible = await visibleIds(ctx, [...new Set(items.map((item) => String(item.ownerId)))]);
  return (item) => visible.has(String(item.ownerId));
}
