import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { DateScalar, LocalDateTimeScalar } from "../graphql/index.js";

/**
 * The members of a legacy work contract that people and legacy-time both serve
 * (docs/performance.md#what-a-company-router-gets): its id and what the contract writes as it is,
 * `@shareable`, declared once so the two subgraphs' `WorkContract` cannot drift apart. Each
 * subgraph's class extends it with its key and its own members; the descriptions are the shared
 * catalogue's (subgraphs/shared/graphql/descriptions.ts). An object type to
 * type-graphql, which gives its fields, with their directives, to the classes that extend it; no
 * schema holds it, since no field returns it.
 */
@ObjectType()
export abstract class WorkContractMembers {
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
}
