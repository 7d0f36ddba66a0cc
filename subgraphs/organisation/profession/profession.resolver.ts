import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import {
  childConnection,
  edgeArgsQuery,
  filterArgs,
  listConnection,
  requiredId,
  RestFilter,
  translate,
  Translation,
  translations,
  type FilterArgs,
  type SubgraphContext,
} from "../../shared/graphql/index.js";
import { jobQualificationsOfProfession } from "../edges.js";
import { JobQualificationConnection, JobQualificationFilter } from "../job-qualification/job-qualification.js";
import { professionLoader } from "../loaders.js";
import type { RestProfession } from "../rest.js";
import { Profession, ProfessionConnection, ProfessionFilter } from "./profession.js";

const ProfessionListArgs = filterArgs(ProfessionFilter);

const JobQualificationListArgs = filterArgs(JobQualificationFilter);

@Resolver(() => Profession)
export class ProfessionResolver {
  @Query(() => Profession, { nullable: true, description: "One profession; null when it does not exist or the caller may not read professions." })
  profession(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestProfession | null> {
    return professionLoader(ctx).load(requiredId(id));
  }

  @Query(() => ProfessionConnection, { nullable: true, description: "Professions, ordered by id (scope job-qualifications)." })
  professions(
    @Args(() => ProfessionListArgs) { filter, first, after }: FilterArgs<ProfessionFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().boolean("isArchived", filter?.isArchived).query;
    return listConnection(ctx, info, "/professions", query, { first, after }, professionLoader(ctx));
  }

  @FieldResolver(() => String, { description: "The title in `lang` (e.g. fr-FR) when translated, else the invariant title." })
  title(@Root() profession: RestProfession, @Arg("lang", () => String, { nullable: true, description: "IETF language tag" }) lang: string | null): string {
    return translate(profession.title, profession.t9n, "title", lang);
  }

  @FieldResolver(() => [Translation])
  titleTranslations(@Root() profession: RestProfession): Translation[] {
    return translations(profession.t9n, "title");
  }

  @FieldResolver(() => JobQualificationConnection, {
    nullable: true,
    description: "The qualification levels of this profession, ordered by id (the `profession.id` filter of job qualifications).",
  })
  jobQualifications(
    @Root() profession: RestProfession,
    @Args(() => JobQualificationListArgs) { filter, first, after }: FilterArgs<JobQualificationFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobQualificationsOfProfession, profession.id, { first, after }, edgeArgsQuery(jobQualificationsOfProfession, { filter }));
  }
}
