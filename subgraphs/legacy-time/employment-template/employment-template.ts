import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * An employment template (owned by the organisation subgraph), named by id in legacy payloads; legacy-time
 * returns it by key only (WorkContract.template) and the organisation subgraph resolves the rest.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class EmploymentTemplate {
  @Field(() => ID)
  id!: string;
}
