import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import { childConnection, edgeArgsQuery, type SubgraphContext } from "../../shared/graphql/index.js";
import { jobPositionsOfQualification } from "../edges.js";
import { JobPositionConnection, JobPositionListArgs } from "../job-position/job-position.js";
import { JobQualification } from "./job-qualification.js";

@Resolver(() => JobQualification)
export class JobQualificationResolver {
  @FieldResolver(() => JobPositionConnection, { nullable: true, description: "Job positions at this qualification level, by id." })
  jobPositions(
    @Root() jobQualification: JobQualification,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfQualification, jobQualification.id, args, edgeArgsQuery(jobPositionsOfQualification, args));
  }
}
