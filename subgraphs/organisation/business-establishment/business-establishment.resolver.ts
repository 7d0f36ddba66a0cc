import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { filterArgs, type FilterArgs, RestFilter, listConnection, requiredId, type SubgraphContext } from "../../shared/graphql/index.js";
import { LegalEntity } from "../legal-entity/legal-entity.js";
import { businessEstablishmentLoader, establishmentEmbeds, legalEntityLoader, occupationCategoryLoader } from "../loaders.js";
import { OccupationCategory } from "../occupation-category/occupation-category.js";
import type { RestBusinessEstablishment, RestLegalEntity, RestOccupationCategory } from "../rest.js";
import { BusinessEstablishment, BusinessEstablishmentConnection, BusinessEstablishmentFilter } from "./business-establishment.js";

const BusinessEstablishmentListArgs = filterArgs(BusinessEstablishmentFilter);

@Resolver(() => BusinessEstablishment)
export class BusinessEstablishmentResolver {
  @Query(() => BusinessEstablishment, { nullable: true, description: "One business establishment; null when it does not exist." })
  businessEstablishment(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestBusinessEstablishment | null> {
    return businessEstablishmentLoader(ctx).load(requiredId(id));
  }

  @Query(() => BusinessEstablishmentConnection, { nullable: true, description: "Business establishments, ordered by id." })
  businessEstablishments(
    @Args(() => BusinessEstablishmentListArgs) { filter, first, after }: FilterArgs<BusinessEstablishmentFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter()
      .strings("legalEntity.id", "legalEntityIds", filter?.legalEntityIds)
      .search("search", "search", filter?.search, { trim: true })
      .boolean("isArchived", filter?.isArchived).query;
    return listConnection(ctx, info, "/business-establishments", query, { first, after }, businessEstablishmentLoader(ctx), undefined, establishmentEmbeds(ctx));
  }

  @FieldResolver(() => [OccupationCategory], {
    nullable: true,
    description: "The occupation categories valid in this establishment, those valid in every establishment included; ordered by id.",
  })
  async occupationCategories(@Root() establishment: RestBusinessEstablishment, @Ctx() ctx: SubgraphContext): Promise<RestOccupationCategory[]> {
    // reference data, read whole once per request: one call serves every establishment of the operation
    const categories = await occupationCategoryLoader(ctx).all();
    return categories.filter((c) => c.businessEstablishments === null || c.businessEstablishments.some((ref) => ref.id === establishment.id));
  }

  @FieldResolver(() => LegalEntity, { nullable: true, description: "The legal entity this establishment belongs to." })
  legalEntity(@Root() establishment: RestBusinessEstablishment, @Ctx() ctx: SubgraphContext): Promise<RestLegalEntity | null> | null {
    const id = establishment.legalEntity?.id;
    return id ? legalEntityLoader(ctx).load(id) : null;
  }
}
