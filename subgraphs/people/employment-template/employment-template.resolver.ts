import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { edgeArgsQuery } from "../../shared/graphql/index.js";
import { childConnection } from "../../shared/graphql/index.js";
import { employeesOfTemplate, employmentsOfTemplate } from "../edges.js";
import { EmployeeConnection, EmployeeListArgs } from "../employee/employee.js";
import { EmploymentConnection, EmploymentListArgs } from "../employment/employment.js";
import { EmploymentTemplate } from "./employment-template.js";

@Resolver(() => EmploymentTemplate)
export class EmploymentTemplateResolver {
  @FieldResolver(() => EmploymentConnection, { nullable: true, description: "Employments made from this template." })
  employments(
    @Root() employmentTemplate: EmploymentTemplate,
    @Args(() => EmploymentListArgs) args: EmploymentListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, employmentsOfTemplate, employmentTemplate.id, args, edgeArgsQuery(employmentsOfTemplate, args));
  }

  @FieldResolver(() => EmployeeConnection, { nullable: true, description: "Employees whose applicable employment was made from this template, by id." })
  employees(
    @Root() employmentTemplate: EmploymentTemplate,
    @Args(() => EmployeeListArgs) args: EmployeeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, employeesOfTemplate, employmentTemplate.id, args, edgeArgsQuery(employeesOfTemplate, args));
  }
}
