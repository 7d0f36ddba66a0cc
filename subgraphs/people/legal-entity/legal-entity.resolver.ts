import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { edgeArgsQuery } from "../../shared/graphql/index.js";
import { childConnection } from "../../shared/graphql/index.js";
import { employeesOfLegalEntity, employmentsOfLegalEntity } from "../edges.js";
import { EmployeeConnection, EmployeeListArgs } from "../employee/employee.js";
import { EmploymentConnection, EmploymentListArgs } from "../employment/employment.js";
import { LegalEntity } from "./legal-entity.js";

@Resolver(() => LegalEntity)
export class LegalEntityResolver {
  @FieldResolver(() => EmploymentConnection, { nullable: true, description: "Employments with this legal entity." })
  employments(
    @Root() legalEntity: LegalEntity,
    @Args(() => EmploymentListArgs) args: EmploymentListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, employmentsOfLegalEntity, legalEntity.id, args, edgeArgsQuery(employmentsOfLegalEntity, args));
  }

  @FieldResolver(() => EmployeeConnection, { nullable: true, description: "Employees whose applicable employment is with this legal entity, by id." })
  employees(
    @Root() legalEntity: LegalEntity,
    @Args(() => EmployeeListArgs) args: EmployeeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, employeesOfLegalEntity, legalEntity.id, args, edgeArgsQuery(employeesOfLegalEntity, args));
  }
}
