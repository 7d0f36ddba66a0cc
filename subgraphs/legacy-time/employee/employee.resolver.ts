import type { GraphQLResolveInfo } from "graphql";
import { Args, ArgsType, Ctx, Field, FieldResolver, Info, Resolver, Root } from "type-graphql";
import { isLegacyId } from "../../shared/upstream/index.js";
import { DateScalar, LocalDateTimeScalar, PageArgs, badUserInput, formerName, pageSize, readRenamedFilter, renamedFrom, selects, type ConnectionResult, type SubgraphContext } from "../../shared/graphql/index.js";
import { LegacyUser } from "../legacy-user/legacy-user.js";
import { timeEntryPagesLoader } from "../connections.js";
import { MAX_LISTED_TIME_ENTRIES, TooManyTimeEntries, legacyUserLoader, timeEntriesLoader, workContractsByOwnerLoader } from "../loaders.js";
import { loadIfVisible } from "../visibility.js";
import type { RestLegacyUser, RestTimeEntry, RestWorkContract } from "../rest.js";
import { EmployeeTimeEntryFilter, TimeEntry } from "../time-entry/time-entry.js";
import { TimeEntryConnection, timeEntryQuery } from "../time-entry/time-entry.resolver.js";
import { WorkContract } from "../work-contract/work-contract.js";
import { Employee, type EmployeeRef } from "./employee.js";
import { checkFieldRules } from "../../../platform/field-rules.js";
import { legacyTimeFieldRules } from "../field-rules.js";

@ArgsType()
class TimeEntryConnectionArgs extends PageArgs {
  @Field(() => EmployeeTimeEntryFilter, { nullable: true })
  filter?: EmployeeTimeEntryFilter | null;
}

@ArgsType()
class TimeEntriesArgs {
  @Field(() => DateScalar, { description: "The first day, inclusive." })
  from!: string;

  @Field(() => DateScalar, { description: "The last day, inclusive (the whole day)." })
  to!: string;

  @Field(() => LocalDateTimeScalar, {
    nullable: true,
    description: "Only entries created or changed (`lastUpdatedAt`) at or after this local date-time (an incremental sync); null: all.",
  })
  lastUpdatedSince?: string | null;

  // its name before issue 35, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedSince", "it filters on `lastUpdatedAt`; giving both is refused.") })
  modifiedSince?: string | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description: "Also the theoretical working time computed from the work cycle (legacy layer 1); left out by default.",
  })
  includeTheoretical!: boolean;
}

/**
 * What the legacy API knows about an employee. Every field is one batched loader call for all the
 * employees of the operation, and in forward mode is served only when the caller can read the
 * employee through the current API (the visibility checks of loaders.ts).
 */
@Resolver(() => Employee)
export class EmployeeResolver {
  // lists are nullable so that a refusal (FORBIDDEN) or a failed upstream call nulls this field alone, not the employee
  @FieldResolver(() => [WorkContract], { nullable: true, description: "The employee's legacy work contracts, by start date." })
  workContracts(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract[]> {
    return loadIfVisible(ctx, employee.id, () => workContractsByOwnerLoader(ctx).load(employee.id));
  }

  @FieldResolver(() => WorkContract, {
    nullable: true,
    description: "The applicable work contract: the ongoing one today; else the first upcoming one; else the last one.",
  })
  async applicableWorkContract(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    const contracts = await loadIfVisible(ctx, employee.id, () => workContractsByOwnerLoader(ctx).load(employee.id));
    return contracts.find((c) => c.isApplicable) ?? null;
  }

  @FieldResolver(() => [TimeEntry], {
    nullable: true,
    description:
      "The employee's time entries starting from `from` to `to` (whole days, both inclusive), by startsAt. A list, read for the employees " +
      `of the operation together: a range that holds more than ${MAX_LISTED_TIME_ENTRIES} entries for 100 of them is refused (BAD_USER_INPUT); ` +
      "timeEntryConnection reads any range page by page.",
  })
  async timeEntries(
    @Root() employee: EmployeeRef,
    @Args(() => TimeEntriesArgs) args: TimeEntriesArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestTimeEntry[]> {
    const { from, to, lastUpdatedSince, includeTheoretical } = readRenamedFilter(args, [["modifiedSince", "lastUpdatedSince"]], "");
    checkFieldRules(legacyTimeFieldRules["Employee.timeEntries"], { from, to });
    const query = timeEntryQuery({ startsOn: { from, to }, lastUpdatedSince, includeTheoretical });
    try {
      return await loadIfVisible(ctx, employee.id, () => timeEntriesLoader(ctx).load({ ownerId: employee.id, query }));
    } catch (err) {
      if (!(err instanceof TooManyTimeEntries)) throw err;
      throw badUserInput(
        `Employee.timeEntries reads at most ${MAX_LISTED_TIME_ENTRIES} entries for 100 employees of an operation, and from ${from} to ${to} ` +
          `they have ${err.count}: narrow the range or page through Employee.timeEntryConnection`,
        "to",
      );
    }
  }

  @FieldResolver(() => TimeEntryConnection, {
    nullable: true,
    description:
      "The employee's time entries as a connection, by startsAt (then id): any range, page by page. A page of employees shares " +
      "its calls (one per 100 employees and 1000 entries); with `after`, one call per page.",
  })
  async timeEntryConnection(
    @Root() employee: EmployeeRef,
    @Args(() => TimeEntryConnectionArgs) args: TimeEntryConnectionArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionResult<RestTimeEntry>> {
    const first = pageSize(args.first);
    const query = timeEntryQuery(args.filter ?? {});
    return loadIfVisible(ctx, employee.id, () =>
      timeEntryPagesLoader(ctx, query).load({ parentId: employee.id, first, after: args.after ?? null, totalCount: selects(info, "totalCount") }),
    );
  }

  @FieldResolver(() => LegacyUser, { nullable: true, description: "The employee as the legacy API's user; null when it has none." })
  legacyUser(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestLegacyUser | null> {
    if (!isLegacyId(employee.id)) return Promise.resolve(null);
    return loadIfVisible(ctx, employee.id, () => legacyUserLoader(ctx).load(employee.id));
  }

  // the name before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md);
  // its type then, LegacyProfile, is LegacyUser now: a type cannot keep two names
  @FieldResolver(() => LegacyUser, { nullable: true, ...renamedFrom("legacyUser", "as the legacy API's users (`legacyUsers`, `updateLegacyUser`).") })
  legacyProfile(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestLegacyUser | null> {
    return this.legacyUser(employee, ctx);
  }
}
