import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { EmploymentConnection, EmploymentFilter, EmploymentSort } from "../employment/employment.js";
import { employmentsOf } from "../employment/employment.resolver.js";
import { EmploymentTemplate } from "./employment-template.js";

@Resolver(() => EmploymentTemplate)
export class EmploymentTemplateResolver {
  @FieldResolver(() => EmploymentConnection, { description: "Employments made from this template." })
  employments(
    @Root() template: EmploymentTemplate,
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
      { id: template.id, filter: "template.id", filterField: "templateIds", parentOf: (e) => e.template?.id },
      { first, after, filter, sort },
    );
  }
}
