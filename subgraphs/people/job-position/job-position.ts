import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { EmploymentStatus } from "../employment/employment-status.js";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, type ListArgs } from "../../shared/graphql/index.js";

/** The attributes whose change a job position reports against the employee's previous one. */
export enum JobPositionAttribute {
  REMOTE_ID = "remoteId",
  JOB_TITLE = "jobTitle",
  JOB_QUALIFICATION = "jobQualification",
  OCCUPATION_CATEGORY = "occupationCategory",
  WORKING_TIME_ARRANGEMENT = "workingTimeArrangement",
  DEPARTMENT = "department",
}
registerEnumType(JobPositionAttribute, { name: "JobPositionAttribute" });

@ObjectType({
  description: "A working-time arrangement (an opt-in feature replacing work cycles); the interface offers no read of it, only its id.",
})
export class WorkingTimeArrangement {
  @Field(() => ID)
  id!: string;
}

/**
 * A stage of an employee's career within one employment in one business establishment (REST
 * `job-position`): career data (department, manager, job title) lives here, not on employments.
 */
@ObjectType({ description: "A stage of an employee's career within one employment in one business establishment." })
@Directive('@key(fields: "id")')
export class JobPosition {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  remoteId!: string | null;

  @Field(() => EmploymentStatus)
  status!: EmploymentStatus;

  @Field(() => DateScalar, { description: "Effective date, in the time zone of the business establishment." })
  startsOn!: string;

  @Field(() => DateScalar, {
    nullable: true,
    description: "Derived from the start of the next job position or the end of the employment.",
  })
  endsOn!: string | null;

  @Field(() => String, { nullable: true })
  notes!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const JobPositionConnection = connectionType("JobPosition", JobPosition);

export enum JobPositionSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  STARTS_ON_ASC = "startsOn",
  STARTS_ON_DESC = "-startsOn",
  ENDS_ON_ASC = "endsOn",
  ENDS_ON_DESC = "-endsOn",
}
registerEnumType(JobPositionSort, { name: "JobPositionSort" });

@InputType({ description: "Filters of the job-position list; all given filters must match." })
export class JobPositionFilter {
  @Field(() => [ID], { nullable: true })
  ids?: string[] | null;

  @Field(() => [String], { nullable: "itemsAndList", description: "A null entry selects job positions without a remoteId." })
  remoteIds?: Array<string | null> | null;

  @Field(() => [ID], { nullable: true })
  employmentIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: "Employee of the job position's employment." })
  employeeIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  businessEstablishmentIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  jobQualificationIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  occupationCategoryIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  managerIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  departmentIds?: string[] | null;

  @Field(() => [EmploymentStatus], { nullable: true })
  status?: EmploymentStatus[] | null;

  @Field(() => DateScalar, { nullable: true })
  startsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  startsOnBetween?: DateRange | null;

  @Field(() => DateScalar, { nullable: true, description: "An explicit null selects job positions without an end date." })
  endsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  endsOnBetween?: DateRange | null;

  @Field(() => [JobPositionAttribute], { nullable: true, description: "Job positions that changed one of these attributes." })
  updatedAttributes?: JobPositionAttribute[] | null;
}

/** The arguments of the lists of job positions: `jobPositions`. */
export const JobPositionListArgs = listArgs(JobPositionFilter, JobPositionSort);
export type JobPositionListArgs = ListArgs<JobPositionFilter, JobPositionSort>;

/** The REST filters of `/job-positions` (docs/interface.md#job-position) for a filter input. */
export function jobPositionQuery(filter: JobPositionFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
  return new RestFilter(argument)
    .strings("id", "ids", f.ids)
    .strings("remoteId", "remoteIds", f.remoteIds, { nullLiteral: true, maxLength: 1024 })
    .strings("employment.id", "employmentIds", f.employmentIds)
    .strings("employment.employee.id", "employeeIds", f.employeeIds)
    .strings("businessEstablishment.id", "businessEstablishmentIds", f.businessEstablishmentIds)
    .strings("jobQualification.id", "jobQualificationIds", f.jobQualificationIds)
    .strings("occupationCategory.id", "occupationCategoryIds", f.occupationCategoryIds)
    .strings("manager.id", "managerIds", f.managerIds)
    .strings("department.id", "departmentIds", f.departmentIds)
    .enums("status", "status", f.status)
    .date("startsOn", "startsOn", f.startsOn)
    .range("startsOn.between", "startsOnBetween", f.startsOnBetween)
    .date("endsOn", "endsOn", f.endsOn, { nullLiteral: true })
    .range("endsOn.between", "endsOnBetween", f.endsOnBetween)
    .enums("updatedAttributes", "updatedAttributes", f.updatedAttributes).query;
}
