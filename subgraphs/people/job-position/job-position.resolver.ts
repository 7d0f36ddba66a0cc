import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { restConnection, selects, translate, translations, Translation, type SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { restSort } from "../common/filter.js";
import { entityRef, FileReference, fileReference } from "../common/values.js";
import { Department } from "../department/department.js";
import { Employee } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { JobQualification } from "../job-qualification/job-qualification.js";
import { employeeLoader, employmentLoader, jobPositionLoader } from "../loaders.js";
import { OccupationCategory } from "../occupation-category/occupation-category.js";
import type { RestEmployee, RestEmployment, RestJobPosition } from "../rest.js";
import {
  JobPosition,
  JobPositionAttribute,
  JobPositionConnection,
  JobPositionFilter,
  jobPositionQuery,
  JobPositionSort,
  WorkingTimeArrangement,
} from "./job-position.js";

@Resolver(() => JobPosition)
export class JobPositionResolver {
  @Query(() => JobPosition, { nullable: true, description: "One job position; null when it does not exist or is not visible." })
  jobPosition(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestJobPosition | null> {
    return jobPositionLoader(ctx).load(id);
  }

  @Query(() => JobPositionConnection, { description: "Job positions, a page at a time." })
  jobPositions(
    @Arg("filter", () => JobPositionFilter, { nullable: true }) filter: JobPositionFilter | null,
    @Arg("sort", () => [JobPositionSort], { nullable: true }) sort: JobPositionSort[] | null,
    @Arg("first", () => Int, { nullable: true, description: "0 to 100, default 25" }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = { ...jobPositionQuery(filter), ...restSort(sort) };
    return restConnection(ctx.upstream, "/job-positions", query, { first, after }, { totalCount: selects(info, "totalCount") });
  }

  @FieldResolver(() => Employment)
  employment(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext): Promise<RestEmployment | null> {
    return employmentLoader(ctx).load(position.employment.id);
  }

  @FieldResolver(() => Employee)
  employee(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> {
    return employeeLoader(ctx).load(position.employee.id);
  }

  @FieldResolver(() => Employee, { nullable: true })
  manager(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext): Promise<RestEmployee | null> | null {
    return position.manager ? employeeLoader(ctx).load(position.manager.id) : null;
  }

  @FieldResolver(() => String, { description: "The job title in `lang` when translated, else the invariant title." })
  jobTitle(
    @Root() position: RestJobPosition,
    @Arg("lang", () => String, { nullable: true, description: "IETF language tag, e.g. fr-FR" }) lang: string | null,
  ): string {
    return translate(position.jobTitle, position.t9n, "jobTitle", lang);
  }

  @FieldResolver(() => [Translation])
  jobTitleTranslations(@Root() position: RestJobPosition): Translation[] {
    return translations(position.t9n, "jobTitle");
  }

  @FieldResolver(() => [JobPositionAttribute], { description: "Attributes changed since the employee's previous job position." })
  updatedAttributes(@Root() position: RestJobPosition): string[] {
    return position.updatedAttributes ?? [];
  }

  @FieldResolver(() => Department, { nullable: true })
  department(@Root() position: RestJobPosition) {
    return entityRef(position.department);
  }

  @FieldResolver(() => BusinessEstablishment, { nullable: true })
  businessEstablishment(@Root() position: RestJobPosition) {
    return entityRef(position.businessEstablishment);
  }

  @FieldResolver(() => JobQualification, { nullable: true })
  jobQualification(@Root() position: RestJobPosition) {
    return entityRef(position.jobQualification);
  }

  @FieldResolver(() => OccupationCategory, { nullable: true })
  occupationCategory(@Root() position: RestJobPosition) {
    return entityRef(position.occupationCategory);
  }

  @FieldResolver(() => WorkingTimeArrangement, { nullable: true })
  workingTimeArrangement(@Root() position: RestJobPosition) {
    return entityRef(position.workingTimeArrangement);
  }

  @FieldResolver(() => FileReference, { nullable: true })
  document(@Root() position: RestJobPosition): FileReference | null {
    return fileReference(position.document);
  }
}
