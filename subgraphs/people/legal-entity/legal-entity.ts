import { Directive, Field, ID, ObjectType } from "type-graphql";

/** A legal entity (owned by the organisation subgraph); people contributes its employments. */
@ObjectType()
@Directive('@key(fields: "id")')
export class LegalEntity {
  @Field(() => ID)
  id!: string;
}
