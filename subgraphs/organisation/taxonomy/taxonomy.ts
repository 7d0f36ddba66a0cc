import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { connectionType, DateTimeScalar } from "../../shared/graphql/index.js";

@ObjectType("Taxonomy", { description: "A named set of labels (cost centres, skills...) that attributes can take." })
@Directive('@key(fields: "id")')
export class Taxonomy {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The label property the taxonomy sorts its labels by: `id` (creation order) or `name`." })
  sortLabelsBy!: string;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const TaxonomyConnection = connectionType("Taxonomy", Taxonomy);

@InputType("TaxonomyFilter", { description: "Filters of the taxonomy list; all given filters apply together." })
export class TaxonomyFilter {
  @Field(() => String, { nullable: true, description: "Name search: every word must start a word of the name." })
  search?: string | null;
}
