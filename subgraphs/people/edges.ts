import type { ChildEdge, EdgeField, FilteredEdge, SubgraphContext } from "../shared/graphql/index.js";
import { employeeQuery } from "./employee/employee.js";
import { employmentQuery } from "./employment/employment.js";
import { jobPositionQuery } from "./job-position/job-position.js";
import { EMPLOYEE_JOB_POSITIONS_ORDER, applicableEmploymentOf, applicableJobPositionOf, employeeListEmbeds, employmentLoader } from "./loaders.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "./rest.js";

/**
 * The one-to-many edges of the people subgraph that are connections, each named by the REST list
 * and filter that back it (`links.employments` of an employee is `/employments?employee.id=`),
 * served by the shared `childConnection`. This file also holds the fields people contributes to
 * the organisation's types (`Department.employees`, …): their resolvers are in the type's folder
 * (`department/department.resolver.ts`), their REST list here.
 *
 * An edge whose field takes the caller's filter and sort names that field (`field`): the
 * subgraph's field checks and the gateway's table of them are derived from it (index.ts).
 */

export const employmentsOfEmployee: FilteredEdge<RestEmployment> = {
  path: "/employments",
  filter: "employee.id",
  field: { coordinate: "Employee.employments", ownFilter: "employeeIds", query: employmentQuery },
  sort: "start.date",
  parentOf: (employment) => employment.employee.id,
  // the applicable employment, read in the same tick, is on the page (one call, not two)
  primes: employmentLoader,
};

/** docs/interface.md#employee: an employee's `links.jobPositions` is the list filtered by `employment.employee.id`. */
export const jobPositionsOfEmployee: FilteredEdge<RestJobPosition> = {
  path: "/job-positions",
  filter: "employment.employee.id",
  field: { coordinate: "Employee.jobPositions", ownFilter: "employeeIds", query: jobPositionQuery },
  sort: EMPLOYEE_JOB_POSITIONS_ORDER,
  parentOf: (position) => position.employee.id,
};

export const jobPositionsOfEmployment: ChildEdge<RestJobPosition> = {
  path: "/job-positions",
  filter: "employment.id",
  sort: "startsOn",
  parentOf: (position) => position.employment.id,
};

export const employmentsOfLegalEntity: FilteredEdge<RestEmployment> = {
  path: "/employments",
  filter: "legalEntity.id",
  field: { coordinate: "LegalEntity.employments", ownFilter: "legalEntityIds", query: employmentQuery },
  parentOf: (employment) => employment.legalEntity?.id,
};

export const employmentsOfTemplate: FilteredEdge<RestEmployment> = {
  path: "/employments",
  filter: "template.id",
  field: { coordinate: "EmploymentTemplate.employments", ownFilter: "templateIds", query: employmentQuery },
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
  field: Omit<EdgeField, "query">,
  parentOf: (applicable: R) => string | null | undefined,
): FilteredEdge<RestEmployee> {
  return {
    path: "/employees",
    filter,
    field: { ...field, query: employeeQuery },
    embeds: employeeListEmbeds,
    parentOf: async (employee, ctx) => {
      const applicable = await applicableOf(ctx, employee);
      return applicable ? parentOf(applicable) : null;
    },
  };
}

const employeesByApplicableJobPosition = (filter: string, field: Omit<EdgeField, "query">, parentOf: (position: RestJobPosition) => string | null | undefined) =>
  employeesByApplicable(applicableJobPositionOf, `applicableJobPosition.${filter}`, field, parentOf);

export const reportsOfManager = employeesByApplicableJobPosition("manager.id", { coordinate: "Employee.directReports", ownFilter: "managerIds" }, (p) => p.manager?.id);

export const membersOfDepartment = employeesByApplicableJobPosition(
  "department.id",
  { coordinate: "Department.employees", ownFilter: "departmentIds" },
  (p) => p.department?.id,
);

export const membersOfEstablishment = employeesByApplicableJobPosition(
  "businessEstablishment.id",
  { coordinate: "BusinessEstablishment.employees", ownFilter: "businessEstablishmentIds" },
  (p) => p.businessEstablishment?.id,
);

/**
 * Job positions grouped by one of their own references (docs/interface.md#job-position: the
 * `department.id`, `businessEstablishment.id`, `jobQualification.id`, `occupationCategory.id` and
 * `manager.id` filters): the reverse of `JobPosition.department` and its kin. A position names the
 * parent itself, so grouping a batch back needs no other read. The list's default order (by id).
 */
function jobPositionsBy(
  reference: "department" | "businessEstablishment" | "jobQualification" | "occupationCategory" | "manager",
  coordinate: string,
): FilteredEdge<RestJobPosition> {
  return {
    path: "/job-positions",
    filter: `${reference}.id`,
    field: { coordinate, ownFilter: `${reference}Ids`, query: jobPositionQuery },
    parentOf: (position) => position[reference]?.id,
  };
}

export const jobPositionsOfDepartment = jobPositionsBy("department", "Department.jobPositions");
export const jobPositionsOfEstablishment = jobPositionsBy("businessEstablishment", "BusinessEstablishment.jobPositions");
export const jobPositionsOfQualification = jobPositionsBy("jobQualification", "JobQualification.jobPositions");
export const jobPositionsOfOccupationCategory = jobPositionsBy("occupationCategory", "OccupationCategory.jobPositions");
export const jobPositionsOfManager = jobPositionsBy("manager", "Employee.managedJobPositions");

const employeesByApplicableEmployment = (filter: string, field: Omit<EdgeField, "query">, parentOf: (employment: RestEmployment) => string | null | undefined) =>
  employeesByApplicable(applicableEmploymentOf, `applicableEmployment.${filter}`, field, parentOf);

export const employeesOfLegalEntity = employeesByApplicableEmployment(
  "legalEntity.id",
  { coordinate: "LegalEntity.employees", ownFilter: "legalEntityIds" },
  (e) => e.legalEntity?.id,
);

export const employeesOfTemplate = employeesByApplicableEmployment(
  "template.id",
  { coordinate: "EmploymentTemplate.employees", ownFilter: "employmentTemplateIds" },
  (e) => e.template?.id,
);
