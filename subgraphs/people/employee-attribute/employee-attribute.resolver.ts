import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Query, Resolver, Root } from "type-graphql";
import { listConnection, translate, translations, Translation, type SubgraphContext, referenceTo, selectsBeyondKey, entityRef } from "../../shared/graphql/index.js";
import { listQuery } from "../../shared/graphql/index.js";
import { Employee } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { JobPosition } from "../job-position/job-position.js";
import { attributeLoader, employeeLoaderFor, employmentLoader, jobPositionLoader, type AttributeNode } from "../loaders.js";
import type { RestEmployeeAttributeDefinition } from "../rest.js";
import { Taxonomy } from "../taxonomy/taxonomy.js";
import { TaxonomyLabel } from "../taxonomy/taxonomy-label.js";
import { readsDefinitionDetails } from "./definition-selection.js";
import {
  EmployeeAttribute,
  EmployeeAttributeConnection,
  EmployeeAttributeDefinition,
  EmployeeAttributeListArgs,
  employeeAttributeQuery,
} from "./employee-attribute.js";
import { ErrorCode, codedError } from "../../../platform/error-codes.js";

type DefinitionNode = RestEmployeeAttributeDefinition | { id: string };

@Resolver(() => EmployeeAttribute)
export class EmployeeAttributeResolver {
  @Query(() => EmployeeAttribute, { nullable: true, description: "One attribute value; null when it does not exist or is not visible." })
  employeeAttribute(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return attributeLoader(ctx, readsDefinitionDetails(info)).load(id);
  }

  @Query(() => EmployeeAttributeConnection, { nullable: true, description: "Employee attribute values, a page at a time." })
  employeeAttributes(
    @Args(() => EmployeeAttributeListArgs) args: EmployeeAttributeListArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // the page itself carries no definitions: `definition` loads them for the whole page at once
    const query = listQuery(args, employeeAttributeQuery);
    return listConnection(ctx, info, "/employee-attributes", query, args);
  }

  /**
   * The definition embedded with the attribute when it was read with them; otherwise, when more
   * than the id is asked, the attributes are read again with their definitions, one call per
   * 100 attributes of the operation.
   */
  @FieldResolver(() => EmployeeAttributeDefinition, { nullable: true })
  async definition(@Root() attribute: AttributeNode, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<DefinitionNode> {
    if (attribute.definitionDetails) return attribute.definitionDetails;
    if (!selectsBeyondKey(info)) return { id: attribute.definition.id };
    // undefined: the attribute was read without its definition; null: the embedding lacked it
    const details = attribute.definitionDetails === undefined ? (await attributeLoader(ctx, true).load(attribute.id))?.definitionDetails : null;
    if (!details) {
      throw codedError(ErrorCode.UPSTREAM_UNAVAILABLE, `The directory did not return the definition ${attribute.definition.id} of attribute ${attribute.id}`);
    }
    return details;
  }

  /**
   * The labels the value names, by the rule of taxonomy-labels.ts, from the read that embedded the
   * definition; an attribute read without it is read again with it, one call per 100 attributes
   * of the operation. People answers references; the gateway reads the labels from organisation.
   */
  @FieldResolver(() => [TaxonomyLabel], {
    nullable: true,
    description:
      "The taxonomy labels the value names, when the definition is linked to a taxonomy: a string value is a label id, an object value names its `id`, a list value each of its entries. Only labels of the definition's taxonomy that the caller may read; each once, in the value's order. Null when the definition has no taxonomy.",
  })
  async taxonomyLabels(@Root() attribute: AttributeNode, @Ctx() ctx: SubgraphContext): Promise<Array<{ id: string }> | null> {
    const node = attribute.labelIds !== undefined ? attribute : await attributeLoader(ctx, true).load(attribute.id);
    if (!node || node.labelIds === undefined || !node.definitionDetails) {
      throw codedError(ErrorCode.UPSTREAM_UNAVAILABLE, `The directory did not return the definition ${attribute.definition.id} of attribute ${attribute.id}`);
    }
    return node.labelIds?.map((id) => ({ id })) ?? null;
  }

  @FieldResolver(() => Employee, { nullable: true })
  employee(@Root() attribute: AttributeNode, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(attribute.employee, info, (id) => employeeLoaderFor(ctx, info).load(id));
  }

  @FieldResolver(() => Employment, { nullable: true, description: "The employment the value originates from, if any." })
  employment(@Root() attribute: AttributeNode, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(attribute.employment, info, (id) => employmentLoader(ctx).load(id));
  }

  @FieldResolver(() => JobPosition, { nullable: true, description: "The job position the value originates from, if any." })
  jobPosition(@Root() attribute: AttributeNode, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo) {
    return referenceTo(attribute.jobPosition, info, (id) => jobPositionLoader(ctx).load(id));
  }
}

@Resolver(() => EmployeeAttributeDefinition)
export class EmployeeAttributeDefinitionResolver {
  @FieldResolver(() => String, { description: "The name in `lang` when translated, else the invariant name." })
  name(
    @Root() definition: RestEmployeeAttributeDefinition,
    @Arg("lang", () => String, { nullable: true, description: "IETF language tag, e.g. fr-FR" }) lang: string | null,
  ): string {
    return translate(definition.name, definition.t9n, "name", lang);
  }

  @FieldResolver(() => [Translation])
  nameTranslations(@Root() definition: RestEmployeeAttributeDefinition): Translation[] {
    return translations(definition.t9n, "name");
  }

  @FieldResolver(() => Taxonomy, { nullable: true, description: "The taxonomy whose labels the values name, if any." })
  taxonomy(@Root() definition: RestEmployeeAttributeDefinition) {
    return entityRef(definition.taxonomy);
  }
}
