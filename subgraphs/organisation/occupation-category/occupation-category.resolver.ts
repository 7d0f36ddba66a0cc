import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { filterArgs, type FilterArgs, RestFilter, listConnection, requiredId, badUserInput, translate, Translation, translations, type SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { businessEstablishmentLoader, occupationCategoryLoader } from "../loaders.js";
import { loadEvery } from "../../shared/upstream/index.js";
import type { RestBusinessEstablishment, RestOccupationCategory } from "../rest.js";
import { OccupationCategory, OccupationCategoryConnection, OccupationCategoryFilter } from "./occupation-category.js";

const OccupationCategoryListArgs = filterArgs(OccupationCategoryFilter);

@Resolver(() => OccupationCategory)
export class OccupationCategoryResolver {
  @Query(() => OccupationCategory, { nullable: true, description: "One occupation category; null when it does not exist." })
  occupationCategory(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestOccupationCategory | null> {
    return occupationCategoryLoader(ctx).load(requiredId(id));
  }

  @Query(() => OccupationCategoryConnection, { nullable: true, description: "Occupation categories, ordered by id." })
  occupationCategories(
    @Args(() => OccupationCategoryListArgs) { filter, first, after }: FilterArgs<OccupationCategoryFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = {
      ...new RestFilter().strings("businessEstablishments.id", "businessEstablishmentIds", filter?.businessEstablishmentIds).query,
      search: titleSearch(filter?.search),
    };
    return listConnection(ctx, info, "/occupation-categories", query, { first, after }, occupationCategoryLoader(ctx));
  }

  @FieldResolver(() => String, { description: "The title in `lang` (e.g. fr-FR) when translated, else the invariant title." })
  title(
    @Root() category: RestOccupationCategory,
    @Arg("lang", () => String, { nullable: true, description: "IETF language tag" }) lang: string | null,
  ): string {
    return translate(category.title, category.t9n, "title", lang);
  }

  @FieldResolver(() => [Translation])
  titleTranslations(@Root() category: RestOccupationCategory): Translation[] {
    return translations(category.t9n, "title");
  }

  @FieldResolver(() => [BusinessEstablishment], {
    nullable: true,
    description: "The establishments this category is valid for; null means every establishment, including future ones.",
  })
  async businessEstablishments(@Root() category: RestOccupationCategory, @Ctx() ctx: SubgraphContext): Promise<RestBusinessEstablishment[] | null> {
    if (category.businessEstablishments === null || category.businessEstablishments === undefined) return null;
    const establishments = await loadEvery(businessEstablishmentLoader(ctx), category.businessEstablishments.map((ref) => ref.id));
    return establishments.filter((e): e is RestBusinessEstablishment => e !== null);
  }
}

/** The title search is a partial match, not the word-prefix search of names: any non-blank text. */
function titleSearch(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === "") throw badUserInput("filter.search must not be blank", "filter.search");
  if (text.length > 255) throw badUserInput("filter.search must be at most 255 characters", "filter.search");
  return text;
}
