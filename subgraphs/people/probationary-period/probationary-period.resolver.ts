import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { restConnection, selects, type SubgraphContext } from "../../shared/graphql/index.js";
import { restSort } from "../common/filter.js";
import { Employment } from "../employment/employment.js";
import { employmentLoader, probationaryPeriodLoader } from "../loaders.js";
import type { RestProbationaryPeriod } from "../rest.js";
import {
  ProbationaryPeriod,
  ProbationaryPeriodConnection,
  ProbationaryPeriodFilter,
  probationaryPeriodQuery,
  ProbationaryPeriodSort,
} from "./probationary-period.js";

@Resolver(() => ProbationaryPeriod)
export class ProbationaryPeriodResolver {
  @Query(() => ProbationaryPeriod, { nullable: true, description: "One probationary period; null when it does not exist or is not visible." })
  probationaryPeriod(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestProbationaryPeriod | null> {
    return probationaryPeriodLoader(ctx).load(id);
  }

  @Query(() => ProbationaryPeriodConnection, { description: "Probationary periods, a page at a time." })
  probationaryPeriods(
    @Arg("filter", () => ProbationaryPeriodFilter, { nullable: true }) filter: ProbationaryPeriodFilter | null,
    @Arg("sort", () => [ProbationaryPeriodSort], { nullable: true }) sort: ProbationaryPeriodSort[] | null,
    @Arg("first", () => Int, { nullable: true, description: "0 to 100, default 25" }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = { ...probationaryPeriodQuery(filter), ...restSort(sort) };
    return restConnection(ctx.upstream, "/probationary-periods", query, { first, after }, { totalCount: selects(info, "totalCount") });
  }

  @FieldResolver(() => Employment)
  employment(@Root() period: RestProbationaryPeriod, @Ctx() ctx: SubgraphContext) {
    return employmentLoader(ctx).load(period.employment.id);
  }
}
