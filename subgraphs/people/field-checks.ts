import type { FieldChecks } from "../../platform/input-checks.js";
import { edgeQuery, listQuery, type ChildEdge, type ListArgs } from "../shared/graphql/index.js";
import {
  employeesOfLegalEntity,
  employeesOfTemplate,
  employmentsOfEmployee,
  employmentsOfLegalEntity,
  employmentsOfTemplate,
  jobPositionsOfDepartment,
  jobPositionsOfEmployee,
  jobPositionsOfEstablishment,
  jobPositionsOfManager,
  jobPositionsOfOccupationCategory,
  jobPositionsOfQualification,
  membersOfDepartment,
  membersOfEstablishment,
  reportsOfManager,
} from "./edges.js";
import { employeeQuery } from "./employee/employee.js";
import { employmentQuery } from "./employment/employment.js";
import { jobPositionQuery } from "./job-position/job-position.js";

/**
 * The people subgraph's field checks (`SubgraphModule.fieldChecks`): the filters and sorts of
 * every edge that is a filtered connection, checked on the whole operation before it starts, so
 * that a bad filter on `departments { nodes { jobPositions(filter: …) } }` or
 * `employees { nodes { managedJobPositions(filter: …) } }` is refused with no upstream call at all,
 * not after the list above it was read. The resolvers run the same checks (`childConnection`).
 */
function edgeCheck<F>(edge: ChildEdge<never>, toQuery: (filter: F | null | undefined) => Record<string, string>) {
  return (args: Record<string, unknown>) => {
    edgeQuery(edge, listQuery(args as ListArgs<F, string>, toQuery));
  };
}

/** Every filtered edge of the subgraph by coordinate (platform/input-checks.ts' EDGE_OWN_FILTERS names the same, for the gateway). */
export const EDGES: Array<[string, ChildEdge<never>, (filter: any) => Record<string, string>]> = [
  ["Employee.directReports", reportsOfManager, employeeQuery],
  ["Employee.employments", employmentsOfEmployee, employmentQuery],
  ["Employee.jobPositions", jobPositionsOfEmployee, jobPositionQuery],
  ["Employee.managedJobPositions", jobPositionsOfManager, jobPositionQuery],
  ["Department.employees", membersOfDepartment, employeeQuery],
  ["Department.jobPositions", jobPositionsOfDepartment, jobPositionQuery],
  ["BusinessEstablishment.employees", membersOfEstablishment, employeeQuery],
  ["BusinessEstablishment.jobPositions", jobPositionsOfEstablishment, jobPositionQuery],
  ["JobQualification.jobPositions", jobPositionsOfQualification, jobPositionQuery],
  ["OccupationCategory.jobPositions", jobPositionsOfOccupationCategory, jobPositionQuery],
  ["LegalEntity.employees", employeesOfLegalEntity, employeeQuery],
  ["LegalEntity.employments", employmentsOfLegalEntity, employmentQuery],
  ["EmploymentTemplate.employees", employeesOfTemplate, employeeQuery],
  ["EmploymentTemplate.employments", employmentsOfTemplate, employmentQuery],
];

export const peopleFieldChecks: FieldChecks = Object.fromEntries(EDGES.map(([coordinate, edge, toQuery]) => [coordinate, edgeCheck(edge, toQuery)]));
