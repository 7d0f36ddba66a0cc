import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, ID, Info, Int, Query, Resolver } from "type-graphql";
import { filterArgs, type FilterArgs, RestFilter, listConnection, requiredId, type SubgraphContext } from "../../shared/graphql/index.js";
import { jobQualificationLoader } from "../loaders.js";
import type { RestJobQualification } from "../rest.js";
import { JobQualification, JobQualificationConnection, JobQualificationFilter } from "./job-qualification.js";

const JobQualificationListArgs = filterArgs(JobQualificationFilter);

@Resolver(() => JobQualification)
export class JobQualificationResolver {
  @Query(() => JobQualification, {
    nullable: true,
    description: "One job qualification; null when it does not exist. (The interface has no single read: the list is read once per request.)",
  })
  jobQualification(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestJobQualification | null> {
    return jobQualificationLoader(ctx).load(requiredId(id));
  }

  @Query(() => JobQualificationConnection, { nullable: true, description: "Job qualifications, ordered by id." })
  jobQualifications(
    @Args(() => JobQualificationListArgs) { filter, first, after }: FilterArgs<JobQualificationFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter()
      .integers("rank", "ranks", filter?.ranks, 0)
      .strings("profession.id", "professionIds", filter?.professionIds).query;
    return listConnection(ctx, info, "/job-qualifications", query, { first, after }, jobQualificationLoader(ctx));
  }
}
