import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { edgeArgsQuery } from "../../shared/graphql/index.js";
import { childConnection } from "../../shared/graphql/index.js";
import { jobPositionsOfDepartment, membersOfDepartment } from "../edges.js";
import { JobPositionConnection, JobPositionListArgs } from "../job-position/job-position.js";
import { EmployeeConnection, EmployeeListArgs } from "../employee/employee.js";
import { Department } from "./department.js";

@Resolver(() => Department)
export class DepartmentResolver {
  @FieldResolver(() => EmployeeConnection, { nullable: true, description: "Employees whose applicable job position is in this department." })
  employees(
    @Root() department: Department,
    @Args(() => EmployeeListArgs) args: EmployeeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, membersOfDepartment, department.id, args, edgeArgsQuery(membersOfDepartment, args));
  }

  @FieldResolver(() => JobPositionConnection, { nullable: true, description: "Job positions in this department (past, current and upcoming), by id." })
  jobPositions(
    @Root() department: Department,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfDepartment, department.id, args, edgeArgsQuery(jobPositionsOfDepartment, args));
  }
}
