import { Directive, Field, ID, ObjectType } from "type-graphql";

/** A job qualification (owned by the organisation subgraph); people contributes its job positions. */
@ObjectType()
@Directive('@key(fields: "id")')
export class JobQualification {
  @Field(() => ID)
  id!: string;
}
