import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { EmploymentStatus } from "../employment/employment-status.js";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, type ListArgs } from "../../shared/graphql/index.js";

@ObjectType({ description: "A day of the year without the year." })
export class BirthDay {
  @Field(() => Int)
  day!: number;

  @Field(() => Int)
  month!: number;
}

/**
 * A person of the directory (REST `employee`). The class declares the fields read straight from
 * the REST payload; references and edges are field resolvers (employee.resolver.ts).
 */
@ObjectType({ description: "A person of the directory." })
@Directive('@key(fields: "id")')
export class Employee {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true, description: "Identifier in a third-party system." })
  remoteId!: string | null;

  // shared with legacy-time, which reads them of the same employee (docs/performance.md#what-a-company-router-gets)
  @Directive("@shareable")
  @Field(() => String)
  givenName!: string;

  @Directive("@shareable")
  @Field(() => String)
  familyName!: string;

  @Field(() => String, { nullable: true })
  employeeNumber!: string | null;

  @Field(() => EmploymentStatus, { description: "Calculated from the employee's employments." })
  status!: EmploymentStatus;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true })
  phoneNumber!: string | null;

  @Field(() => BirthDay, { nullable: true })
  birthDay!: BirthDay | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const EmployeeConnection = connectionType("Employee", Employee);

export enum EmployeeSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  FAMILY_NAME_ASC = "familyName",
  FAMILY_NAME_DESC = "-familyName",
  CREATED_AT_ASC = "createdAt",
  CREATED_AT_DESC = "-createdAt",
}
registerEnumType(EmployeeSort, { name: "EmployeeSort" });

/**
 * The term of an employment template, used here to filter on the applicable employment's
 * template. The organisation subgraph defines the same enum for `EmploymentTemplate.term`:
 * name and values must stay identical for the two to compose as one.
 */
export enum EmploymentTerm {
  PERMANENT = "permanent",
  FIXED = "fixed",
}
registerEnumType(EmploymentTerm, { name: "EmploymentTerm", description: "Whether an employment is open-ended or fixed-term." });

@InputType({ description: "Filters of the employee list; all given filters must match." })
export class EmployeeFilter {
  @Field(() => [ID], { nullable: true })
  ids?: string[] | null;

  @Field(() => String, {
    nullable: true,
    description: "Every word (split on space, -, _, comma, dot) must start a given or family name.",
  })
  search?: string | null;

  @Field(() => [String], { nullable: "itemsAndList", description: "Exact emails; a null entry selects employees without an email." })
  emails?: Array<string | null> | null;

  @Field(() => [EmploymentStatus], { nullable: true })
  status?: EmploymentStatus[] | null;

  @Field(() => [ID], { nullable: true, description: "Legal entity of the applicable employment." })
  legalEntityIds?: string[] | null;

  @Field(() => [String], { nullable: true })
  applicableEmploymentRemoteIds?: string[] | null;

  @Field(() => DateScalar, { nullable: true })
  applicableEmploymentStartsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  applicableEmploymentStartsOnBetween?: DateRange | null;

  @Field(() => DateScalar, {
    nullable: true,
    description: "An explicit null selects employees whose applicable employment has no end date.",
  })
  applicableEmploymentEndsOn?: string | null;

  @Field(() => DateRange, { nullable: true })
  applicableEmploymentEndsOnBetween?: DateRange | null;

  @Field(() => [ID], { nullable: true, description: "Template of the applicable employment." })
  employmentTemplateIds?: string[] | null;

  @Field(() => [EmploymentTerm], { nullable: true, description: "Term of the applicable employment's template." })
  employmentTemplateTerms?: EmploymentTerm[] | null;

  @Field(() => [String], {
    nullable: "itemsAndList",
    description: "A null entry selects employees whose applicable job position has no remoteId.",
  })
  applicableJobPositionRemoteIds?: Array<string | null> | null;

  @Field(() => [ID], { nullable: true, description: "Business establishment of the applicable job position." })
  businessEstablishmentIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: "Department of the applicable job position." })
  departmentIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: "Manager of the applicable job position." })
  managerIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  jobQualificationIds?: string[] | null;

  @Field(() => [String], { nullable: true })
  jobQualificationRemoteIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  occupationCategoryIds?: string[] | null;

  @Field(() => [String], { nullable: true })
  occupationCategoryRemoteIds?: string[] | null;
}

/** The arguments of the lists of employees: `employees`, `Employee.directReports`, `Department.employees`, `BusinessEstablishment.employees`. */
export const EmployeeListArgs = listArgs(EmployeeFilter, EmployeeSort);
export type EmployeeListArgs = ListArgs<EmployeeFilter, EmployeeSort>;

/** The REST filters of `/employees` (docs/interface.md#employee) for a filter input. */
export function employeeQuery(filter: EmployeeFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
  return new RestFilter(argument)
    .strings("id", "ids", f.ids)
    .search("search", "search", f.search)
    .strings("email", "emails", f.emails, { nullLiteral: true, minLength: 3, maxLength: 255 })
    .enums("status", "status", f.status)
    .strings("applicableEmployment.legalEntity.id", "legalEntityIds", f.legalEntityIds)
    .strings("applicableEmployment.remoteId", "applicableEmploymentRemoteIds", f.applicableEmploymentRemoteIds, { maxLength: 200 })
    .date("applicableEmployment.startsOn", "applicableEmploymentStartsOn", f.applicableEmploymentStartsOn)
    .range("applicableEmployment.startsOn.between", "applicableEmploymentStartsOnBetween", f.applicableEmploymentStartsOnBetween)
    .date("applicableEmployment.endsOn", "applicableEmploymentEndsOn", f.applicableEmploymentEndsOn, { nullLiteral: true })
    .range("applicableEmployment.endsOn.between", "applicableEmploymentEndsOnBetween", f.applicableEmploymentEndsOnBetween)
    .strings("applicableEmployment.template.id", "employmentTemplateIds", f.employmentTemplateIds)
    .enums("applicableEmployment.template.term", "employmentTemplateTerms", f.employmentTemplateTerms)
    .strings("applicableJobPosition.remoteId", "applicableJobPositionRemoteIds", f.applicableJobPositionRemoteIds, {
      nullLiteral: true,
      maxLength: 1024,
    })
    .strings("applicableJobPosition.businessEstablishment.id", "businessEstablishmentIds", f.businessEstablishmentIds)
    .strings("applicableJobPosition.department.id", "departmentIds", f.departmentIds)
    .strings("applicableJobPosition.manager.id", "managerIds", f.managerIds)
    .strings("applicableJobPosition.jobQualification.id", "jobQualificationIds", f.jobQualificationIds)
    .strings("applicableJobPosition.jobQualification.remoteId", "jobQualificationRemoteIds", f.jobQualificationRemoteIds)
    .strings("applicableJobPosition.occupationCategory.id", "occupationCategoryIds", f.occupationCategoryIds)
    .strings("applicableJobPosition.occupationCategory.remoteId", "occupationCategoryRemoteIds", f.occupationCategoryRemoteIds).query;
}
