import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { EmploymentConnection, EmploymentFilter, EmploymentSort } from "../employment/employment.js";
import { employmentsOf } from "../employment/employment.resolver.js";
import { LegalEntity } from "./legal-entity.js";

@Resolver(() => LegalEntity)
export class LegalEntityResolver {
  @FieldResolver(() => EmploymentConnection, { description: "Employments with this legal entity." })
  employments(
    @Root() legalEntity: LegalEntity,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Arg("filter", () => EmploymentFilter, { nullable: true }) filter: EmploymentFilter | null,
    @Arg("sort", () => [EmploymentSort], { nullable: true }) sort: EmploymentSort[] | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return employmentsOf(
      ctx,
      info,
      { id: legalEntity.id, filter: "legalEntity.id", filterField: "legalEntityIds", parentOf: (e) => e.legalEntity?.id },
      { first, after, filter, sort },
    );
  }
}
