import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import { childConnection, edgeArgsQuery, type SubgraphContext } from "../../shared/graphql/index.js";
import { jobPositionsOfOccupationCategory } from "../edges.js";
import { JobPositionConnection, JobPositionListArgs } from "../job-position/job-position.js";
import { OccupationCategory } from "./occupation-category.js";

@Resolver(() => OccupationCategory)
export class OccupationCategoryResolver {
  @FieldResolver(() => JobPositionConnection, { nullable: true, description: "Job positions of this socio-professional category, by id." })
  jobPositions(
    @Root() occupationCategory: OccupationCategory,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfOccupationCategory, occupationCategory.id, args, edgeArgsQuery(jobPositionsOfOccupationCategory, args));
  }
}
