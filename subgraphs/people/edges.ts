import type { ChildEdge, SubgraphContext } from "../shared/graphql/index.js";
import { applicableEmploymentOf, applicableJobPositionOf, employeeListEmbeds, employmentLoader } from "./loaders.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "./rest.js";

/**
 * The one-to-many edges of the people subgraph that are connections, each named by the REST list
 * and filter that back it (`links.employments` of an employee is `/employments?employee.id=`),
 * served by the shared `childConnection`. This file also holds the fields people contributes to
 * the organisation's types (`Department.employees`, …): their resolvers are in the type's folder
 * (`department/department.resolver.ts`), their REST list here.
 */

export const employmentsOfEmployee: ChildEdge<RestEmployment> = {
  path: "/employments",
  filter: "employee.id",
  filterField: "employeeIds",
  sort: "start.date",
  parentOf: (employment) => employment.employee.id,
  // the applicable employment, read in the same tick, is on the page (one call, not two)
  primes: employmentLoader,
};

/** docs/interface.md#employee: an employee's `links.jobPositions` is the list filtered by `employment.employee.id`. */
export const jobPositionsOfEmployee: ChildEdge<RestJobPosition> = {
  path: "/job-positions",
  filter: "employment.employee.id",
  filterField: "employeeIds",
  sort: "startsOn",
  parentOf: (position) => position.employee.id,
};

export const jobPositionsOfEmployment: ChildEdge<RestJobPosition> = {
  path: "/job-positions",
  filter: "employment.id",
  sort: "startsOn",
  parentOf: (position) => position.employment.id,
};

export const employmentsOfLegalEntity: ChildEdge<RestEmployment> = {
  path: "/employments",
  filter: "legalEntity.id",
  filterField: "legalEntityIds",
  parentOf: (employment) => employment.legalEntity?.id,
};

export const employmentsOfTemplate: ChildEdge<RestEmployment> = {
  path: "/employments",
  filter: "template.id",
  filterField: "templateIds",
  parentOf: (employment) => employment.template?.id,
};

/**
 * Employees grouped by a reference of their applicable job position or employment (the
 * `applicableJobPosition.*` / `applicableEmployment.*` filters of docs/interface.md#employee). An
 * employee names that position or employment only by reference, so grouping a batch of parents
 * back loads them (one call per 100 employees, shared with the rest of the operation).
 */
function employeesByApplicable<R>(
  applicableOf: (ctx: SubgraphContext, employee: RestEmployee) => Promise<R | null>,
  filter: string,
  filterField: string,
  parentOf: (applicable: R) => string | null | undefined,
): ChildEdge<RestEmployee> {
  return {
    path: "/employees",
    filter,
    filterField,
    embeds: employeeListEmbeds,
    parentOf: async (employee, ctx) => {
      const applicable = await applicableOf(ctx, employee);
      return applicable ? parentOf(applicable) : null;
    },
  };
}

const employeesByApplicableJobPosition = (filter: string, filterField: string, parentOf: (position: RestJobPosition) => string | null | undefined) =>
  employeesByApplicable(applicableJobPositionOf, `applicableJobPosition.${filter}`, filterField, parentOf);

export const reportsOfManager = employeesByApplicableJobPosition("manager.id", "managerIds", (p) => p.manager?.id);

export const membersOfDepartment = employeesByApplicableJobPosition("department.id", "departmentIds", (p) => p.department?.id);

export const membersOfEstablishment = employeesByApplicableJobPosition(
  "businessEstablishment.id",
  "businessEstablishmentIds",
  (p) => p.businessEstablishment?.id,
);

/**
 * Job positions grouped by one of their own references (docs/interface.md#job-position: the
 * `department.id`, `businessEstablishment.id`, `jobQualification.id`, `occupationCategory.id` and
 * `manager.id` filters): the reverse of `JobPosition.department` and its kin. A position names the
 * parent itself, so grouping a batch back needs no other read. The list's default order (by id).
 */
function jobPositionsBy(reference: "department" | "businessEstablishment" | "jobQualification" | "occupationCategory" | "manager"): ChildEdge<RestJobPosition> {
  return {
    path: "/job-positions",
    filter: `${reference}.id`,
    filterField: `${reference}Ids`,
    parentOf: (position) => position[reference]?.id,
  };
}

export const jobPositionsOfDepartment = jobPositionsBy("department");
export const jobPositionsOfEstablishment = jobPositionsBy("businessEstablishment");
export const jobPositionsOfQualification = jobPositionsBy("jobQualification");
export const jobPositionsOfOccupationCategory = jobPositionsBy("occupationCategory");
export const jobPositionsOfManager = jobPositionsBy("manager");

const employeesByApplicableEmployment = (filter: string, filterField: string, parentOf: (employment: RestEmployment) => string | null | undefined) =>
  employeesByApplicable(applicableEmploymentOf, `applicableEmployment.${filter}`, filterField, parentOf);

export const employeesOfLegalEntity = employeesByApplicableEmployment("legalEntity.id", "legalEntityIds", (e) => e.legalEntity?.id);

export const employeesOfTemplate = employeesByApplicableEmployment("template.id", "employmentTemplateIds", (e) => e.template?.id);
