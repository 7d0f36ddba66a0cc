import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { listArgs, type ListArgs, RestFilter, listConnection, requiredId, restSort, translate, Translation, translations, type SubgraphContext } from "../../shared/graphql/index.js";
import { taxonomyLabelLoader, taxonomyLoader } from "../loaders.js";
import type { RestTaxonomy, RestTaxonomyLabel } from "../rest.js";
import { Taxonomy } from "../taxonomy/taxonomy.js";
import { TaxonomyLabel, TaxonomyLabelConnection, TaxonomyLabelFilter, TaxonomyLabelSort } from "./taxonomy-label.js";

const TaxonomyLabelListArgs = listArgs(TaxonomyLabelFilter, TaxonomyLabelSort);

@Resolver(() => TaxonomyLabel)
export class TaxonomyLabelResolver {
  @Query(() => TaxonomyLabel, { nullable: true, description: "One taxonomy label; null when it does not exist." })
  taxonomyLabel(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestTaxonomyLabel | null> {
    return taxonomyLabelLoader(ctx).load(requiredId(id));
  }

  @Query(() => TaxonomyLabelConnection, { nullable: true, description: "Taxonomy labels, ordered by `sort` (default: creation order)." })
  taxonomyLabels(
    @Args(() => TaxonomyLabelListArgs) { filter, sort, first, after }: ListArgs<TaxonomyLabelFilter, TaxonomyLabelSort>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = {
      ...new RestFilter().strings("taxonomy.id", "taxonomyIds", filter?.taxonomyIds).query,
      ...labelQuery(filter?.search, filter?.isArchived, sort, "filter"),
    };
    return listConnection(ctx, info, "/taxonomy-labels", query, { first, after }, taxonomyLabelLoader(ctx));
  }

  @FieldResolver(() => Taxonomy, { nullable: true, description: "The taxonomy this label belongs to." })
  taxonomy(@Root() label: RestTaxonomyLabel, @Ctx() ctx: SubgraphContext): Promise<RestTaxonomy | null> | null {
    const id = label.taxonomy?.id;
    return id ? taxonomyLoader(ctx).load(id) : null;
  }

  @FieldResolver(() => String, { description: "The name in `lang` (e.g. fr-FR) when translated, else the invariant name." })
  name(@Root() label: RestTaxonomyLabel, @Arg("lang", () => String, { nullable: true, description: "IETF language tag" }) lang: string | null): string {
    return translate(label.name, label.t9n, "name", lang);
  }

  @FieldResolver(() => [Translation])
  nameTranslations(@Root() label: RestTaxonomyLabel): Translation[] {
    return translations(label.t9n, "name");
  }
}

/**
 * The query of a label list: search, archival and `sort` (each key at most once). `argument`
 * names where the arguments sit (`filter` on the root list, none on `Taxonomy.labels`), for error
 * messages.
 */
export function labelQuery(
  search: string | null | undefined,
  isArchived: boolean | null | undefined,
  sort: readonly TaxonomyLabelSort[] | null | undefined,
  argument = "",
): Record<string, string> {
  return {
    ...new RestFilter(argument).search("search", "search", search, { trim: true }).boolean("isArchived", isArchived).query,
    ...restSort(sort),
  };
}
