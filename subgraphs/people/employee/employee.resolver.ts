import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { DateScalar, pageSize, restConnection, selects, type SubgraphContext } from "../../shared/graphql/index.js";
import { refuseEdgeFilter, RestFilter, restSort } from "../common/filter.js";
import { FileReference, fileReference } from "../common/values.js";
import { EmployeeAttribute } from "../employee-attribute/employee-attribute.js";
import { readsDefinitionDetails } from "../employee-attribute/definition-selection.js";
import { EmployeePersonalRecord } from "../employee-personal-record/employee-personal-record.js";
import { Employment, EmploymentConnection } from "../employment/employment.js";
import { JobPosition, JobPositionConnection } from "../job-position/job-position.js";
import {
  applicableJobPositionOf,
  attributesByEmployeeLoader,
  childConnections,
  employeeLoader,
  employmentLoader,
  jobPositionLoader,
  personalRecordsByEmployeeLoader,
  probationaryPeriodsByEmployeeLoader,
} from "../loaders.js";
import { ProbationaryPeriod } from "../probationary-period/probationary-period.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "../rest.js";
import { Employee, EmployeeConnection, EmployeeFilter, employeeQuery, EmployeeSort } from "./employee.js";

/**
 * The employees of one kind of parent (a manager's reports, a department's or an establishment's
 * members): one REST page for a single parent, one list call per 100 parents otherwise. An
 * employee names its applicable job position only by reference, so grouping a multi-parent batch
 * back to its parents loads those job positions through the job-position loader (one call per 100
 * employees, shared with the rest of the operation).
 */
export async function employeesOf(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  parent: { id: string; filter: string; filterField: keyof EmployeeFilter; parentOf: (position: RestJobPosition) => string | null | undefined },
  args: { first?: number | null; after?: string | null; filter?: EmployeeFilter | null; sort?: EmployeeSort[] | null },
) {
  pageSize(args.first);
  const query = refuseEdgeFilter({ ...employeeQuery(args.filter), ...restSort(args.sort) }, parent.filter, parent.filterField);
  const loader = childConnections<RestEmployee>(ctx, "/employees", parent.filter, query, async (employee) => {
    const position = await applicableJobPositionOf(ctx, employee);
    return position ? parent.parentOf(position) : null;
  });
  return loader.load({ parentId: parent.id, args: { first: args.first, after: args.after }, totalCount: selects(info, "totalCount") });
}

@Resolver(() => Employee)
export class EmployeeResolver {
  @Query(() => Employee, { nullable: true, description: "One employee; null when it does not exist or is not visible." })
  employee(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> {
    return employeeLoader(ctx).load(id);
  }

  @Query(() => EmployeeConnection, { description: "Employees, a page at a time." })
  employees(
    @Arg("filter", () => EmployeeFilter, { nullable: true }) filter: EmployeeFilter | null,
    @Arg("sort", () => [EmployeeSort], { nullable: true }) sort: EmployeeSort[] | null,
    @Arg("first", () => Int, { nullable: true, description: "0 to 100, default 25" }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = { ...employeeQuery(filter), ...restSort(sort) };
    return restConnection(ctx.upstream, "/employees", query, { first, after }, { totalCount: selects(info, "totalCount") });
  }

  @FieldResolver(() => FileReference, { nullable: true })
  portrait(@Root() employee: RestEmployee): FileReference | null {
    return fileReference(employee.portrait);
  }

  @FieldResolver(() => Employment, { nullable: true, description: "The ongoing employment, else the next one, else the last one." })
  applicableEmployment(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext): Promise<RestEmployment | null> | null {
    const ref = employee.applicableEmployment;
    return ref ? employmentLoader(ctx).load(ref.id) : null;
  }

  @FieldResolver(() => JobPosition, { nullable: true })
  applicableJobPosition(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext): Promise<RestJobPosition | null> | null {
    const ref = employee.applicableJobPosition;
    return ref ? jobPositionLoader(ctx).load(ref.id) : null;
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The manager of the applicable job position." })
  async manager(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> {
    const position = await applicableJobPositionOf(ctx, employee);
    return position?.manager ? employeeLoader(ctx).load(position.manager.id) : null;
  }

  @FieldResolver(() => EmployeeConnection, { description: "Employees whose applicable job position has this employee as manager." })
  directReports(
    @Root() employee: RestEmployee,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Arg("filter", () => EmployeeFilter, { nullable: true }) filter: EmployeeFilter | null,
    @Arg("sort", () => [EmployeeSort], { nullable: true }) sort: EmployeeSort[] | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return employeesOf(
      ctx,
      info,
      { id: employee.id, filter: "applicableJobPosition.manager.id", filterField: "managerIds", parentOf: (p) => p.manager?.id },
      { first, after, filter, sort },
    );
  }

  @FieldResolver(() => EmploymentConnection, { description: "The employee's employments, by start date." })
  employments(
    @Root() employee: RestEmployee,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    pageSize(first);
    return childConnections<RestEmployment>(ctx, "/employments", "employee.id", { sort: "start.date" }, (e) => e.employee.id).load({
      parentId: employee.id,
      args: { first, after },
      totalCount: selects(info, "totalCount"),
    });
  }

  @FieldResolver(() => JobPositionConnection, { description: "The employee's whole career across employments, by start date." })
  jobPositions(
    @Root() employee: RestEmployee,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    pageSize(first);
    // INTERFACE.md: an employee's links.jobPositions is the list filtered by employment.employee.id
    return childConnections<RestJobPosition>(ctx, "/job-positions", "employment.employee.id", { sort: "startsOn" }, (p) => p.employee.id).load({
      parentId: employee.id,
      args: { first, after },
      totalCount: selects(info, "totalCount"),
    });
  }

  @FieldResolver(() => EmployeePersonalRecord, { nullable: true })
  async personalRecord(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext) {
    const records = await personalRecordsByEmployeeLoader(ctx).load(employee.id);
    return records[0] ?? null;
  }

  @FieldResolver(() => [EmployeeAttribute], { description: "The employee's attribute values." })
  async attributes(
    @Root() employee: RestEmployee,
    @Arg("definitionIds", () => [ID], { nullable: true }) definitionIds: string[] | null,
    @Arg("asOf", () => DateScalar, { nullable: true, description: "Only values applicable on this date." }) asOf: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter("attributes").strings("definition.id", "definitionIds", definitionIds).value("applicability.asOf", asOf).query;
    return (await attributesByEmployeeLoader(ctx, query, readsDefinitionDetails(info)).load(employee.id)) ?? [];
  }

  @FieldResolver(() => [ProbationaryPeriod], { description: "The probationary periods of all the employee's employments." })
  probationaryPeriods(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext) {
    return probationaryPeriodsByEmployeeLoader(ctx)
      .load(employee.id)
      .then((periods) => periods ?? []);
  }
}
