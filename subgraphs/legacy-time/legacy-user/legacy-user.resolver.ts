import { Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Mutation, Resolver, Root, createUnionType } from "type-graphql";
import { LegacyReference, legacyReference } from "./legacy-reference.js";
import { DateScalar, LocalDateTimeScalar, replacedByEdge, audited, givenFields, type SubgraphContext, ref, InvalidInputError, invalidInput, readRenamed, WRITE_REFUSALS, mutationResultType, type WriteRefusal } from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import { AxisSection } from "../axis-section/axis-section.js";
import { Department } from "../department/department.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { OccupationCategory } from "../occupation-category/occupation-category.js";
import { USERS_PATH, axisSectionLoader, legacyUserLoader } from "../loaders.js";
import { assertLegacyWriteAllowed, assertVisible } from "../visibility.js";
import { putLegacyUser, fieldsNamedIn, notFound, serialisedWrite, writeLegacy } from "../writes.js";
import type { RestAxisSection, RestLegacyUser } from "../rest.js";
import {
  LegacyBankAccount,
  LegacyExtendedDataEntry,
  LegacyGender,
  LegacyPicture,
  LegacyUser,
  LegacyUserInput,
  LegacyWorkCycle,
  type LegacyWorkCycleInput,
} from "./legacy-user.js";

export const UpdateLegacyUserResult = createUnionType({
  name: "UpdateLegacyUserResult",
  description: "The employee whose legacy user was updated (its legacyUser shows the result), or why nothing was written.",
  types: () => [Employee, ...WRITE_REFUSALS] as const,
  resolveType: mutationResultType("Employee"),
});

interface FieldRule {
  /** the REST field of the PUT body */
  rest: string;
  /** null is a value the legacy API accepts (it clears the field) */
  nullable?: boolean;
  /** the input value is an id of the graph: it must be a legacy integer */
  id?: boolean;
  to?: (value: any) => unknown;
}

const toNumber = (value: string) => Number(value);

/** The input's deprecated names (before issue 35) and the ones they became: read as those, both given refused. */
const RENAMED_INPUTS = [
  ["firstName", "givenName"],
  ["lastName", "familyName"],
  ["mail", "email"],
] as const;

/** Each input field of LegacyUserInput -> its REST field in the PUT body. */
const FIELD_RULES: Readonly<Record<Exclude<keyof LegacyUserInput, "extendedData" | (typeof RENAMED_INPUTS)[number][0]>, FieldRule>> = {
  givenName: { rest: "firstName" },
  familyName: { rest: "lastName" },
  email: { rest: "mail" },
  login: { rest: "login" },
  employeeNumber: { rest: "employeeNumber" },
  legalEntityId: { rest: "legalEntityId" },
  contractStartsAt: { rest: "dtContractStart" },
  contractEndsAt: { rest: "dtContractEnd", nullable: true },
  birthDate: { rest: "birthDate", to: (date: string) => `${date}T00:00:00` },
  socioProfessionalCategoryId: { rest: "cspId" },
  calendarId: { rest: "calendarId", nullable: true },
  workCycles: {
    rest: "userWorkCycles",
    to: (cycles: LegacyWorkCycleInput[]) =>
      cycles.map((c) => ({ ...(c.id != null ? { id: c.id } : {}), workCycleID: c.workCycleId, startsOn: c.startsAt, endsOn: c.endsAt ?? null })),
  },
  departmentId: { rest: "departmentId", id: true, to: toNumber },
  managerId: { rest: "managerId", nullable: true, id: true, to: toNumber },
  manager2Id: { rest: "manager2Id", nullable: true, id: true, to: toNumber },
  rolePrincipalId: { rest: "rolePrincipalId" },
  habilitedRoleIds: { rest: "habilitedRoles", to: (ids: number[]) => ids.map((id) => ({ id })) },
  cultureId: { rest: "cultureID" },
  address: { rest: "address", nullable: true },
  directLine: { rest: "directLine", nullable: true },
  jobTitle: { rest: "jobTitle", nullable: true },
  personalEmail: { rest: "personalEmail", nullable: true },
  personalMobile: { rest: "personalMobile", nullable: true },
  professionalMobile: { rest: "professionalMobile", nullable: true },
  quote: { rest: "quote", nullable: true },
  gender: { rest: "gender" },
  nationalityCode: { rest: "nationalityId", nullable: true },
  leaveProfileId: { rest: "profile_leave", to: (id: number) => ({ id }) },
  axisValue2Id: { rest: "userAxisValues_2", nullable: true, id: true, to: (id: string) => ({ id: Number(id) }) },
  allowsElectronicPayslip: { rest: "allowsElectronicPayslip" },
  bankName: { rest: "bankName", nullable: true },
  rib: { rest: "rib", nullable: true },
  iban: { rest: "iban", nullable: true },
  bic: { rest: "bic", nullable: true },
  frenchCarTaxHorsePower: { rest: "frenchCarTaxHorsePower", nullable: true },
  frenchMotorcycleTaxHorsePower: { rest: "frenchMotocyclesTaxHorsePower", nullable: true },
};

