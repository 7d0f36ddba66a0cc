import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { DateScalar, LocalDateTimeScalar } from "../../shared/graphql/index.js";

/**
 * A legacy work contract (owned by legacy-time), as people serves it on `Employment.workContract`:
 * its key and the members a contract writes as they are, read in the people fetch itself
 * (docs/graph.md#what-a-company-router-gets). They are `@shareable` (legacy-time's too) rather than
 * `@external` and provided: Hive's JS planner ignores `@provides`, and sent people a second fetch
 * for them. The key is not resolvable here, so no plan enters people for a contract: people serves
 * them below `Employment.workContract` and for the contracts `node`/`nodes` answer
 * (work-contract.reference.ts); any other field of the contract comes from legacy-time by the key.
 * Types as legacy-time declares them; the descriptions are the shared catalogue's
 * (subgraphs/shared/graphql/descriptions.ts).
 */
@ObjectType()
@Directive('@key(fields: "id", resolvable: false)')
export class WorkContract {
  @Field(() => ID)
  id!: number;

  @Field(() => String, { nullable: true })
  @Directive("@shareable")
  externalId!: string | null;

  @Field(() => DateScalar)
  @Directive("@shareable")
  startsOn!: string;

  @Field(() => DateScalar, { nullable: true })
  @Directive("@shareable")
  endsOn!: string | null;

  @Field(() => Boolean)
  @Directive("@shareable")
  isApplicable!: boolean;

  @Field(() => Int, { nullable: true })
  @Directive("@shareable")
  trialPeriodDays!: number | null;

  @Field(() => Int, { nullable: true })
  @Directive("@shareable")
  renewedTrialPeriodDays!: number | null;

  @Field(() => DateScalar, { name: "trialPeriodEndsOn", nullable: true })
  @Directive("@shareable")
  trialPeriodEndDate!: string | null;

  @Field(() => DateScalar, { name: "renewedTrialPeriodEndsOn", nullable: true })
  @Directive("@shareable")
  trialPeriodEndDate2!: string | null;

  @Field(() => LocalDateTimeScalar)
  @Directive("@shareable")
  createdAt!: string;

  @Field(() => LocalDateTimeScalar, { name: "lastUpdatedAt" })
  @Directive("@shareable")
  lastModifiedAt!: string;
}
