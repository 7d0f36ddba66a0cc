import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * Owned by the organisation subgraph; people only points at it (`EmployeeAttribute.taxonomyLabels`)
 * and the gateway resolves the rest of the label there, in one `_entities` fetch per operation step.
 */
@ObjectType()
@Directive('@key(fields: "id", resolvable: false)')
export class TaxonomyLabel {
  @Field(() => ID)
  id!: string;
}
