import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { listQuery } from "../../shared/graphql/index.js";
import { childConnection } from "../../shared/graphql/index.js";
import { employmentsOfLegalEntity } from "../edges.js";
import { EmploymentConnection, EmploymentListArgs, employmentQuery } from "../employment/employment.js";
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
    return childConnection(ctx, info, employmentsOfLegalEntity, legalEntity.id, args, listQuery(args, employmentQuery));
  }
}
