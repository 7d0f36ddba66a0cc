import type { GraphQLResolveInfo } from "graphql";
import { FileReference, fileReference } from "../employee/file-reference.js";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { contractOfEmployment, type RestWorkContract } from "../../shared/legacy/work-contracts.js";
import { WorkContract } from "../work-contract/work-contract.js";
import { DateScalar, listConnection, type SubgraphContext, childConnection, referenceTo, entityRef } from "../../shared/graphql/index.js";
import { listQuery, PageArgs } from "../../shared/graphql/index.js";
import { jobPositionsOfEmployment } from "../edges.js";
import { Employee } from "../employee/employee.js";
import { EmploymentTemplate } from "../employment-template/employment-template.js";
import { JobPositionConnection } from "../job-position/job-position.js";
import { LegalEntity } from "../legal-entity/legal-entity.js";
import { employeeLoaderFor, employmentLoader, probationaryPeriodsByEmploymentLoader } from "../loaders.js";
import { ProbationaryPeriod } from "../probationary-period/probationary-period.js";
import type { RestEmployment } from "../rest.js";
import { Employment, EmploymentConnection, EmploymentListArgs, employmentQuery } from "./employment.js";

@Resolver(() => Employment)
export class EmploymentResolver {
  @Query(() => Employment, { nullable: true, description: "One employment; null when it does not exist or is not visible." })
  employment(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmployment | null> {
    return employmentLoader(ctx).load(id);
  }

  @Query(() => EmploymentConnection, { nullable: true, description: "Employments, a page at a time." })
  employments(@Args(() => EmploymentListArgs) args: EmploymentListArgs, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return listConnection(ctx, info, "/employments", listQuery(args, employmentQuery), args);
  }

  @FieldResolver(() => Employee, { nullable: true })
  employee(@Root() employment: RestEmployment, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(employment.employee, info, (id) => employeeLoaderFor(ctx, info).load(id));
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
  startsOn(@Root() employment: RestEmployment): string {
    return employment.start.date;
  }

  @FieldResolver(() => DateScalar, { nullable: true })
  endsOn(@Root() employment: RestEmployment): string | null {
    return employment.end?.date ?? null;
  }

  // the names before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md)
  @FieldResolver(() => DateScalar, { description: "First day of the employment: `startsOn`, under its name before 0.1.0.", deprecationReason: "Use `startsOn`: renamed in 0.1.0, as every date is `…On`." })
  startDate(@Root() employment: RestEmployment): string {
    return this.startsOn(employment);
  }

  @FieldResolver(() => DateScalar, { nullable: true, description: "Last day of the employment; null when open-ended: `endsOn`, under its name before 0.1.0.", deprecationReason: "Use `endsOn`: renamed in 0.1.0, as every date is `…On`." })
  endDate(@Root() employment: RestEmployment): string | null {
    return this.endsOn(employment);
  }

  @FieldResolver(() => FileReference, { nullable: true })
  document(@Root() employment: RestEmployment): FileReference | null {
    return fileReference(employment.document);
  }

  @FieldResolver(() => JobPositionConnection, { nullable: true, description: "The job positions of this employment, by start date." })
  jobPositions(
    @Root() employment: RestEmployment,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, jobPositionsOfEmployment, employment.id, page);
  }

  @FieldResolver(() => [ProbationaryPeriod], { nullable: true })
  async probationaryPeriods(@Root() employment: RestEmployment, @Ctx() ctx: SubgraphContext) {
    return probationaryPeriodsByEmploymentLoader(ctx).load(employment.id);
  }

  /**
   * Read here, not in legacy-time, so that any router's people fetch carries it (docs/performance.md#what-a-company-router-gets):
   * the work-contract list of the owner, one call per 100 owners of the operation, started with
   * the employee's own reads by `prefetchEmployee`. The employment was read with the caller's
   * credentials, so in forward mode its owner is one the caller can read: the legacy API (the
   * facade's key) is asked only then.
   */
  @FieldResolver(() => WorkContract, { nullable: true, description: "The legacy work contract of this employment (same id)." })
  workContract(@Root() employment: RestEmployment, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    return contractOfEmployment(ctx, employment);
  }
}
