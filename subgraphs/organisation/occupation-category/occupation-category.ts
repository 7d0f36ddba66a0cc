import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { connectionType, DateTimeScalar } from "../../shared/graphql/index.js";

@ObjectType("OccupationCategory", { description: "A socio-professional category of job positions." })
@Directive('@key(fields: "id")')
export class OccupationCategory {
  @Field(() => ID)
  id!: string;

  @Field(() => DateTimeScalar, { nullable: true })
  createdAt!: string | null;

  @Field(() => DateTimeScalar, { nullable: true })
  lastUpdatedAt!: string | null;
}

export const OccupationCategoryConnection = connectionType("OccupationCategory", OccupationCategory);

@InputType("OccupationCategoryFilter", { description: "Filters of the occupation-category list; all given filters apply together." })
export class OccupationCategoryFilter {
  @Field(() => [ID], {
    nullable: true,
    description: "Establishment ids (at most 100): `businessEstablishments.id`. Categories valid for all establishments always match.",
  })
  businessEstablishmentIds?: string[] | null;

  @Field(() => String, { nullable: true, description: "Case-insensitive partial match of the title." })
  search?: string | null;
}
