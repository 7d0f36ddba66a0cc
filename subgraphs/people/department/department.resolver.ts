import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { EmployeeConnection, EmployeeFilter, EmployeeSort } from "../employee/employee.js";
import { employeesOf } from "../employee/employee.resolver.js";
import { Department } from "./department.js";

@Resolver(() => Department)
export class DepartmentResolver {
  @FieldResolver(() => EmployeeConnection, { description: "Employees whose applicable job position is in this department." })
  employees(
    @Root() department: Department,
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
      { id: department.id, filter: "applicableJobPosition.department.id", filterField: "departmentIds", parentOf: (p) => p.department?.id },
      { first, after, filter, sort },
    );
  }
}
