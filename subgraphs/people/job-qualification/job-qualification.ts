import { Directive, Field, ID, ObjectType } from "type-graphql";

/** Owned by the organisation subgraph; people only points at it. */
@ObjectType()
@Directive('@key(fields: "id", resolvable: false)')
export class JobQualification {
  @Field(() => ID)
  id!: string;
}
