import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * A legal entity (owned by the organisation subgraph), named by id in legacy payloads; legacy-time
 * returns it by key only (LegacyEstablishment.legalEntity) and the organisation subgraph resolves the rest.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class LegalEntity {
  @Field(() => ID)
  id!: string;
}
