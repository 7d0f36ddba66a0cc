import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { EmploymentStatus } from "./employment-status.js";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, type ListArgs } from "../../shared/graphql/index.js";

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
}
registerEnumType(EmploymentSort, { name: "EmploymentSort" });

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
}

/** The arguments of the lists of employments: `employments`, `LegalEntity.employments`, `EmploymentTemplate.employments`. */
export const EmploymentListArgs = listArgs(EmploymentFilter, EmploymentSort);
export type EmploymentListArgs = ListArgs<EmploymentFilter, EmploymentSort>;

/** The REST filters of `/employments` (docs/interface.md#employment) for a filter input. */
export function employmentQuery(filter: EmploymentFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
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
