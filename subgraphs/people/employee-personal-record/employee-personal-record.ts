import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateScalar, DateTimeScalar } from "../../shared/graphql/index.js";
import { RestFilter } from "../../shared/graphql/index.js";

export enum PersonalTitle {
  /** the default; equals a technical null */
  UNKNOWN = "unknown",
  MISTER = "mister",
  MISS = "miss",
}
registerEnumType(PersonalTitle, { name: "PersonalTitle", description: "UNKNOWN is the default and equals no title." });

export enum LegalGender {
  UNKNOWN = "unknown",
  MALE = "male",
  FEMALE = "female",
  DIVERSE = "diverse",
}
registerEnumType(LegalGender, {
  name: "LegalGender",
  description: "UNKNOWN is equivalent to unspecified; DIVERSE may be legally recognised in some countries.",
});

@ObjectType({ description: "A bank account; validation depends on its format (e.g. iban)." })
export class BankAccount {
  @Field(() => String)
  format!: string;

  @Field(() => String)
  bankName!: string;

  @Field(() => String)
  accountIdentifier!: string;

  @Field(() => String, { nullable: true })
  bankIdentifier!: string | null;
}

/** An employee's personal data (REST `employee-personal-record`). */
@ObjectType({ description: "An employee's personal data." })
@Directive('@key(fields: "id")')
export class EmployeePersonalRecord {
  @Field(() => ID)
  id!: string;

  @Field(() => DateScalar, { nullable: true })
  birthDate!: string | null;

  @Field(() => String, { nullable: true })
  phoneNumber!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const EmployeePersonalRecordConnection = connectionType("EmployeePersonalRecord", EmployeePersonalRecord);

@InputType({ description: "Filters of the personal-record list; all given filters must match." })
export class EmployeePersonalRecordFilter {
  @Field(() => [ID], { nullable: true })
  employeeIds?: string[] | null;

  @Field(() => [LegalGender], { nullable: true })
  legalGenders?: LegalGender[] | null;

  @Field(() => [String], { nullable: true, description: "Records having at least one of these ISO 3166-1 alpha-3 codes." })
  nationalitiesCountryCodes?: string[] | null;
}

const ALPHA3 = { test: /^[A-Z]{3}$/, description: "ISO 3166-1 alpha-3 codes (three capital letters)" };

/** The REST filters of `/employee-personal-records` (docs/interface.md#employee-personal-record) for a filter input. */
export function personalRecordQuery(filter: EmployeePersonalRecordFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
  return new RestFilter(argument)
    .strings("employee.id", "employeeIds", f.employeeIds)
    .enums("legalGender", "legalGenders", f.legalGenders)
    .strings("nationalitiesCountryCodes", "nationalitiesCountryCodes", f.nationalitiesCountryCodes, { pattern: ALPHA3 }).query;
}
