import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateTimeScalar, JSONScalar } from "../../shared/graphql/index.js";

@ObjectType("TaxonomyLabel", { description: "One label of a taxonomy." })
@Directive('@key(fields: "id")')
export class TaxonomyLabel {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true, description: "Identifier in a third-party system." })
  remoteId!: string | null;

  @Field(() => JSONScalar, { description: "JSON Schema of the resources this label applies to." })
  applicabilitySchema!: Record<string, unknown>;

  @Field(() => Boolean)
  isArchived!: boolean;

  @Field(() => DateTimeScalar, { nullable: true, description: "Last time the label was archived." })
  lastArchivedAt!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const TaxonomyLabelConnection = connectionType("TaxonomyLabel", TaxonomyLabel);

/** REST `sort` of `/taxonomy-labels`: `id` (creation order) or `name`, `-` for descending. */
export enum TaxonomyLabelSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  NAME_ASC = "name",
  NAME_DESC = "-name",
}
registerEnumType(TaxonomyLabelSort, { name: "TaxonomyLabelSort", description: "Order of taxonomy labels; ID is the creation order." });

@InputType("TaxonomyLabelFilter", { description: "Filters of the taxonomy-label list; all given filters apply together." })
export class TaxonomyLabelFilter {
  @Field(() => [ID], { nullable: true, description: "Taxonomy ids (at most 100): `taxonomy.id`." })
  taxonomyIds?: string[] | null;

  @Field(() => String, { nullable: true, description: "Name search: every word must start a word of the name." })
  search?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
  isArchived?: boolean | null;
}
