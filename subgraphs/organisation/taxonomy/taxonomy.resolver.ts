import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { PageArgs, filterArgs, type FilterArgs, RestFilter, childConnection, listConnection, requiredId, translate, Translation, translations, type SubgraphContext } from "../../shared/graphql/index.js";
import { labelsOfTaxonomy } from "../edges.js";
import { taxonomyLoader } from "../loaders.js";
import type { RestTaxonomy } from "../rest.js";
import { labelQuery } from "../taxonomy-label/taxonomy-label.resolver.js";
import { TaxonomyLabelConnection, TaxonomyLabelSort } from "../taxonomy-label/taxonomy-label.js";
import { Taxonomy, TaxonomyConnection, TaxonomyFilter } from "./taxonomy.js";

/** The list sort that a taxonomy's `sortLabelsBy` asks for, when the list can sort that way. */
const SORT_OF_SORT_LABELS_BY: Record<string, TaxonomyLabelSort> = {
  name: TaxonomyLabelSort.NAME_ASC,
  // the `id` order of labels is their creation order
  id: TaxonomyLabelSort.ID_ASC,
};

const TaxonomyListArgs = filterArgs(TaxonomyFilter);

@Resolver(() => Taxonomy)
export class TaxonomyResolver {
  @Query(() => Taxonomy, {
    nullable: true,
    description: "One taxonomy; null when it does not exist. One call, shared with every other taxonomy the operation reads.",
  })
  taxonomy(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestTaxonomy | null> {
    return taxonomyLoader(ctx).load(requiredId(id));
  }

  @Query(() => TaxonomyConnection, { nullable: true, description: "Taxonomies, ordered by id." })
  taxonomies(
    @Args(() => TaxonomyListArgs) { filter, first, after }: FilterArgs<TaxonomyFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().search("search", "search", filter?.search, { trim: true }).query;
    return listConnection(ctx, info, "/taxonomies", query, { first, after }, taxonomyLoader(ctx));
  }

  @FieldResolver(() => String, { description: "The name in `lang` (e.g. fr-FR) when translated, else the invariant name." })
  name(@Root() taxonomy: RestTaxonomy, @Arg("lang", () => String, { nullable: true, description: "IETF language tag" }) lang: string | null): string {
    return translate(taxonomy.name, taxonomy.t9n, "name", lang);
  }

  @FieldResolver(() => [Translation])
  nameTranslations(@Root() taxonomy: RestTaxonomy): Translation[] {
    return translations(taxonomy.t9n, "name");
  }

  @FieldResolver(() => TaxonomyLabelConnection, {
    nullable: true,
    description: "The labels of this taxonomy, in `sort` order; without `sort`, in the order the taxonomy's `sortLabelsBy` names.",
  })
  labels(
    @Root() taxonomy: RestTaxonomy,
    @Arg("search", () => String, { nullable: true, description: "Name search: every word must start a word of the name." })
    search: string | null,
    @Arg("isArchived", () => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
    isArchived: boolean | null,
    @Arg("sort", () => [TaxonomyLabelSort], { nullable: true }) sort: TaxonomyLabelSort[] | null,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const fallback = SORT_OF_SORT_LABELS_BY[taxonomy.sortLabelsBy];
    const order = sort && sort.length > 0 ? sort : fallback ? [fallback] : null;
    return childConnection(ctx, info, labelsOfTaxonomy, taxonomy.id, page, labelQuery(search, isArchived, order));
  }
}
