import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { PageArgs, filterArgs, type FilterArgs, ALPHA3_COUNTRY_CODE, RestFilter, childConnection, listConnection, requiredId, type SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishmentConnection } from "../business-establishment/business-establishment.js";
import { EmploymentTemplate } from "../employment-template/employment-template.js";
import { establishmentsOfLegalEntity } from "../edges.js";
import { employmentTemplateLoader, legalEntityLoader } from "../loaders.js";
import type { RestEmploymentTemplate, RestLegalEntity } from "../rest.js";
import { LegalEntity, LegalEntityConnection, LegalEntityFilter } from "./legal-entity.js";

const LegalEntityListArgs = filterArgs(LegalEntityFilter);

@Resolver(() => LegalEntity)
export class LegalEntityResolver {
  @Query(() => LegalEntity, { nullable: true, description: "One legal entity; null when it does not exist." })
  legalEntity(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestLegalEntity | null> {
    return legalEntityLoader(ctx).load(requiredId(id));
  }

  @Query(() => LegalEntityConnection, { nullable: true, description: "Legal entities, ordered by id." })
  legalEntities(
    @Args(() => LegalEntityListArgs) { filter, first, after }: FilterArgs<LegalEntityFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter()
      .strings("countryCode", "countryCodes", filter?.countryCodes, { pattern: ALPHA3_COUNTRY_CODE })
      .boolean("isArchived", filter?.isArchived).query;
    return listConnection(ctx, info, "/legal-entities", query, { first, after }, legalEntityLoader(ctx));
  }

  @FieldResolver(() => [EmploymentTemplate], { nullable: true, description: "The employment templates this legal entity uses, ordered by id." })
  async employmentTemplates(@Root() entity: RestLegalEntity, @Ctx() ctx: SubgraphContext): Promise<RestEmploymentTemplate[]> {
    // the template list has no filter: it is read whole once per request and serves every legal entity
    const templates = await employmentTemplateLoader(ctx).all();
    return templates.filter((t) => (t.legalEntities ?? []).some((ref) => ref.id === entity.id));
  }

  @FieldResolver(() => BusinessEstablishmentConnection, { nullable: true, description: "The establishments of this legal entity, ordered by id." })
  businessEstablishments(
    @Root() entity: RestLegalEntity,
    @Arg("isArchived", () => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
    isArchived: boolean | null,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return childConnection(ctx, info, establishmentsOfLegalEntity, entity.id, page, { isArchived: isArchived ?? undefined });
  }
}
