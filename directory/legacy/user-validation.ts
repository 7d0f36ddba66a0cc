import { ibanValid } from "../data/identifiers.js";
import type { Employee, Id } from "../data/model.js";
import type { AxisSectionStore } from "./axis-sections.js";
import type { CompanyView } from "./company.js";
import { isAlpha2 } from "./countries.js";
import { CULTURES, EXTENDED_FIELDS, LCID_MAX, LCID_MIN, LEAVE_PROFILES, WORK_CYCLES } from "./reference.js";
import {
  CALENDAR_BY_ID,
  CULTURE_BY_ID,
  GENDERS,
  LEAVE_PROFILE_BY_ID,
  READABLE,
  ROLE_BY_ID,
  WORK_CYCLE_BY_ID,
  type Gender,
  type UserData,
  type WorkCycle,
} from "./user-data.js";
import { checkBodyId, checkFieldNames, checkId, checkString, isId, isInteger, isObject, parseLocalDateTime, Problems } from "./validate.js";

/**
 * The checks of a legacy user's PUT (`/api/v3/users/{id}`): every field of the body is checked
 * before any is applied, and every problem is named in one 400. What passes is returned as the
 * changes to make; users.ts applies them.
 */

const WRITABLE: ReadonlySet<string> = new Set([
  "id", "firstName", "lastName", "mail", "login", "employeeNumber", "legalEntityId", "dtContractStart",
  "dtContractEnd", "birthDate", "cspId", "calendarId", "userWorkCycles", "departmentId", "managerId",
  "rolePrincipalId", "habilitedRoles", "cultureID", "address", "directLine", "jobTitle", "personalEmail",
  "personalMobile", "professionalMobile", "quote", "gender", "nationalityId", "profile_leave",
  "userAxisValues_2", "allowsElectronicPayslip", "bankName", "rib", "iban", "bic",
  "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "manager2Id",
]);
const READ_ONLY: ReadonlySet<string> = new Set([...READABLE].filter((f) => !WRITABLE.has(f)));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{3,30}$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const RIB = /^[0-9A-Z]{23}$/;
const MAX_HORSEPOWER = 50;

/** What a user's PUT is checked against. */
export interface UserUpdateContext {
  view: CompanyView;
  sections: AxisSectionStore;
  /** the user's values before the PUT */
  current: UserData;
  /** the user, other than this one, who holds an employee number in a legal entity */
  employeeNumberHolder(number: string, legalEntityId: number | null): Employee | undefined;
}

/** The checked changes of a PUT: the employee record's own fields, the legacy-side values, the extended data. */
export interface UserUpdate {
  record: Partial<Pick<Employee, "givenName" | "familyName" | "email" | "employeeNumber">>;
  patch: Partial<UserData>;
  extended: Record<string, unknown> | undefined;
}

