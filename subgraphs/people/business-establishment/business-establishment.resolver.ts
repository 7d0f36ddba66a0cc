import type { GraphQLResolveInfo } from "graphql";
import { Args, Ctx, FieldResolver, Info, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { edgeArgsQuery } from "../../shared/graphql/index.js";
import { childConnection } from "../../shared/graphql/index.js";
import { jobPositionsOfEstablishment, membersOfEstablishment } from "../edges.js";
import { JobPositionConnection, JobPositionListArgs } from "../job-position/job-position.js";
import { EmployeeConnection, EmployeeListArgs } from "../employee/employee.js";
import { BusinessEstablishment } from "./business-establishment.js";

@Resolver(() => BusinessEstablishment)
export class BusinessEstablishmentResolver {
  @FieldResolver(() => EmployeeConnection, { nullable: true, description: "Employees whose applicable job position is in this establishment." })
  employees(
    @Root() businessEstablishment: BusinessEstablishment,
    @Args(() => EmployeeListArgs) args: EmployeeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, membersOfEstablishment, businessEstablishment.id, args, edgeArgsQuery(membersOfEstablishment, args));
  }

  @FieldResolver(() => JobPositionConnection, { nullable: true, description: "Job positions in this establishment (past, current and upcoming), by id." })
  jobPositions(
    @Root() businessEstablishment: BusinessEstablishment,
    @Args(() => JobPositionListArgs) args: JobPositionListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfEstablishment, businessEstablishment.id, args, edgeArgsQuery(jobPositionsOfEstablishment, args));
  }
}
