import { Directive, Field, ObjectType } from "type-graphql";
import { LocalDateTimeScalar } from "../../shared/graphql/index.js";
import { WorkContractMembers } from "../../shared/legacy/work-contract-members.js";

/**
 * A legacy work contract (owned by legacy-time), as people serves it on `Employment.workContract`:
 * its key and the members a contract writes as they are, read in the people fetch itself
 * (docs/performance.md#what-a-company-router-gets). They are `@shareable` (legacy-time's too) rather than
 * `@external` and provided: Hive's JS planner ignores `@provides`, and sent people a second fetch
 * for them. The key is not resolvable here, so no plan enters people for a contract: people serves
 * them below `Employment.workContract` and for the contracts `node`/`nodes` answer
 * (work-contract.reference.ts); any other field of the contract comes from legacy-time by the key.
 * The shared members are declared once for both subgraphs
 * (subgraphs/shared/legacy/work-contract-members.ts).
 */
@ObjectType()
@Directive('@key(fields: "id", resolvable: false)')
export class WorkContract extends WorkContractMembers {
  @Field(() => LocalDateTimeScalar, { name: "lastUpdatedAt" })
  @Directive("@shareable")
  lastModifiedAt!: string;
}