/** REST names (as the legacy API's messages use them) -> input names, for the fields at fault. */
const INPUT_NAME: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(FIELD_RULES).map(([input, rule]) => [rule.rest, input]));
const EXTENDED_KEY = /^e_[A-Za-z0-9_]{1,64}$/;

@ArgsType()
class UpdateLegacyUserArgs {
  @Field(() => ID, { description: "The employee's id." })
  id!: string;

  @Field(() => LegacyUserInput)
  input!: LegacyUserInput;
}

@Resolver(() => LegacyUser)
export class LegacyUserResolver {
  @FieldResolver(() => DateScalar, { nullable: true, description: "Date of birth: the day of the legacy date-time `birthDate`." })
  birthDate(@Root() user: RestLegacyUser): string | null {
    return user.birthDate ? user.birthDate.slice(0, 10) : null;
  }

  @FieldResolver(() => LocalDateTimeScalar, { nullable: true, description: "Legacy `dtContractStart`." })
  contractStartsAt(@Root() user: RestLegacyUser): string | null {
    return user.dtContractStart ?? null;
  }

  @FieldResolver(() => LocalDateTimeScalar, { nullable: true, description: "Legacy `dtContractEnd`; null if the last day is unknown." })
  contractEndsAt(@Root() user: RestLegacyUser): string | null {
    return user.dtContractEnd ?? null;
  }

  @FieldResolver(() => LegacyReference, { nullable: true, description: "The public-holiday calendar." })
  calendar(@Root() user: RestLegacyUser): LegacyReference | null {
    return legacyReference(user.calendar);
  }

  @FieldResolver(() => LegacyReference, { nullable: true, description: "The culture; its id is the language code identifier (LCID)." })
  culture(@Root() user: RestLegacyUser): LegacyReference | null {
    return legacyReference(user.culture);
  }

  @FieldResolver(() => LegacyPicture, { nullable: true })
  picture(@Root() user: RestLegacyUser, @Ctx() ctx: SubgraphContext): LegacyPicture | null {
    const p = user.picture;
    if (!p) return null;
    // the picture's own address is the legacy API's: only a link of the facade to it is answered
    const link = p.href || p.url ? (ctx.files?.link({ kind: "legacy", id: String(p.id) }) ?? null) : null;
    return { id: String(p.id), name: p.name ?? null, downloadUrl: link, href: link };
  }

  @FieldResolver(() => LegacyReference, { nullable: true })
  legalEntity(@Root() user: RestLegacyUser): LegacyReference | null {
    return legacyReference(user.legalEntity);
  }

