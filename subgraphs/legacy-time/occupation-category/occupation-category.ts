import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * An occupation category (owned by the organisation subgraph), named by id in legacy payloads; legacy-time
 * returns it by key only (WorkContract.occupationCategory and LegacyUser.occupationCategory) and the organisation subgraph resolves the rest.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class OccupationCategory {
  @Field(() => ID)
  id!: string;
}
