import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateScalar, JSONScalar, LocalDateTimeScalar, URLScalar, renamedFrom, formerName } from "../../shared/graphql/index.js";

/** why LegacyUser's names of a person follow Employee's */
const ONE_NAME = "the graph names a person's names and work address as `Employee` does.";
const ONE_NAME_INPUT = "as `LegacyUser` names it; giving both is refused.";

export enum LegacyGender {
  UNDEFINED = "Undefined",
  MALE = "Male",
  FEMALE = "Female",
  MISC = "Misc",
}
registerEnumType(LegacyGender, { name: "LegacyGender", description: "The gender recorded by the legacy API." });

@ObjectType({ description: "The portrait of a legacy user." })
export class LegacyPicture {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  /** a link of the facade to the picture (docs/security.md#file-links), never the legacy API's address */
  @Field(() => URLScalar, {
    nullable: true,
    description: "A short-lived link to the picture through this service, usable without credentials (it expires within minutes: read the field again rather than storing it).",
  })
  downloadUrl!: string | null;

  @Field(() => String, {
    nullable: true,
    description: "The same link as downloadUrl, as a String.",
    deprecationReason: "Use `downloadUrl` (typed URL). This field no longer answers the legacy API's own address.",
  })
  href!: string | null;
}

@ObjectType({ description: "A period of a work cycle (expected recurring working hours); the periods of a person never overlap." })
export class LegacyWorkCycle {
  @Field(() => Int)
  id!: number;

  @Field(() => Int, { description: "Id of the work cycle followed in the period; the graph does not name work cycles." })
  workCycleId!: number;

  @Field(() => LocalDateTimeScalar, { description: "When the period starts (legacy `startsOn`)." })
  startsAt!: string;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "When the period ends; null: open-ended (legacy `endsOn`)." })
  endsAt!: string | null;

  // the names before 0.1.0's renames, with their type then (LocalDateTime), kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => LocalDateTimeScalar, renamedFrom("startsAt", "as every date-time is `…At`."))
  startsOn!: string;

  @Field(() => LocalDateTimeScalar, { nullable: true, ...renamedFrom("endsAt", "as every date-time is `…At`.") })
  endsOn!: string | null;
}

@ObjectType({ description: "An extended-data entry of a legacy user." })
export class LegacyExtendedDataEntry {
  @Field(() => String, { description: "The legacy key, prefixed e_ (e.g. e_shirtSize)." })
  key!: string;

  @Field(() => JSONScalar, { nullable: true })
  value!: unknown;
}

@ObjectType({ description: "The personal bank account data of a legacy user." })
export class LegacyBankAccount {
  @Field(() => String, { nullable: true })
  bankName!: string | null;

  @Field(() => String, { nullable: true, description: "French bank account identifier (relevé d'identité bancaire)." })
  rib!: string | null;

  @Field(() => String, { nullable: true })
  iban!: string | null;

  @Field(() => String, { nullable: true })
  bic!: string | null;
}

/**
 * An employee as the legacy API's user (`/api/v3/users/{id}`): what only the legacy API holds
 * (calendar, culture, roles, work cycles, extended data, leave profile, bank data...). Fields read
 * as the REST payload names them where the name reads well; the others are field resolvers
 * (legacy-user.resolver.ts).
 */
@ObjectType({ description: "An employee as seen by the legacy API (legacy user)." })
export class LegacyUser {
  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true, description: "Family name first." })
  displayName!: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedAt", "every last change is `lastUpdatedAt` in the graph.") })
  modifiedAt!: string | null;

  // givenName, familyName and email: field resolvers (legacy-user.resolver.ts), as `Employee` names them
  @Field(() => String, { nullable: true, ...formerName("givenName", ONE_NAME) })
  firstName!: string | null;

  @Field(() => String, { nullable: true, ...formerName("familyName", ONE_NAME) })
  lastName!: string | null;

  @Field(() => String, { nullable: true })
  login!: string | null;

  @Field(() => String, { nullable: true, ...formerName("email", ONE_NAME) })
  mail!: string | null;


  @Field(() => String, { nullable: true, description: "Unique per legal entity." })
  employeeNumber!: string | null;

  @Field(() => Boolean, { nullable: true, description: "Consent to electronic payslips." })
  allowsElectronicPayslip!: boolean | null;

  @Field(() => Int, { nullable: true, description: "Fiscal horsepower of the person's car, for mileage claims." })
  frenchCarTaxHorsePower!: number | null;

  @Field(() => String, { nullable: true })
  address!: string | null;

  @Field(() => String, { nullable: true })
  directLine!: string | null;

  @Field(() => String, { nullable: true })
  jobTitle!: string | null;

  @Field(() => String, { nullable: true })
  personalEmail!: string | null;

  @Field(() => String, { nullable: true })
  personalMobile!: string | null;

  @Field(() => String, { nullable: true })
  professionalMobile!: string | null;

  @Field(() => String, { nullable: true })
  quote!: string | null;
}

