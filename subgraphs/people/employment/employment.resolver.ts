import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { DateScalar, pageSize, restConnection, selects, type SubgraphContext } from "../../shared/graphql/index.js";
import { refuseEdgeFilter, restSort } from "../common/filter.js";
import { entityRef, FileReference, fileReference } from "../common/values.js";
import { Employee } from "../employee/employee.js";
import { EmploymentTemplate } from "../employment-template/employment-template.js";
import { JobPositionConnection } from "../job-position/job-position.js";
import { LegalEntity } from "../legal-entity/legal-entity.js";
import { childConnections, employeeLoader, employmentLoader, probationaryPeriodsByEmploymentLoader } from "../loaders.js";
import { ProbationaryPeriod } from "../probationary-period/probationary-period.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "../rest.js";
import { Employment, EmploymentConnection, EmploymentFilter, employmentQuery, EmploymentSort } from "./employment.js";

@Resolver(() => Employment)
export class EmploymentResolver {
  @Query(() => Employment, { nullable: true, description: "One employment; null when it does not exist or is not visible." })
  employment(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmployment | null> {
    return employmentLoader(ctx).load(id);
  }

  @Query(() => EmploymentConnection, { description: "Employments, a page at a time." })
  employments(
    @Arg("filter", () => EmploymentFilter, { nullable: true }) filter: EmploymentFilter | null,
    @Arg("sort", () => [EmploymentSort], { nullable: true }) sort: EmploymentSort[] | null,
    @Arg("first", () => Int, { nullable: true, description: "0 to 100, default 25" }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = { ...employmentQuery(filter), ...restSort(sort) };
    return restConnection(ctx.upstream, "/employments", query, { first, after }, { totalCount: selects(info, "totalCount") });
  }

  @FieldResolver(() => Employee)
  employee(@Root() employment: RestEmployment, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> {
    return employeeLoader(ctx).load(employment.employee.id);
  }

  @FieldResolver(() => LegalEntity, { nullable: true, description: "Inferred from the business establishment of the first job position." })
  legalEntity(@Root() employment: RestEmployment) {
    return entityRef(employment.legalEntity);
  }

  @FieldResolver(() => EmploymentTemplate, { nullable: true })
  template(@Root() employment: RestEmployment) {
    return entityRef(employment.template);
  }

  @FieldResolver(() => DateScalar)
  startDate(@Root() employment: RestEmployment): string {
    return employment.start.date;
  }

  @FieldResolver(() => DateScalar, { nullable: true })
  endDate(@Root() employment: RestEmployment): string | null {
    return employment.end?.date ?? null;
  }

  @FieldResolver(() => FileReference, { nullable: true })
  document(@Root() employment: RestEmployment): FileReference | null {
    return fileReference(employment.document);
  }

  @FieldResolver(() => JobPositionConnection, { description: "The job positions of this employment, by start date." })
  jobPositions(
    @Root() employment: RestEmployment,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    pageSize(first);
    return childConnections<RestJobPosition>(ctx, "/job-positions", "employment.id", { sort: "startsOn" }, (p) => p.employment.id).load({
      parentId: employment.id,
      args: { first, after },
      totalCount: selects(info, "totalCount"),
    });
  }

  @FieldResolver(() => [ProbationaryPeriod])
  async probationaryPeriods(@Root() employment: RestEmployment, @Ctx() ctx: SubgraphContext) {
    return probationaryPeriodsByEmploymentLoader(ctx).load(employment.id);
  }
}

/** Employments per parent of another subgraph's entity (a legal entity, a template). */
export function employmentsOf(
  ctx: SubgraphContext,
  info: GraphQLResolveInfo,
  parent: { id: string; filter: string; filterField: keyof EmploymentFilter; parentOf: (e: RestEmployment) => string | null | undefined },
  args: { first?: number | null; after?: string | null; filter?: EmploymentFilter | null; sort?: EmploymentSort[] | null },
) {
  pageSize(args.first);
  const query = refuseEdgeFilter({ ...employmentQuery(args.filter), ...restSort(args.sort) }, parent.filter, parent.filterField);
  return childConnections<RestEmployment>(ctx, "/employments", parent.filter, query, parent.parentOf).load({
    parentId: parent.id,
    args: { first: args.first, after: args.after },
    totalCount: selects(info, "totalCount"),
  });
}
