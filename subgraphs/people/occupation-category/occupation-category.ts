import { Directive, Field, ID, ObjectType } from "type-graphql";

/** An occupation category (owned by the organisation subgraph); people contributes its job positions. */
@ObjectType()
@Directive('@key(fields: "id")')
export class OccupationCategory {
  @Field(() => ID)
  id!: string;
}