@InputType({ description: "A work-cycle period; without id it is a new one." })
export class LegacyWorkCycleInput {
  @Field(() => Int, { nullable: true })
  id?: number | null;

  @Field(() => Int)
  workCycleId!: number;

  @Field(() => LocalDateTimeScalar, { description: "When the period starts (legacy `startsOn`)." })
  startsAt!: string;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "When the period ends; null or absent: open-ended (legacy `endsOn`)." })
  endsAt?: string | null;
}

@InputType({ description: "An extended-data entry to set; a null value clears it." })
export class LegacyExtendedDataInput {
  @Field(() => String, { description: "The legacy key, prefixed e_ (e.g. e_shirtSize)." })
  key!: string;

  @Field(() => JSONScalar, { nullable: true })
  value?: unknown;
}

/**
 * A partial change of a legacy user: the legacy PUT writes only the fields it is given, so fields
 * left out keep their value. Fields described as nullable may be set to null to clear them.
 */
@InputType({ description: "The fields of a legacy user to change; the others keep their value." })
export class LegacyUserInput {
  @Field(() => String, { nullable: true })
  givenName?: string | null;

  @Field(() => String, { nullable: true })
  familyName?: string | null;

  @Field(() => String, { nullable: true })
  email?: string | null;

  // the names before issue 35, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => String, { nullable: true, ...formerName("givenName", ONE_NAME_INPUT) })
  firstName?: string | null;

  @Field(() => String, { nullable: true, ...formerName("familyName", ONE_NAME_INPUT) })
  lastName?: string | null;

  @Field(() => String, { nullable: true, ...formerName("email", ONE_NAME_INPUT) })
  mail?: string | null;

  @Field(() => String, { nullable: true })
  login?: string | null;

  @Field(() => String, { nullable: true })
  employeeNumber?: string | null;

  @Field(() => Int, { nullable: true })
  legalEntityId?: number | null;

  @Field(() => LocalDateTimeScalar, { nullable: true })
  contractStartsAt?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "Nullable: null when the last day is unknown." })
  contractEndsAt?: string | null;

  @Field(() => DateScalar, { nullable: true, description: "Date of birth; sent to the legacy API as that day at midnight." })
  birthDate?: string | null;

  @Field(() => Int, { nullable: true })
  socioProfessionalCategoryId?: number | null;

  @Field(() => Int, { nullable: true, description: "Nullable." })
  calendarId?: number | null;

  @Field(() => [LegacyWorkCycleInput], { nullable: true, description: "Replaces every period." })
  workCycles?: LegacyWorkCycleInput[] | null;

  @Field(() => ID, { nullable: true })
  departmentId?: string | null;

  @Field(() => ID, { nullable: true, description: "Nullable." })
  managerId?: string | null;

  @Field(() => ID, { nullable: true, description: "The second manager of the leave-approval workflow. Nullable." })
  manager2Id?: string | null;

  @Field(() => Int, { nullable: true })
  rolePrincipalId?: number | null;

  @Field(() => [Int], { nullable: true, description: "Replaces every secondary role." })
  habilitedRoleIds?: number[] | null;

  @Field(() => Int, { nullable: true, description: "A language code identifier (LCID), e.g. 1036 for fr-FR." })
  cultureId?: number | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  address?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  directLine?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  jobTitle?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  personalEmail?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  personalMobile?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  professionalMobile?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  quote?: string | null;

  @Field(() => LegacyGender, { nullable: true })
  gender?: LegacyGender | null;

  @Field(() => String, { nullable: true, description: "ISO 3166-1 alpha-2, e.g. FR. Nullable." })
  nationalityCode?: string | null;

  @Field(() => [LegacyExtendedDataInput], { nullable: true, description: "Entries to set; the others keep their value." })
  extendedData?: LegacyExtendedDataInput[] | null;

  @Field(() => Int, { nullable: true })
  leaveProfileId?: number | null;

  @Field(() => ID, { nullable: true, description: "An axis section of axis 2. Nullable." })
  axisValue2Id?: string | null;

  @Field(() => Boolean, { nullable: true })
  allowsElectronicPayslip?: boolean | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  bankName?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  rib?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  iban?: string | null;

  @Field(() => String, { nullable: true, description: "Nullable." })
  bic?: string | null;

  @Field(() => Int, { nullable: true, description: "Nullable." })
  frenchCarTaxHorsePower?: number | null;

  @Field(() => Int, { nullable: true, description: "Nullable." })
  frenchMotorcycleTaxHorsePower?: number | null;
}
