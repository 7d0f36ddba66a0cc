import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { LocalDateTimeScalar, formerName, replacedByEdge } from "../../shared/graphql/index.js";

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

  @Field(() => String, { nullable: true, ...formerName("postalCode", "as `PostalAddress.postalCode`.") })
  zipCode!: string | null;

  @Field(() => String, { nullable: true, ...formerName("locality", "as `PostalAddress.locality`.") })
  city!: string | null;
}

/**
 * The legacy API's view of an establishment (`/organization/structure/api/establishments`),
 * grouped under `BusinessEstablishment.legacy` so that none of its names can clash with the
 * organisation subgraph's establishment fields.
 */
@ObjectType({ description: "A business establishment as the legacy API sees it." })
export class LegacyEstablishment {
  @Field(() => ID, { description: "The establishment's id: the business establishment's id." })
  id!: number;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  code!: string | null;

  @Field(() => Int, replacedByEdge("legalEntity"))
  legalUnitId!: number;

  @Field(() => String, { nullable: true, description: "The establishment's legal identification number (e.g. a SIRET)." })
  legalIdentificationNumber!: string | null;

  @Field(() => String, { nullable: true, description: "The activity classification code (e.g. an APE code)." })
  activityCode!: string | null;

  @Field(() => Int, { nullable: true, description: "Id of the establishment's public-holiday calendar (the graph names calendars only on `LegacyUser.calendar`); null when none." })
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

@InputType({ description: "Filters of the legacy establishment list; all given filters apply together. An empty id list matches nothing." })
export class LegacyEstablishmentFilter {
  @Field(() => [ID], { nullable: true, description: "Establishment ids (legacy integers), at most 100." })
  ids?: string[] | null;

  @Field(() => [ID], { nullable: true, description: "The legal units (legal entity ids, legacy `legalUnitId`), at most 100." })
  legalUnitIds?: string[] | null;

  @Field(() => String, { nullable: true, description: "Every word is the start of a word of the name, whatever its case." })
  search?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: "Default false, as the list does: only establishments in use; true: only archived ones; null: both.",
  })
  isArchived?: boolean | null;
}
