import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * An employment (owned by the people subgraph), which its legacy work contract names by the same
 * id; legacy-time returns it by key only (WorkContract.employment) and the people subgraph
 * resolves the rest. `Employment.workContract` is people's: it reads the contract in its own
 * fetch (subgraphs/shared/legacy/work-contracts.ts), so no router waits for a legacy-time fetch after it.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Employment {
  @Field(() => ID)
  id!: string;
}
