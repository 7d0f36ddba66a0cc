import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, type ListArgs } from "../../shared/graphql/index.js";

/** The probationary period of an employment (REST `probationary-period`). */
@ObjectType({ description: "The probationary period of an employment." })
@Directive('@key(fields: "id")')
export class ProbationaryPeriod {
  @Field(() => ID)
  id!: string;

  @Field(() => DateScalar, { nullable: true, description: "The employment's start date." })
  startsOn!: string | null;

  @Field(() => DateScalar, { description: "The extended end when the period was extended, else the initial end." })
  endsOn!: string;

  @Field(() => DateScalar)
  initialEndsOn!: string;

  @Field(() => DateScalar, { nullable: true, description: "Set when the period was extended." })
  extendedEndsOn!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const ProbationaryPeriodConnection = connectionType("ProbationaryPeriod", ProbationaryPeriod);

export enum ProbationaryPeriodSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  STARTS_ON_ASC = "startsOn",
  STARTS_ON_DESC = "-startsOn",
  ENDS_ON_ASC = "endsOn",
  ENDS_ON_DESC = "-endsOn",
}
registerEnumType(ProbationaryPeriodSort, { name: "ProbationaryPeriodSort" });

@InputType({ description: "Filters of the probationary-period list; all given filters must match." })
export class ProbationaryPeriodFilter {
  @Field(() => [ID], { nullable: true, description: "Employee of the period's employment." })
  employeeIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  employmentIds?: string[] | null;

  @Field(() => DateRange, { nullable: true })
  startsOnBetween?: DateRange | null;

  @Field(() => DateRange, { nullable: true })
  endsOnBetween?: DateRange | null;

  @Field(() => DateRange, { nullable: true })
  initialEndsOnBetween?: DateRange | null;

  @Field(() => DateRange, { nullable: true })
  extendedEndsOnBetween?: DateRange | null;

  @Field(() => Boolean, { nullable: true, description: "true: extended periods only; false: not extended only; absent: both." })
  isExtended?: boolean | null;
}

/** The arguments of the lists of probationary periods: `probationaryPeriods`. */
export const ProbationaryPeriodListArgs = listArgs(ProbationaryPeriodFilter, ProbationaryPeriodSort);
export type ProbationaryPeriodListArgs = ListArgs<ProbationaryPeriodFilter, ProbationaryPeriodSort>;

/** The REST filters of `/probationary-periods` (docs/interface.md#probationary-period) for a filter input. */
export function probationaryPeriodQuery(filter: ProbationaryPeriodFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
  return new RestFilter(argument)
    .strings("employment.employee.id", "employeeIds", f.employeeIds)
    .strings("employment.id", "employmentIds", f.employmentIds)
    .range("startsOn.between", "startsOnBetween", f.startsOnBetween)
    .range("endsOn.between", "endsOnBetween", f.endsOnBetween)
    .range("initialEndsOn.between", "initialEndsOnBetween", f.initialEndsOnBetween)
    .range("extendedEndsOn.between", "extendedEndsOnBetween", f.extendedEndsOnBetween)
    .boolean("isExtended", f.isExtended).query;
}
