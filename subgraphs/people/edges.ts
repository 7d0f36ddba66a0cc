import type { GraphQLResolveInfo } from "graphql";
import { badUserInput, childConnectionLoader, pageSize, selects, type ConnectionArgs, type SubgraphContext } from "../shared/graphql/index.js";
import { applicableJobPositionOf } from "./loaders.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "./rest.js";

/**
 * The one-to-many edges of the people subgraph that are connections, each named by the REST list
 * and filter that back it (`links.employments` of an employee is `/employments?employee.id=`).
 * One resolver helper serves them all: a single parent gets one REST page; the parents of one
 * tick share one list call per 100 parents, grouped back with `parentOf`.
 */
export interface ChildEdge<T> {
  /** the REST list, e.g. `/employments` */
  path: string;
  /** the list filter that names the parent, e.g. `employee.id` */
  filter: string;
  /** the same filter in the GraphQL filter input, for edges that take one: it cannot be given there */
  filterField?: string;
  /** the order when the caller asks none (a REST sort instruction); without it, the list's default */
  sort?: string;
  /** the parent of an item; may load what it needs through the request's loaders */
  parentOf(item: T, ctx: SubgraphContext): string | null | undefined | Promise<string | null | undefined>;
}

/**
 * One parent's connection over an edge. `query` holds the caller's other filters and sort,
 * already validated; with the page size, they are checked before any call.
 */
export function childConnection<T>(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  edge: ChildEdge<T>,
  parentId: string,
  page: ConnectionArgs,
  query: Record<string, string> = {},
) {
  pageSize(page.first);
  if (query[edge.filter] !== undefined) {
    const field = `filter.${edge.filterField ?? edge.filter}`;
    throw badUserInput(`${field} cannot be used on this field: it already filters on it`, field);
  }
  const full = edge.sort && query.sort === undefined ? { ...query, sort: edge.sort } : query;
  // the same edge asked with other filters or another sort needs a loader of its own
  const loader = ctx.loaders.get(`children:${edge.path}:${edge.filter}:${JSON.stringify(full)}`, () =>
    childConnectionLoader<T>(ctx.upstream, edge.path, edge.filter, (item) => edge.parentOf(item, ctx), { query: full }),
  );
  return loader.load({ parentId, args: { first: page.first, after: page.after }, totalCount: selects(info, "totalCount") });
}

export const employmentsOfEmployee: ChildEdge<RestEmployment> = {
  path: "/employments",
  filter: "employee.id",
  sort: "start.date",
  parentOf: (employment) => employment.employee.id,
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
