import { Directive, Field, ID, ObjectType } from "type-graphql";

/** An employment template (owned by the organisation subgraph); people contributes the employments made from it. */
@ObjectType()
@Directive('@key(fields: "id")')
export class EmploymentTemplate {
  @Field(() => ID)
  id!: string;
}
