import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { EmploymentStatus } from "./employment-status.js";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, readRenamedFilter, renamedFrom, type ListArgs } from "../../shared/graphql/index.js";

/**
 * A continuous relationship between an employee and a legal entity (REST `employment`): a work
 * contract, an internship or a contractor agreement.
 */
@ObjectType({ description: "A continuous relationship between an employee and a legal entity." })
@Directive('@key(fields: "id")')
export class Employment {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  remoteId!: string | null;

  @Field(() => EmploymentStatus)
  status!: EmploymentStatus;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const EmploymentConnection = connectionType("Employment", Employment);

export enum EmploymentSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  STARTS_ON_ASC = "start.date",
  STARTS_ON_DESC = "-start.date",
  ENDS_ON_ASC = "end.date",
  ENDS_ON_DESC = "-end.date",
  // the names before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md)
  START_DATE_ASC = "start.date",
  START_DATE_DESC = "-start.date",
  END_DATE_ASC = "end.date",
  END_DATE_DESC = "-end.date",
}
const SORT_RENAMED = "as the field it sorts by (`Employment.startsOn`, `.endsOn`).";
registerEnumType(EmploymentSort, {
  name: "EmploymentSort",
  valuesConfig: {
    START_DATE_ASC: renamedFrom("STARTS_ON_ASC", SORT_RENAMED),
    START_DATE_DESC: renamedFrom("STARTS_ON_DESC", SORT_RENAMED),
    END_DATE_ASC: renamedFrom("ENDS_ON_ASC", SORT_RENAMED),
    END_DATE_DESC: renamedFrom("ENDS_ON_DESC", SORT_RENAMED),
  },
});

const FILTER_RENAMED = "as the field it filters (`Employment.startsOn`, `.endsOn`); giving both is refused.";

@InputType({ description: "Filters of the employment list; all given filters must match." })
export class EmploymentFilter {
  @Field(() => [ID], { nullable: true })
  ids?: string[] | null;

  @Field(() => [String], { nullable: true })
  remoteIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  employeeIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  templateIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  legalEntityIds?: string[] | null;

  @Field(() => [EmploymentStatus], { nullable: true })
  status?: EmploymentStatus[] | null;

  @Field(() => DateScalar, { nullable: true })
  startsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  startsOnBetween?: DateRange | null;

  @Field(() => DateScalar, { nullable: true, description: "An explicit null selects employments without an end date." })
  endsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  endsOnBetween?: DateRange | null;

  // the names before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => DateScalar, { nullable: true, ...renamedFrom("startsOn", FILTER_RENAMED) })
  startDate?: string | null;

  @Field(() => DateRange, { nullable: true, ...renamedFrom("startsOnBetween", FILTER_RENAMED) })
  startDateBetween?: DateRange | null;

  @Field(() => DateScalar, { nullable: true, ...renamedFrom("endsOn", FILTER_RENAMED) })
  endDate?: string | null;

  @Field(() => DateRange, { nullable: true, ...renamedFrom("endsOnBetween", FILTER_RENAMED) })
  endDateBetween?: DateRange | null;
}

/** The arguments of the lists of employments: `employments`, `LegalEntity.employments`, `EmploymentTemplate.employments`. */
export const EmploymentListArgs = listArgs(EmploymentFilter, EmploymentSort);
export type EmploymentListArgs = ListArgs<EmploymentFilter, EmploymentSort>;

const RENAMED_FILTERS = [
  ["startDate", "startsOn"],
  ["startDateBetween", "startsOnBetween"],
  ["endDate", "endsOn"],
  ["endDateBetween", "endsOnBetween"],
] as const;

/** The REST filters of `/employments` (docs/interface.md#employment) for a filter input. */
export function employmentQuery(filter: EmploymentFilter | null | undefined, argument = "filter"): Record<string, string> {
  // the filters under their names before 0.1.0 (`startDate`, ...) read as the new ones; an explicit
  // null counts as given (`endDate: null` selects the open-ended employments, as `endsOn: null` does)
  const f = readRenamedFilter(filter ?? {}, RENAMED_FILTERS, argument);
  return new RestFilter(argument)
    .strings("id", "ids", f.ids)
    .strings("remoteId", "remoteIds", f.remoteIds, { maxLength: 200 })
    .strings("employee.id", "employeeIds", f.employeeIds)
    .strings("template.id", "templateIds", f.templateIds)
    .strings("legalEntity.id", "legalEntityIds", f.legalEntityIds)
    .enums("status", "status", f.status)
    .date("start.date", "startsOn", f.startsOn)
    .range("start.date.between", "startsOnBetween", f.startsOnBetween)
    .date("end.date", "endsOn", f.endsOn, { nullLiteral: true })
    .range("end.date.between", "endsOnBetween", f.endsOnBetween).query;
}

