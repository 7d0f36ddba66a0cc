import { Directive, Field, ID, ObjectType } from "type-graphql";

/** A business establishment (owned by the organisation subgraph); people contributes its employees. */
@ObjectType()
@Directive('@key(fields: "id")')
export class BusinessEstablishment {
  @Field(() => ID)
  id!: string;
}
