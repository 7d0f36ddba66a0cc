import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { connectionType, DateTimeScalar, FormattedIdentifier } from "../../shared/graphql/index.js";

@ObjectType("LegalEntity", { description: "A company of the group: the employer party of employments." })
@Directive('@key(fields: "id")')
export class LegalEntity {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "Unique legal name." })
  legalName!: string;

  @Field(() => String, { description: "Identifier in a third-party system." })
  remoteId!: string;

  @Field(() => Boolean, { description: "Archiving is only possible when no business establishment is attached." })
  isArchived!: boolean;

  @Field(() => String, { description: "ISO 3166-1 alpha-3 country code, e.g. FRA." })
  countryCode!: string;

  @Field(() => String, { description: "ISO 4217 currency code, e.g. EUR." })
  currencyCode!: string;

  @Field(() => FormattedIdentifier, { description: "Identifier in the local jurisdiction (format e.g. franceSIREN)." })
  taxIdentificationNumber!: FormattedIdentifier;

  @Field(() => FormattedIdentifier, { description: "Main activity classification (format e.g. franceAPE)." })
  industryCode!: FormattedIdentifier;

  @Field(() => DateTimeScalar, { nullable: true, description: "Last time the legal entity was archived." })
  lastArchivedAt!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const LegalEntityConnection = connectionType("LegalEntity", LegalEntity);

@InputType("LegalEntityFilter", { description: "Filters of the legal-entity list; all given filters apply together." })
export class LegalEntityFilter {
  @Field(() => [String], { nullable: true, description: "Alpha-3 country codes (at most 100): `countryCode`." })
  countryCodes?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
  isArchived?: boolean | null;
}