/** Checks a PUT body of user `employeeId`; throws one 400 naming every problem. */
export function checkUserUpdate(employeeId: Id, body: Record<string, unknown>, ctx: UserUpdateContext): UserUpdate {
  const id = Number(employeeId);
  const { view, current } = ctx;
  const problems = new Problems();
  const patch: Partial<UserData> = {};
  const record: UserUpdate["record"] = {};

  checkFieldNames(problems, body, WRITABLE, READ_ONLY, (name) => name.startsWith("e_"));
  checkBodyId(problems, body, id);
  const has = (name: string) => body[name] !== undefined;
  const str = (name: string, options: Parameters<typeof checkString>[3] = {}) => checkString(problems, name, body[name], options);
  const existing = (name: string, nullable: boolean, exists: (value: number) => boolean, what: string) => {
    const value = checkId(problems, name, body[name], nullable);
    if (typeof value === "number" && !exists(value)) {
      problems.add(`${name} ${value} is not ${what}.`);
      return undefined;
    }
    return value;
  };
  const set = <K extends keyof UserData>(key: K, value: UserData[K] | undefined) => {
    if (value !== undefined) patch[key] = value;
  };

  if (has("firstName")) record.givenName = str("firstName") ?? undefined;
  if (has("lastName")) record.familyName = str("lastName") ?? undefined;
  if (has("login")) set("login", str("login") ?? undefined);
  if (has("mail")) {
    // "" is how a user without address reads: writing it back keeps them without one
    if (body.mail === "" || body.mail === null) record.email = null;
    else {
      const mail = str("mail", { min: 3 });
      if (typeof mail === "string" && !EMAIL.test(mail)) problems.add("mail must be an email address, or empty for none.");
      else record.email = mail ?? undefined;
    }
  }
  if (has("employeeNumber")) {
    const number = str("employeeNumber", { max: 50 });
    if (typeof number === "string") {
      const legalEntityId = typeof body.legalEntityId === "number" ? body.legalEntityId : current.legalEntityId;
      const clash = ctx.employeeNumberHolder(number, legalEntityId);
      if (clash) problems.add(`employeeNumber ${number} is already used by user ${clash.id} in legal entity ${legalEntityId}.`);
      else record.employeeNumber = number;
    }
  }
  if (has("legalEntityId")) {
    set("legalEntityId", existing("legalEntityId", false, (v) => view.legalEntities.has(String(v)), "a legal entity") as number | undefined);
  }
  for (const name of ["dtContractStart", "dtContractEnd", "birthDate"] as const) {
    if (!has(name)) continue;
    if (body[name] === null && name === "dtContractEnd") {
      patch.dtContractEnd = null;
      continue;
    }
    // a date the user has none of reads null: sent back as read, it stays unknown
    if (body[name] === null && current[name] === null) continue;
    const parsed = parseLocalDateTime(body[name], true);
    if (!parsed.ok) {
      problems.add(`${name} must be a date-time YYYY-MM-DDTHH:mm:ss without offset${name === "dtContractEnd" ? " or null" : ""}.`);
    } else if (name === "birthDate" && parsed.value.day >= view.todayDay) {
      problems.add("birthDate must be in the past.");
    } else patch[name] = parsed.value.text;
  }
  const start = patch.dtContractStart ?? current.dtContractStart;
  const end = patch.dtContractEnd !== undefined ? patch.dtContractEnd : current.dtContractEnd;
  if ((has("dtContractStart") || has("dtContractEnd")) && start !== null && end !== null && end < start) {
    problems.add(`dtContractEnd ${end} is before dtContractStart ${start}.`);
  }
  if (has("cspId")) set("cspId", existing("cspId", false, (v) => view.occupationCategoryIds.has(String(v)), "a socio-professional category") as number | undefined);
  if (has("calendarId")) set("calendarId", existing("calendarId", true, (v) => CALENDAR_BY_ID.has(v), "a calendar"));
  if (has("departmentId")) set("departmentId", existing("departmentId", false, (v) => view.departments.has(String(v)), "a department") as number | undefined);
  for (const name of ["managerId", "manager2Id"] as const) {
    if (!has(name)) continue;
    const value = existing(name, true, (v) => view.employee(v) !== undefined, "a user");
    if (value === id) problems.add(`${name} cannot be the user themselves.`);
    else set(name, value);
  }
  if (has("rolePrincipalId")) set("rolePrincipalId", existing("rolePrincipalId", false, (v) => ROLE_BY_ID.has(v), "a role") as number | undefined);
  if (has("habilitedRoles")) set("habilitedRoleIds", checkRoles(problems, body.habilitedRoles));
  if (has("cultureID")) {
    const culture = body.cultureID;
    if (!isInteger(culture) || culture < LCID_MIN || culture > LCID_MAX) {
      problems.add(`cultureID must be an LCID from ${LCID_MIN} to ${LCID_MAX}.`);
    } else if (!CULTURE_BY_ID.has(culture)) {
      problems.add(`cultureID ${culture} is not a supported culture (${CULTURES.map((c) => `${c.id} ${c.tag}`).join(", ")}).`);
    } else patch.cultureID = culture;
  }
  for (const name of ["address", "directLine", "jobTitle", "personalEmail", "personalMobile", "professionalMobile", "quote"] as const) {
    if (!has(name)) continue;
    const value = str(name, { max: name === "jobTitle" || name === "address" ? 1024 : 255, nullable: true });
    if (typeof value === "string" && name === "personalEmail" && !EMAIL.test(value)) problems.add("personalEmail must be an email address or null.");
    else if (typeof value === "string" && (name === "personalMobile" || name === "professionalMobile" || name === "directLine") && !PHONE.test(value)) {
      problems.add(`${name} must be a phone number (digits, spaces, +, parentheses, dots, dashes) or null.`);
    } else set(name, value);
  }
  if (has("gender")) {
    if (!GENDERS.includes(body.gender as Gender)) problems.add(`gender must be one of ${GENDERS.join(", ")}.`);
    else patch.gender = body.gender as Gender;
  }
  if (has("nationalityId")) {
    const value = body.nationalityId;
    if (value !== null && (typeof value !== "string" || !isAlpha2(value))) {
      problems.add("nationalityId must be an ISO 3166-1 alpha-2 country code such as FR, or null.");
    } else patch.nationalityId = value as string | null;
  }
  if (has("profile_leave")) {
    const value = body.profile_leave;
    if (!isObject(value) || !isId(value.id) || !LEAVE_PROFILE_BY_ID.has(value.id)) {
      problems.add(`profile_leave must be {id} of a leave profile (${LEAVE_PROFILES.map((p) => p.id).join(", ")}).`);
    } else patch.profileLeaveId = value.id;
  }
  if (has("userAxisValues_2")) {
    const value = body.userAxisValues_2;
    if (value === null) patch.userAxisValue2Id = null;
    else if (!isObject(value) || !isId(value.id) || ctx.sections.get(value.id)?.axisId !== 2) {
      problems.add("userAxisValues_2 must be null or {id} of an axis section of axis 2.");
    } else patch.userAxisValue2Id = value.id;
  }
  if (has("allowsElectronicPayslip")) {
    if (typeof body.allowsElectronicPayslip !== "boolean") problems.add("allowsElectronicPayslip must be true or false.");
    else patch.allowsElectronicPayslip = body.allowsElectronicPayslip;
  }
  if (has("bankName")) set("bankName", str("bankName", { nullable: true }));
  const bankCode = (name: "iban" | "bic" | "rib", valid: (compact: string) => boolean, what: string) => {
    if (!has(name)) return;
    const value = str(name, { max: 42, nullable: true });
    if (typeof value === "string" && !valid(value.replace(/ /g, "").toUpperCase())) problems.add(`${name} must be ${what} or null.`);
    else set(name, value);
  };
  bankCode("iban", ibanValid, "an IBAN with valid check digits");
  bankCode("bic", (v) => BIC.test(v), "a BIC of 8 or 11 characters");
  bankCode("rib", (v) => RIB.test(v), "a French RIB of 23 characters");
  for (const name of ["frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower"] as const) {
    if (!has(name)) continue;
    const value = body[name];
    if (value !== null && (!isInteger(value) || value < 1 || value > MAX_HORSEPOWER)) {
      problems.add(`${name} must be an integer from 1 to ${MAX_HORSEPOWER} or null.`);
    } else patch[name] = value as number | null;
  }
  if (has("userWorkCycles")) set("userWorkCycles", checkWorkCycles(problems, body.userWorkCycles, id));
  const extended = checkExtended(problems, body);

  problems.throwIfAny("user");
  return { record, patch, extended };
}

