import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { PageArgs, listConnection, requiredId, translate, Translation, translations, type SubgraphContext } from "../../shared/graphql/index.js";
import { LegalEntity } from "../legal-entity/legal-entity.js";
import { employmentTemplateLoader, legalEntityLoader } from "../loaders.js";
import { loadEvery } from "../../shared/upstream/index.js";
import type { RestEmploymentTemplate, RestLegalEntity } from "../rest.js";
import { EmploymentTemplate, EmploymentTemplateConnection } from "./employment-template.js";

@Resolver(() => EmploymentTemplate)
export class EmploymentTemplateResolver {
  @Query(() => EmploymentTemplate, {
    nullable: true,
    description: "One employment template; null when it does not exist. One call, shared with every other template the operation reads.",
  })
  employmentTemplate(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestEmploymentTemplate | null> {
    return employmentTemplateLoader(ctx).load(requiredId(id));
  }

  @Query(() => EmploymentTemplateConnection, { nullable: true, description: "Employment templates, ordered by id (the list has no filters)." })
  employmentTemplates(
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return listConnection(ctx, info, "/employment-templates", {}, page, employmentTemplateLoader(ctx));
  }

  @FieldResolver(() => String, { description: "The title in `lang` (e.g. fr-FR) when translated, else the invariant title." })
  title(
    @Root() template: RestEmploymentTemplate,
    @Arg("lang", () => String, { nullable: true, description: "IETF language tag" }) lang: string | null,
  ): string {
    return translate(template.title, template.t9n, "title", lang);
  }

  @FieldResolver(() => [Translation])
  titleTranslations(@Root() template: RestEmploymentTemplate): Translation[] {
    return translations(template.t9n, "title");
  }

  @FieldResolver(() => [LegalEntity], { nullable: true, description: "The legal entities that use this template." })
  async legalEntities(@Root() template: RestEmploymentTemplate, @Ctx() ctx: SubgraphContext): Promise<RestLegalEntity[]> {
    const entities = await loadEvery(legalEntityLoader(ctx), (template.legalEntities ?? []).map((ref) => ref.id));
    // a reference the caller cannot resolve (stale or deleted) is left out rather than failing the list
    return entities.filter((entity): entity is RestLegalEntity => entity !== null);
  }
}
