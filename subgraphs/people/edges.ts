import type { ChildEdge } from "../shared/graphql/index.js";
import { applicableJobPositionOf, employmentLoader } from "./loaders.js";
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
  sort: "start.date",
  parentOf: (employment) => employment.employee.id,
  // the applicable employment, read in the same tick, is on the page (one call, not two)
  primes: employmentLoader,
};

/** docs/interface.md#employee: an employee's `links.jobPositions` is the list filtered by `employment.employee.id`. */
export const jobPositionsOfEmployee: ChildEdge<RestJobPosition> = {
  path: "/job-positions",
  filter: "employment.employee.id",
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
 * Employees grouped by a reference of their applicable job position. An employee names that
 * position only by reference, so grouping a batch of parents back loads the positions (one call
 * per 100 employees, shared with the rest of the operation).
 */
function employeesByApplicableJobPosition(
  filter: string,
  filterField: string,
  parentOf: (position: RestJobPosition) => string | null | undefined,
): ChildEdge<RestEmployee> {
  return {
    path: "/employees",
    filter: `applicableJobPosition.${filter}`,
    filterField,
    parentOf: async (employee, ctx) => {
      const position = await applicableJobPositionOf(ctx, employee);
      return position ? parentOf(position) : null;
    },
  };
}

export const reportsOfManager = employeesByApplicableJobPosition("manager.id", "managerIds", (p) => p.manager?.id);

export const membersOfDepartment = employeesByApplicableJobPosition("department.id", "departmentIds", (p) => p.department?.id);

export const membersOfEstablishment = employeesByApplicableJobPosition(
  "businessEstablishment.id",
  "businessEstablishmentIds",
  (p) => p.businessEstablishment?.id,
);
