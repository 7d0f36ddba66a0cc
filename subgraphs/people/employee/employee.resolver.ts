import type { GraphQLResolveInfo } from "graphql";
import { Portrait, portraitOf } from "./portrait.js";
import { employeeIncludes } from "./portrait-selection.js";
import { Arg, Args, Ctx, Directive, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { DateScalar, listConnection, type SubgraphContext, childConnection, edgeArgsQuery, referenceTo } from "../../shared/graphql/index.js";
import { RestFilter } from "../../shared/graphql/index.js";
import { listQuery } from "../../shared/graphql/index.js";
import { employmentsOfEmployee, jobPositionsOfEmployee, jobPositionsOfManager, reportsOfManager } from "../edges.js";
import { EmployeeAttribute } from "../employee-attribute/employee-attribute.js";
import { readsDefinitionDetails } from "../employee-attribute/definition-selection.js";
import { EmployeePersonalRecord } from "../employee-personal-record/employee-personal-record.js";
import { Employment, EmploymentConnection, EmploymentListArgs } from "../employment/employment.js";
import { JobPosition, JobPositionConnection, JobPositionListArgs } from "../job-position/job-position.js";
import {
  employeeListEmbeds,
  applicableJobPositionOf,
  attributesByEmployeeLoader,
  employeeLoaderFor,
  employmentLoader,
  jobPositionLoader,
  personalRecordsByEmployeeLoader,
  probationaryPeriodsByEmployeeLoader,
} from "../loaders.js";
import { ProbationaryPeriod } from "../probationary-period/probationary-period.js";
import type { RestEmployee } from "../rest.js";
import { Employee, EmployeeConnection, EmployeeListArgs, employeeQuery } from "./employee.js";
import { prefetchEmployee } from "./employee.prefetch.js";

@Resolver(() => Employee)
export class EmployeeResolver {
  // shared with legacy-time, which answers it the same way (docs/performance.md#what-a-company-router-gets)
  @Directive("@shareable")
  @Query(() => Employee, { nullable: true, description: "One employee; null when it does not exist or is not visible." })
  employee(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<RestEmployee | null> {
    prefetchEmployee(ctx, info, id);
    // read with its links when the portrait's address is asked: the same one call
    return employeeLoaderFor(ctx, info).load(id);
  }

  @Query(() => EmployeeConnection, { nullable: true, description: "Employees, a page at a time." })
  employees(@Args(() => EmployeeListArgs) args: EmployeeListArgs, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return listConnection(ctx, info, "/employees", listQuery(args, employeeQuery), args, undefined, employeeIncludes(info), employeeListEmbeds(ctx, info));
  }

  @FieldResolver(() => Portrait, { nullable: true })
  portrait(@Root() employee: RestEmployee) {
    return portraitOf(employee);
  }

  @FieldResolver(() => Employment, { nullable: true, description: "The ongoing employment, else the next one, else the last one." })
  applicableEmployment(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(employee.applicableEmployment, info, (id) => employmentLoader(ctx).load(id));
  }

  @FieldResolver(() => JobPosition, { nullable: true })
  applicableJobPosition(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(employee.applicableJobPosition, info, (id) => jobPositionLoader(ctx).load(id));
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The manager of the applicable job position." })
  async manager(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    const position = await applicableJobPositionOf(ctx, employee);
    return referenceTo(position?.manager, info, (id) => employeeLoaderFor(ctx, info).load(id));
  }

  @FieldResolver(() => EmployeeConnection, { nullable: true, description: "Employees whose applicable job position has this employee as manager." })
  directReports(
    @Root() employee: RestEmployee,
    @Args(() => EmployeeListArgs) args: EmployeeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, reportsOfManager, employee.id, args, edgeArgsQuery(reportsOfManager, args));
  }

  @FieldResolver(() => EmploymentConnection, { nullable: true, description: "The employee's employments, by start date unless `sort` says otherwise." })
  employments(
    @Root() employee: RestEmployee,
    @Args(() => EmploymentListArgs) args: EmploymentListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, employmentsOfEmployee, employee.id, args, edgeArgsQuery(employmentsOfEmployee, args));
  }

  @FieldResolver(() => JobPositionConnection, {
    nullable: true,
    description: "The employee's whole career across employments, by start date unless `sort` says otherwise.",
  })
  jobPositions(
    @Root() employee: RestEmployee,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfEmployee, employee.id, args, edgeArgsQuery(jobPositionsOfEmployee, args));
  }

  @FieldResolver(() => JobPositionConnection, {
    nullable: true,
    description: "Job positions (past, current and upcoming) whose manager is this employee, by id: the positions behind `directReports` and their history.",
  })
  managedJobPositions(
    @Root() employee: RestEmployee,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfManager, employee.id, args, edgeArgsQuery(jobPositionsOfManager, args));
  }

  @FieldResolver(() => EmployeePersonalRecord, { nullable: true })
  async personalRecord(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext) {
    const records = await personalRecordsByEmployeeLoader(ctx).load(employee.id);
    return records[0] ?? null;
  }

  @FieldResolver(() => [EmployeeAttribute], { nullable: true, description: "The employee's attribute values." })
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

  @FieldResolver(() => [ProbationaryPeriod], { nullable: true, description: "The probationary periods of all the employee's employments." })
  probationaryPeriods(@Root() employee: RestEmployee, @Ctx() ctx: SubgraphContext) {
    return probationaryPeriodsByEmployeeLoader(ctx)
      .load(employee.id)
      .then((periods) => periods ?? []);
  }
}