  @FieldResolver(() => Department, { nullable: true })
  department(@Root() user: RestLegacyUser): { id: string } | null {
    return ref(user.departmentId);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "null: no manager (or the person manages themselves)." })
  manager(@Root() user: RestLegacyUser): EmployeeRef | null {
    return ref(user.managerId);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The second manager of the leave-approval workflow." })
  manager2(@Root() user: RestLegacyUser): EmployeeRef | null {
    return ref(user.manager2Id);
  }

  @FieldResolver(() => LegacyReference, { nullable: true, description: "The one primary role." })
  rolePrincipal(@Root() user: RestLegacyUser): LegacyReference | null {
    return legacyReference(user.rolePrincipal);
  }

  @FieldResolver(() => [LegacyReference], { description: "The secondary roles." })
  habilitedRoles(@Root() user: RestLegacyUser): LegacyReference[] {
    return (user.habilitedRoles ?? []).flatMap((role) => legacyReference(role) ?? []);
  }

  @FieldResolver(() => [LegacyWorkCycle], { description: "Expected recurring working hours, period by period." })
  workCycles(@Root() user: RestLegacyUser): LegacyWorkCycle[] {
    // startsOn and endsOn: the deprecated names before 0.1.0 (legacy-user.ts)
    return (user.userWorkCycles ?? []).map((c) => ({ id: c.id, workCycleId: c.workCycleID, startsAt: c.startsOn, endsAt: c.endsOn ?? null, startsOn: c.startsOn, endsOn: c.endsOn ?? null }));
  }

  @FieldResolver(() => [LegacyExtendedDataEntry], { description: "Extended data (legacy `e_` fields), by key." })
  extendedData(@Root() user: RestLegacyUser): LegacyExtendedDataEntry[] {
    return Object.entries(user.extendedData ?? {})
      .map(([key, entry]) => ({ key, value: entry?.value ?? null }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  @FieldResolver(() => LegacyReference, { nullable: true, description: "The leave profile (legacy `applicationData.profile_leave`)." })
  leaveProfile(@Root() user: RestLegacyUser): LegacyReference | null {
    return legacyReference(user.applicationData?.profile_leave);
  }

  @FieldResolver(() => AxisSection, { nullable: true, description: "The person's default section on analytical axis 2 (legacy `userAxisValues_2`)." })
  async axisValue2(@Root() user: RestLegacyUser, @Ctx() ctx: SubgraphContext): Promise<RestAxisSection | null> {
    const id = user.userAxisValues_2?.id;
    return id ? axisSectionLoader(ctx).load(String(id)) : null;
  }

  @FieldResolver(() => LegacyBankAccount)
  bankAccount(@Root() user: RestLegacyUser): LegacyBankAccount {
    return { bankName: user.bankName ?? null, rib: user.rib ?? null, iban: user.iban ?? null, bic: user.bic ?? null };
  }

  @FieldResolver(() => Int, { nullable: true, description: "Fiscal horsepower of the person's motorcycle, for mileage claims." })
  frenchMotorcycleTaxHorsePower(@Root() user: RestLegacyUser): number | null {
    return user.frenchMotocyclesTaxHorsePower ?? null;
  }

  @FieldResolver(() => Int, { nullable: true, ...replacedByEdge("occupationCategory") })
  socioProfessionalCategoryId(@Root() user: RestLegacyUser): number | null {
    return user.cspId ?? null;
  }

  // a key-only reference the organisation subgraph resolves: one call for every user of the operation
  @FieldResolver(() => OccupationCategory, { nullable: true, description: "The socio-professional category (legacy `cspId`); null when none is recorded." })
  occupationCategory(@Root() user: RestLegacyUser): { id: string } | null {
    return ref(user.cspId);
  }

  // firstName, lastName and mail: their deprecated names (legacy-user.ts), the REST fields as they come
  @FieldResolver(() => String, { nullable: true })
  givenName(@Root() user: RestLegacyUser): string | null {
    return user.firstName ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  familyName(@Root() user: RestLegacyUser): string | null {
    return user.lastName ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  email(@Root() user: RestLegacyUser): string | null {
    return user.mail ?? null;
  }

  @FieldResolver(() => LocalDateTimeScalar, { nullable: true, description: "When the user's attributes last changed (legacy local time); null when never recorded." })
  lastUpdatedAt(@Root() user: RestLegacyUser): string | null {
    return user.modifiedAt ?? null;
  }

  @FieldResolver(() => LegacyGender, { nullable: true })
  gender(@Root() user: RestLegacyUser): string | null {
    return user.gender ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: "Nationality, ISO 3166-1 alpha-2 (legacy `nationalityId`)." })
  nationalityCode(@Root() user: RestLegacyUser): string | null {
    return user.nationalityId ?? null;
  }

  @Mutation(() => UpdateLegacyUserResult, {
    nullable: true,
    description:
      "Changes the given fields of an employee's legacy user; the others keep their value. Every refusal is returned as data " +
      "and nothing is written: the input (InvalidInputError), an employee without legacy user (NotFoundError), a caller who " +
      "may not write it (ForbiddenError), another write of the same user in progress (ConflictError).",
  })
  async updateLegacyUser(
    @Args(() => UpdateLegacyUserArgs) { id, input }: UpdateLegacyUserArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<EmployeeRef | InvalidInputError | WriteRefusal> {
    return audited(ctx, { operation: "updateLegacyUser", type: "LegacyUser", id, fields: givenFields(input) }, async () => {
      assertLegacyWriteAllowed(ctx);
      const body = requestBody(input);
      if (body instanceof InvalidInputError) return body;
      if (!isLegacyId(id)) throw notFound("Employee", id);
      await assertVisible(ctx, id);
      // the PUT sends only the input's fields (the legacy user's PUT writes those it is given): no
      // read to merge into, but held all the same, so that the user answered is this write's
      const loader = legacyUserLoader(ctx);
      const written = await serialisedWrite(ctx, USERS_PATH, id, loader, () =>
        writeLegacy<RestLegacyUser, InvalidInputError>({
          what: "Employee",
          id,
          // the answer is the user as written: `legacyUser` of the result is served from it
          loader,
          put: () => putLegacyUser(ctx, id, body),
          refused: (_err, message) => {
            const fields = fieldsNamedIn(message, INPUT_NAME);
            if (/\be_[A-Za-z0-9_]+/.test(message)) fields.push("extendedData");
            return invalidInput(message, fields);
          },
        }),
      );
      if (written instanceof InvalidInputError) return written;
      return { id };
    });
  }
}

/** The PUT body of the input's fields, or what makes the input unusable (before any call). */
function requestBody(given: LegacyUserInput): Record<string, unknown> | InvalidInputError {
  const renamed = readRenamed(given, RENAMED_INPUTS);
  if ("conflict" in renamed) return invalidInput(`${renamed.conflict.message}.`, renamed.conflict.names);
  const input = renamed.input;
  const body: Record<string, unknown> = {};
  const nulls: string[] = [];
  const badIds: string[] = [];
  for (const [name, rule] of Object.entries(FIELD_RULES) as Array<[keyof typeof FIELD_RULES, FieldRule]>) {
    const value = input[name];
    if (value === undefined) continue;
    if (value === null) {
      if (rule.nullable) body[rule.rest] = null;
      else nulls.push(name);
      continue;
    }
    if (rule.id && !isLegacyId(value as string)) {
      badIds.push(name);
      continue;
    }
    body[rule.rest] = rule.to ? rule.to(value) : value;
  }
  if (nulls.length > 0) return invalidInput(`${nulls.join(", ")} cannot be null: leave a field out to keep its value.`, nulls);
  if (badIds.length > 0) return invalidInput(`${badIds.join(", ")}: not an id of the directory.`, badIds);
  if (input.extendedData === null) return invalidInput("extendedData cannot be null: leave it out, or set an entry's value to null.", ["extendedData"]);
  for (const entry of input.extendedData ?? []) {
    if (!EXTENDED_KEY.test(entry.key)) return invalidInput(`extendedData: ${JSON.stringify(entry.key.slice(0, 70))} is not a key such as e_shirtSize.`, ["extendedData"]);
    if (entry.key in body) return invalidInput(`extendedData: the key ${entry.key} is given twice.`, ["extendedData"]);
    body[entry.key] = { value: entry.value ?? null };
  }
  if (Object.keys(body).length === 0) return invalidInput("The input changes nothing: give at least one field.", []);
  return body;
}