export function checkRoles(problems: Problems, raw: unknown): number[] | undefined {
  if (!Array.isArray(raw) || raw.some((r) => !isObject(r) || !isId(r.id))) {
    problems.add("habilitedRoles must be an array of {id} with ids >= 1.");
    return undefined;
  }
  const ids = raw.map((r) => (r as { id: number }).id);
  const unknown = ids.filter((roleId) => !ROLE_BY_ID.has(roleId));
  if (unknown.length > 0) problems.add(`habilitedRoles: ${unknown.join(", ")} ${unknown.length > 1 ? "are not roles" : "is not a role"}.`);
  else if (new Set(ids).size !== ids.length) problems.add("habilitedRoles lists a role twice.");
  else return ids;
  return undefined;
}

/** Work cycles replace the user's list; periods may not overlap (an open end runs forever). */
export function checkWorkCycles(problems: Problems, raw: unknown, userId: number): WorkCycle[] | undefined {
  if (!Array.isArray(raw)) {
    problems.add("userWorkCycles must be an array of {id?, workCycleID, startsOn, endsOn}.");
    return undefined;
  }
  const cycles: WorkCycle[] = [];
  const before = problems.count;
  raw.forEach((item, i) => {
    const at = `userWorkCycles[${i}]`;
    if (!isObject(item)) return problems.add(`${at} must be an object.`);
    for (const key of Object.keys(item)) {
      if (!["id", "ownerID", "workCycleID", "startsOn", "endsOn"].includes(key)) problems.add(`${at}: unknown field '${key}'.`);
    }
    if (item.ownerID !== undefined && item.ownerID !== userId) problems.add(`${at}.ownerID must be the user's id ${userId}.`);
    if (item.id !== undefined && !isId(item.id)) problems.add(`${at}.id must be an integer >= 1.`);
    if (!isId(item.workCycleID) || !WORK_CYCLE_BY_ID.has(item.workCycleID)) {
      problems.add(`${at}.workCycleID must be a work cycle (${WORK_CYCLES.map((c) => c.id).join(", ")}).`);
    }
    const startsOn = parseLocalDateTime(item.startsOn, true);
    const endsOn = item.endsOn === null || item.endsOn === undefined ? null : parseLocalDateTime(item.endsOn, true);
    if (!startsOn.ok) problems.add(`${at}.startsOn must be a date-time without offset.`);
    if (endsOn !== null && !endsOn.ok) problems.add(`${at}.endsOn must be a date-time without offset, or null.`);
    if (!startsOn.ok || (endsOn !== null && !endsOn.ok)) return;
    const end = endsOn === null ? null : (endsOn as { value: { text: string } }).value.text;
    if (end !== null && end < startsOn.value.text) problems.add(`${at} ends before it starts.`);
    cycles.push({ id: isId(item.id) ? item.id : 0, workCycleID: item.workCycleID as number, startsOn: startsOn.value.text, endsOn: end });
  });
  const ids = cycles.filter((c) => c.id !== 0).map((c) => c.id);
  if (new Set(ids).size !== ids.length) problems.add("userWorkCycles: two periods have the same id.");
  const sorted = [...cycles].sort((a, b) => (a.startsOn < b.startsOn ? -1 : a.startsOn > b.startsOn ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    if (previous.endsOn === null || previous.endsOn >= sorted[i]!.startsOn) {
      problems.add(`userWorkCycles: the period from ${previous.startsOn} overlaps the period from ${sorted[i]!.startsOn}.`);
    }
  }
  return problems.count === before ? sorted : undefined;
}

/** `e_<name>: {value}` entries; the value must have the field's type, or be null to clear it. */
export function checkExtended(problems: Problems, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [key, entry] of Object.entries(body)) {
    if (!key.startsWith("e_")) continue;
    const type = EXTENDED_FIELDS.get(key);
    if (!type) {
      problems.add(`Unknown extended field '${key}' (known: ${[...EXTENDED_FIELDS.keys()].join(", ")}).`);
      continue;
    }
    if (!isObject(entry) || !("value" in entry) || Object.keys(entry).length !== 1) {
      problems.add(`${key} must be {value}.`);
      continue;
    }
    const value = entry.value;
    const fits = value === null || (type === "integer" ? isInteger(value) : typeof value === type);
    if (!fits) problems.add(`${key}.value must be ${type === "integer" ? "an integer" : `a ${type}`} or null.`);
    else {
      out[key] = value;
      any = true;
    }
  }
  return any ? out : undefined;
}
