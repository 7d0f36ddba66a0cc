import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { listConnection, type SubgraphContext, referenceTo } from "../../shared/graphql/index.js";
import { listQuery } from "../../shared/graphql/index.js";
import { Employment } from "../employment/employment.js";
import { employmentLoader, probationaryPeriodLoader } from "../loaders.js";
import type { RestProbationaryPeriod } from "../rest.js";
import {
  ProbationaryPeriod,
  ProbationaryPeriodConnection,
  ProbationaryPeriodListArgs,
  probationaryPeriodQuery,
} from "./probationary-period.js";

@Resolver(() => ProbationaryPeriod)
export class ProbationaryPeriodResolver {
  @Query(() => ProbationaryPeriod, { nullable: true, description: "One probationary period; null when it does not exist or is not visible." })
  probationaryPeriod(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestProbationaryPeriod | null> {
    return probationaryPeriodLoader(ctx).load(id);
  }

  @Query(() => ProbationaryPeriodConnection, { nullable: true, description: "Probationary periods, a page at a time." })
  probationaryPeriods(
    @Args(() => ProbationaryPeriodListArgs) args: ProbationaryPeriodListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return listConnection(ctx, info, "/probationary-periods", listQuery(args, probationaryPeriodQuery), args);
  }

  @FieldResolver(() => Employment, { nullable: true })
  employment(@Root() period: RestProbationaryPeriod, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(period.employment, info, (id) => employmentLoader(ctx).load(id));
  }
}
