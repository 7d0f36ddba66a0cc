import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { filterArgs, type FilterArgs, RestFilter, listConnection, referenceTo, requiredId, type SubgraphContext } from "../../shared/graphql/index.js";
import { jobQualificationLoader, professionLoader } from "../loaders.js";
import { Profession } from "../profession/profession.js";
import type { RestJobQualification, RestProfession } from "../rest.js";
import { JobQualification, JobQualificationConnection, JobQualificationFilter } from "./job-qualification.js";

const JobQualificationListArgs = filterArgs(JobQualificationFilter);

@Resolver(() => JobQualification)
export class JobQualificationResolver {
  @Query(() => JobQualification, {
    nullable: true,
    description: "One job qualification; null when it does not exist. One call, shared with every other qualification the operation reads.",
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
    return listConnection(ctx, info, "/job-qualifications", jobQualificationQuery(filter), { first, after }, jobQualificationLoader(ctx));
  }

  @FieldResolver(() => Profession, {
    nullable: true,
    description: "The profession this level belongs to; null when it has none. One call for the professions of every qualification of the operation.",
  })
  profession(
    @Root() qualification: RestJobQualification,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<RestProfession | null> | { id: string } | null {
    return referenceTo(qualification.profession, info, (id) => professionLoader(ctx).load(id));
  }
}

/** The REST query of `JobQualificationFilter` (the root list and `Profession.jobQualifications`). */
export function jobQualificationQuery(filter: JobQualificationFilter | null | undefined): Record<string, string> {
  return new RestFilter()
    .integers("rank", "ranks", filter?.ranks, 0)
    .strings("profession.id", "professionIds", filter?.professionIds).query;
}
