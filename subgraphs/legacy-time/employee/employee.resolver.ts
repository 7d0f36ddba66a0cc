import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from "type-graphql";
import { isLegacyId } from "../../shared/upstream/index.js";
import { DateScalar, LocalDateTimeScalar, type SubgraphContext } from "../../shared/graphql/index.js";
import { LegacyUser } from "../legacy-user/legacy-user.js";
import { legacyUserLoader, timeEntriesLoader, workContractsByOwnerLoader, guarded } from "../loaders.js";
import type { RestLegacyUser, RestTimeEntry, RestWorkContract } from "../rest.js";
import { TimeEntry } from "../time-entry/time-entry.js";
import { WorkContract } from "../work-contract/work-contract.js";
import { Employee, type EmployeeRef } from "./employee.js";
import { MAX_TIME_ENTRY_DAYS, checkTimeEntryRange } from "../../../platform/time-entry-range.js";

@ArgsType()
class TimeEntriesArgs {
  @Field(() => DateScalar, { description: "The first day, inclusive." })
  from!: string;

  @Field(() => DateScalar, { description: "The last day, inclusive (the whole day)." })
  to!: string;

  @Field(() => LocalDateTimeScalar, {
    nullable: true,
    description: "Only entries created or changed at or after this local date-time (an incremental sync); null: all.",
  })
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
    return guarded(ctx, employee.id, () => workContractsByOwnerLoader(ctx).load(employee.id));
  }

  @FieldResolver(() => WorkContract, {
    nullable: true,
    description: "The applicable work contract: the ongoing one today; else the first upcoming one; else the last one.",
  })
  async applicableWorkContract(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    const contracts = await guarded(ctx, employee.id, () => workContractsByOwnerLoader(ctx).load(employee.id));
    return contracts.find((c) => c.isApplicable) ?? null;
  }

  @FieldResolver(() => [TimeEntry], {
    nullable: true,
    description: `The employee's time entries starting from \`from\` to \`to\` (whole days, both inclusive), by startsAt; at most ${MAX_TIME_ENTRY_DAYS} days.`,
  })
  timeEntries(
    @Root() employee: EmployeeRef,
    @Args(() => TimeEntriesArgs) { from, to, modifiedSince, includeTheoretical }: TimeEntriesArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestTimeEntry[]> {
    checkTimeEntryRange({ from, to });
    return guarded(ctx, employee.id, () =>
      timeEntriesLoader(ctx).load({ ownerId: employee.id, from, to, modifiedSince: modifiedSince ?? null, includeTheoretical }),
    );
  }

  @FieldResolver(() => LegacyUser, { nullable: true, description: "The employee as the legacy API's user; null when it has none." })
  legacyUser(@Root() employee: EmployeeRef, @Ctx() ctx: SubgraphContext): Promise<RestLegacyUser | null> {
    if (!isLegacyId(employee.id)) return Promise.resolve(null);
    return guarded(ctx, employee.id, () => legacyUserLoader(ctx).load(employee.id));
  }
}
