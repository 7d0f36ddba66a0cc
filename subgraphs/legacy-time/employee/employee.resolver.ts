import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, ArgsType, Ctx, Directive, Field, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { isLegacyId } from "../../shared/upstream/index.js";
import { DateScalar, LocalDateTimeScalar, PageArgs, badUserInput, formerName, pageSize, renamedFrom, selects, type ConnectionResult, type SubgraphContext } from "../../shared/graphql/index.js";
import { LegacyUser } from "../legacy-user/legacy-user.js";
import { MAX_LISTED_TIME_ENTRIES, TooManyTimeEntries } from "../loaders.js";
import { loadIfVisible, visibleEmployeeLoader } from "../visibility.js";
import type { RestCurrentEmployee, RestLegacyUser, RestTimeEntry, RestWorkContract } from "../rest.js";
import { EmployeeTimeEntryFilter, TimeEntry } from "../time-entry/time-entry.js";
import { TimeEntryConnection } from "../time-entry/time-entry.resolver.js";
import { WorkContract } from "../work-contract/work-contract.js";
import { Employee, type EmployeeRef } from "./employee.js";
import { prefetchEmployee } from "./employee.prefetch.js";
import { legacyUserRead, timeEntriesRead, timeEntryConnectionRead, workContractsRead } from "./employee.reads.js";

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
  // people's field, shared (docs/performance.md#what-a-company-router-gets): the same signature, description and answers;
  // it provides the names, read with the employee
  @Directive("@shareable")
  @Directive('@provides(fields: "givenName familyName")')
  @Query(() => Employee, { nullable: true, description: "One employee; null when it does not exist or is not visible." })
  employee(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<RestCurrentEmployee | null> {
    // the id is the current API's, refused as people's is before any call (index.ts idsByField)
    prefetchEmployee(ctx, info, id);
    // the current API's employee, with the caller's token in forward mode: null when it does not exist or the caller cannot see it
    return visibleEmployeeLoader(ctx).load(id);
  }

  // lists are nullable so that a refusal (FORBIDDEN) or a failed upstream call nulls this field alone, not the employee
  @FieldResolver(() => [WorkContract], { nullable: true, description: "The employee's legacy work contracts, by start date." })
  workContracts(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract[]> {
    return loadIfVisible(ctx, employee.id, () => workContractsRead(ctx, employee.id));
  }

  @FieldResolver(() => WorkContract, {
    nullable: true,
    description: "The applicable work contract: the ongoing one today; else the first upcoming one; else the last one.",
  })
  async applicableWorkContract(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    const contracts = await loadIfVisible(ctx, employee.id, () => workContractsRead(ctx, employee.id));
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
    // the arguments' refusals come before any call
    const read = timeEntriesRead(ctx, employee.id, args);
    try {
      return await loadIfVisible(ctx, employee.id, () => read);
    } catch (err) {
      if (!(err instanceof TooManyTimeEntries)) throw err;
      throw badUserInput(
        `Employee.timeEntries reads at most ${MAX_LISTED_TIME_ENTRIES} entries for 100 employees of an operation, and from ${args.from} to ${args.to} ` +
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
    const read = timeEntryConnectionRead(ctx, employee.id, args, pageSize(args.first), selects(info, "totalCount"));
    return loadIfVisible(ctx, employee.id, () => read);
  }

  @FieldResolver(() => LegacyUser, { nullable: true, description: "The employee as the legacy API's user; null when it has none." })
  legacyUser(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestLegacyUser | null> {
    // an id that cannot be a legacy user's has none: null without a call, nor a visibility check
    if (!isLegacyId(employee.id)) return Promise.resolve(null);
    return loadIfVisible(ctx, employee.id, () => legacyUserRead(ctx, employee.id));
  }

  // the name before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md);
  // its type then, LegacyProfile, is LegacyUser now: a type cannot keep two names
  @FieldResolver(() => LegacyUser, { nullable: true, ...renamedFrom("legacyUser", "as the legacy API's users (`legacyUsers`, `updateLegacyUser`).") })
  legacyProfile(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestLegacyUser | null> {
    return this.legacyUser(employee, ctx);
  }
}
