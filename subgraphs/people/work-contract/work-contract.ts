import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { DateScalar, LocalDateTimeScalar } from "../../shared/graphql/index.js";

/**
 * A legacy work contract (owned by legacy-time), as people provides it on `Employment.workContract`:
 * its key and the members a contract writes as they are, read in the people fetch itself
 * (docs/graph.md#what-a-company-router-gets). They are `@external`: people serves them only on that
 * path (`@provides`); any other field of the contract, or the contract reached another way, comes
 * from legacy-time by the key. Types as legacy-time declares them; the descriptions are the shared catalogue's (subgraphs/shared/graphql/descriptions.ts).
 */
@ObjectType()
@Directive('@key(fields: "id", resolvable: false)')
export class WorkContract {
  @Field(() => ID)
  id!: number;

  @Field(() => String, { nullable: true })
  @Directive("@external")
  externalId!: string | null;

  @Field(() => DateScalar)
  @Directive("@external")
  startsOn!: string;

  @Field(() => DateScalar, { nullable: true })
  @Directive("@external")
  endsOn!: string | null;

  @Field(() => Boolean)
  @Directive("@external")
  isApplicable!: boolean;

  @Field(() => Int, { nullable: true })
  @Directive("@external")
  trialPeriodDays!: number | null;

  @Field(() => Int, { nullable: true })
  @Directive("@external")
  renewedTrialPeriodDays!: number | null;

  @Field(() => DateScalar, { name: "trialPeriodEndsOn", nullable: true })
  @Directive("@external")
  trialPeriodEndDate!: string | null;

  @Field(() => DateScalar, { name: "renewedTrialPeriodEndsOn", nullable: true })
  @Directive("@external")
  trialPeriodEndDate2!: string | null;

  @Field(() => LocalDateTimeScalar)
  @Directive("@external")
  createdAt!: string;

  @Field(() => LocalDateTimeScalar, { name: "lastUpdatedAt" })
  @Directive("@external")
  lastModifiedAt!: string;
}

/** What `@provides` on `Employment.workContract` lists: every external field above. */
export const PROVIDED_WORK_CONTRACT_FIELDS =
  "externalId startsOn endsOn isApplicable trialPeriodDays renewedTrialPeriodDays trialPeriodEndsOn renewedTrialPeriodEndsOn createdAt lastUpdatedAt";
