import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { LocalDateTimeScalar, formerName, replacedByEdge } from "../../shared/graphql/index.js";
import { WorkContractMembers } from "../../shared/legacy/work-contract-members.js";

/**
 * A legacy work contract (`/directory/api/4.0/work-contracts`), the legacy side of an employment:
 * it carries the employment's id. Fields read as the REST payload names them; the owner,
 * establishment and the people named by id are references (work-contract.resolver.ts). The members
 * people serves on `Employment.workContract` (read in its own fetch) are `@shareable`, declared
 * once for both subgraphs (subgraphs/shared/legacy/work-contract-members.ts).
 */
@ObjectType({ description: "A legacy work contract: the legacy view of an employment, with the same id." })
@Directive('@key(fields: "id")')
export class WorkContract extends WorkContractMembers {
  @Field(() => Int, replacedByEdge("template"))
  typeId!: number;

  @Field(() => Int, { nullable: true, ...replacedByEdge("hiringType") })
  hiringTypeId!: number | null;

  @Field(() => Int, { nullable: true, ...replacedByEdge("terminationReason") })
  terminationReasonId!: number | null;

  @Field(() => Int, { nullable: true, ...replacedByEdge("temporaryContractGround") })
  temporaryContractGroundId!: number | null;

  @Field(() => LocalDateTimeScalar, formerName("lastUpdatedAt", "every last change is `lastUpdatedAt` in the graph."))
  lastModifiedAt!: string;
}

@InputType({ description: "Filters of the legacy work-contract list; all given filters apply together. An empty id list matches nothing." })
export class WorkContractFilter {
  @Field(() => [ID], { nullable: true, description: "The owners (employee ids, legacy integers), at most 100." })
  ownerIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: "The work-contract templates (employment template ids, legacy `typeId`), at most 100." })
  typeIds?: string[] | null;

  @Field(() => [ID], {
    nullable: true,
    description: "The establishments (business establishment ids, legacy `establishmentId`), at most 100; not on BusinessEstablishment.workContracts.",
  })
  establishmentIds?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: "Only each employee's applicable contract (true) or only the others (false); null: both." })
  isApplicable?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: "Only archived contracts (ended, of an employee with no employment today or to come) or only the others; null: both, as the list does.",
  })
  isArchived?: boolean | null;
}
