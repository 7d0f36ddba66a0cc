import type { GraphQLResolveInfo } from "graphql";
import { FileReference, fileReference } from "../employee/file-reference.js";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { listConnection, translate, translations, Translation, type SubgraphContext, referenceTo, entityRef } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { listQuery } from "../../shared/graphql/index.js";
import { Department } from "../department/department.js";
import { Employee } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { JobQualification } from "../job-qualification/job-qualification.js";
import { employeeLoaderFor, employmentLoader, jobPositionLoader } from "../loaders.js";
import { OccupationCategory } from "../occupation-category/occupation-category.js";
import type { RestJobPosition } from "../rest.js";
import {
  JobPosition,
  JobPositionAttribute,
  JobPositionConnection,
  JobPositionListArgs,
  jobPositionQuery,
  WorkingTimeArrangement,
} from "./job-position.js";

@Resolver(() => JobPosition)
export class JobPositionResolver {
  @Query(() => JobPosition, { nullable: true, description: "One job position; null when it does not exist or is not visible." })
  jobPosition(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestJobPosition | null> {
    return jobPositionLoader(ctx).load(id);
  }

  @Query(() => JobPositionConnection, { nullable: true, description: "Job positions, a page at a time." })
  jobPositions(@Args(() => JobPositionListArgs) args: JobPositionListArgs, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return listConnection(ctx, info, "/job-positions", listQuery(args, jobPositionQuery), args);
  }

  @FieldResolver(() => Employment, { nullable: true })
  employment(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(position.employment, info, (id) => employmentLoader(ctx).load(id));
  }

  @FieldResolver(() => Employee, { nullable: true })
  employee(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(position.employee, info, (id) => employeeLoaderFor(ctx, info).load(id));
  }

  @FieldResolver(() => Employee, { nullable: true })
  manager(@Root() position: RestJobPosition, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(position.manager, info, (id) => employeeLoaderFor(ctx, info).load(id));
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
