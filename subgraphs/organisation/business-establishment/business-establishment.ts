import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { connectionType, DateTimeScalar, FormattedIdentifier } from "../../shared/graphql/index.js";

@ObjectType("PostalAddress", { description: "The postal address of a business establishment." })
export class PostalAddress {
  @Field(() => [String])
  addressLines!: string[];

  @Field(() => String)
  postalCode!: string;

  @Field(() => String)
  locality!: string;

  @Field(() => String)
  administrativeArea!: string;

  @Field(() => String, { description: "ISO 3166-1 alpha-3 country code." })
  countryCode!: string;
}

@ObjectType("BusinessEstablishment", { description: "A site of a legal entity where employees work." })
@Directive('@key(fields: "id")')
export class BusinessEstablishment {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "Identifier in a third-party system." })
  remoteId!: string;

  @Field(() => Boolean, { description: "True for the headquarters of its legal entity (at most one per legal entity)." })
  isHeadquarters!: boolean;

  @Field(() => FormattedIdentifier, { description: "Tax identifier (format e.g. franceSIRET)." })
  taxIdentificationNumber!: FormattedIdentifier;

  @Field(() => FormattedIdentifier)
  industryCode!: FormattedIdentifier;

  @Field(() => PostalAddress)
  address!: PostalAddress;

  @Field(() => String, { description: "IANA time zone, e.g. Europe/Paris." })
  timezoneId!: string;

  @Field(() => Boolean, { description: "Archiving is only possible when no employee is attached." })
  isArchived!: boolean;

  @Field(() => DateTimeScalar, { nullable: true })
  lastArchivedAt!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const BusinessEstablishmentConnection = connectionType("BusinessEstablishment", BusinessEstablishment);

@InputType("BusinessEstablishmentFilter", { description: "Filters of the business-establishment list; all given filters apply together." })
export class BusinessEstablishmentFilter {
  @Field(() => [ID], { nullable: true, description: "Legal entity ids (at most 100): `legalEntity.id`." })
  legalEntityIds?: string[] | null;

  @Field(() => String, { nullable: true, description: "Name search: every word must start a word of the name." })
  search?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
  isArchived?: boolean | null;
}
