import { Directive, Field, ID, ObjectType } from "type-graphql";

/** A department of the organisation (owned by the organisation subgraph); people contributes its employees. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Department {
  @Field(() => ID)
  id!: string;
}
