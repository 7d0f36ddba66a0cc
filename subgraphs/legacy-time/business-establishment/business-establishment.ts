import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { LocalDateTimeScalar } from "../../shared/graphql/index.js";

/** A business establishment (owned by the organisation subgraph); legacy-time contributes its legacy fields. */
@ObjectType()
@Directive('@key(fields: "id")')
export class BusinessEstablishment {
  @Field(() => ID)
  id!: string;
}

@ObjectType({ description: "The postal address of a legacy establishment." })
export class LegacyEstablishmentAddress {
  @Field(() => String, { nullable: true })
  street!: string | null;

  @Field(() => String, { nullable: true })
  zipCode!: string | null;

  @Field(() => String, { nullable: true })
  city!: string | null;
}

/**
 * The legacy API's view of an establishment (`/organization/structure/api/establishments`),
 * grouped under `BusinessEstablishment.legacy` so that none of its names can clash with the
 * organisation subgraph's establishment fields.
 */
@ObjectType({ description: "A business establishment as the legacy API sees it." })
export class LegacyEstablishment {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  code!: string | null;

  @Field(() => Int, { description: "The legal unit (legal entity) of the establishment, as a legacy id." })
  legalUnitId!: number;

  @Field(() => String, { nullable: true, description: "The establishment's legal identification number (e.g. a SIRET)." })
  legalIdentificationNumber!: string | null;

  @Field(() => String, { nullable: true, description: "The activity classification code (e.g. an APE code)." })
  activityCode!: string | null;

  @Field(() => Int, { nullable: true, description: "The public-holiday calendar." })
  calendarId!: number | null;

  @Field(() => LegacyEstablishmentAddress, { nullable: true })
  address!: LegacyEstablishmentAddress | null;

  @Field(() => String, { nullable: true, description: "IANA time zone." })
  timezoneId!: string | null;

  @Field(() => Int, { description: "The users attached to the establishment." })
  usersCount!: number;

  @Field(() => LocalDateTimeScalar)
  createdAt!: string;

  @Field(() => Boolean)
  isArchived!: boolean;
}
