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
  const c: Check = { id: Number(employeeId), body, ctx, problems: new Problems(), patch: {}, record: {} };
  checkFieldNames(c.problems, body, WRITABLE, READ_ONLY, (name) => name.startsWith("e_"));
  checkBodyId(c.problems, body, c.id);
  for (const [name, rule] of Object.entries(RULES)) if (body[name] !== undefined) rule(name, c);
  checkContractDates(c);
  const extended = checkExtended(c.problems, body);
  c.problems.throwIfAny("user");
  return { record: c.record, patch: c.patch, extended };
}

/** One PUT being checked: what the rules read, and the changes they collect. */
interface Check {
  readonly id: number;
  readonly body: Record<string, unknown>;
  readonly ctx: UserUpdateContext;
  readonly problems: Problems;
  readonly patch: Partial<UserData>;
  readonly record: UserUpdate["record"];
}

/** The check of one field present in the body: it adds its problems, or its change. */
type Rule = (name: string, c: Check) => void;

const str = (c: Check, name: string, options: Parameters<typeof checkString>[3] = {}) => checkString(c.problems, name, c.body[name], options);

function set<K extends keyof UserData>(c: Check, key: K, value: UserData[K] | undefined): void {
  if (value !== undefined) c.patch[key] = value;
}

/** An id that must name something that exists (null too where `nullable`). */
function existing(c: Check, name: string, nullable: boolean, exists: (value: number, view: CompanyView) => boolean, what: string): number | null | undefined {
  const value = checkId(c.problems, name, c.body[name], nullable);
  if (typeof value !== "number" || exists(value, c.ctx.view)) return value;
  c.problems.add(`${name} ${value} is not ${what}.`);
  return undefined;
}

/** the field's value, when it is an id of something that exists, becomes the field of the same name */
const reference =
  (nullable: boolean, exists: (value: number, view: CompanyView) => boolean, what: string): Rule =>
  (name, c) =>
    set(c, name as "calendarId", existing(c, name, nullable, exists, what));

/** a manager: a user other than this one, or null */
const manager: Rule = (name, c) => {
  const value = existing(c, name, true, (v, view) => view.employee(v) !== undefined, "a user");
  if (value === c.id) c.problems.add(`${name} cannot be the user themselves.`);
  else set(c, name as "managerId", value);
};

/** a local date-time; a date the user has none of reads null: sent back as read, it stays unknown */
const dateTime: Rule = (name, c) => {
  const key = name as "dtContractStart" | "dtContractEnd" | "birthDate";
  const value = c.body[key];
  if (value === null && key === "dtContractEnd") return void (c.patch.dtContractEnd = null);
  if (value === null && c.ctx.current[key] === null) return;
  const parsed = parseLocalDateTime(value, true);
  if (!parsed.ok) c.problems.add(`${key} must be a date-time YYYY-MM-DDTHH:mm:ss without offset${key === "dtContractEnd" ? " or null" : ""}.`);
  else if (key === "birthDate" && parsed.value.day >= c.ctx.view.todayDay) c.problems.add("birthDate must be in the past.");
  else c.patch[key] = parsed.value.text;
};

/** free text up to `max` characters, or null; `pattern` and `what` where it has a form */
const text =
  (max: number, pattern?: RegExp, what?: string): Rule =>
  (name, c) => {
    const value = str(c, name, { max, nullable: true });
    if (typeof value === "string" && pattern && !pattern.test(value)) c.problems.add(`${name} must be ${what} or null.`);
    else set(c, name as "address", value);
  };

/** a bank code, checked without its spaces and in capitals */
const bankCode =
  (valid: (compact: string) => boolean, what: string): Rule =>
  (name, c) => {
    const value = str(c, name, { max: 42, nullable: true });
    if (typeof value === "string" && !valid(value.replace(/ /g, "").toUpperCase())) c.problems.add(`${name} must be ${what} or null.`);
    else set(c, name as "iban", value);
  };

const horsePower: Rule = (name, c) => {
  const value = c.body[name];
  if (value !== null && (!isInteger(value) || value < 1 || value > MAX_HORSEPOWER)) c.problems.add(`${name} must be an integer from 1 to ${MAX_HORSEPOWER} or null.`);
  else c.patch[name as "frenchCarTaxHorsePower"] = value as number | null;
};

const PHONE_FORM = "a phone number (digits, spaces, +, parentheses, dots, dashes)";

/** The writable fields' checks, in the order their problems are listed. */
const RULES: Record<string, Rule> = {
  firstName: (name, c) => void (c.record.givenName = str(c, name) ?? undefined),
  lastName: (name, c) => void (c.record.familyName = str(c, name) ?? undefined),
  login: (name, c) => set(c, "login", str(c, name) ?? undefined),
  mail: (name, c) => {
    // "" is how a user without address reads: writing it back keeps them without one
    if (c.body.mail === "" || c.body.mail === null) return void (c.record.email = null);
    const mail = str(c, name, { min: 3 });
    if (typeof mail === "string" && !EMAIL.test(mail)) c.problems.add("mail must be an email address, or empty for none.");
    else c.record.email = mail ?? undefined;
  },
  employeeNumber: (name, c) => {
    const number = str(c, name, { max: 50 });
    if (typeof number !== "string") return;
    const legalEntityId = typeof c.body.legalEntityId === "number" ? c.body.legalEntityId : c.ctx.current.legalEntityId;
    const clash = c.ctx.employeeNumberHolder(number, legalEntityId);
    if (clash) c.problems.add(`employeeNumber ${number} is already used by user ${clash.id} in legal entity ${legalEntityId}.`);
    else c.record.employeeNumber = number;
  },
  legalEntityId: reference(false, (v, view) => view.legalEntities.has(String(v)), "a legal entity"),
  dtContractStart: dateTime,
  dtContractEnd: dateTime,
  birthDate: dateTime,
  cspId: reference(false, (v, view) => view.occupationCategoryIds.has(String(v)), "a socio-professional category"),
  calendarId: reference(true, (v) => CALENDAR_BY_ID.has(v), "a calendar"),
  departmentId: reference(false, (v, view) => view.departments.has(String(v)), "a department"),
  managerId: manager,
  manager2Id: manager,
  rolePrincipalId: reference(false, (v) => ROLE_BY_ID.has(v), "a role"),
  habilitedRoles: (name, c) => set(c, "habilitedRoleIds", checkRoles(c.problems, c.body[name])),
  cultureID: (name, c) => {
    const culture = c.body[name];
    if (!isInteger(culture) || culture < LCID_MIN || culture > LCID_MAX) c.problems.add(`cultureID must be an LCID from ${LCID_MIN} to ${LCID_MAX}.`);
    else if (!CULTURE_BY_ID.has(culture)) c.problems.add(`cultureID ${culture} is not a supported culture (${CULTURES.map((x) => `${x.id} ${x.tag}`).join(", ")}).`);
    else c.patch.cultureID = culture;
  },
  address: text(1024),
  directLine: text(255, PHONE, PHONE_FORM),
  jobTitle: text(1024),
  personalEmail: text(255, EMAIL, "an email address"),
  personalMobile: text(255, PHONE, PHONE_FORM),
  professionalMobile: text(255, PHONE, PHONE_FORM),
  quote: text(255),
  gender: (name, c) => {
    if (!GENDERS.includes(c.body[name] as Gender)) c.problems.add(`gender must be one of ${GENDERS.join(", ")}.`);
    else c.patch.gender = c.body[name] as Gender;
  },
  nationalityId: (name, c) => {
    const value = c.body[name];
    if (value !== null && (typeof value !== "string" || !isAlpha2(value))) c.problems.add("nationalityId must be an ISO 3166-1 alpha-2 country code such as FR, or null.");
    else c.patch.nationalityId = value as string | null;
  },
  profile_leave: (name, c) => {
    const value = c.body[name];
    if (!isObject(value) || !isId(value.id) || !LEAVE_PROFILE_BY_ID.has(value.id)) {
      c.problems.add(`profile_leave must be {id} of a leave profile (${LEAVE_PROFILES.map((p) => p.id).join(", ")}).`);
    } else c.patch.profileLeaveId = value.id;
  },
  userAxisValues_2: (name, c) => {
    const value = c.body[name];
    if (value === null) c.patch.userAxisValue2Id = null;
    else if (!isObject(value) || !isId(value.id) || c.ctx.sections.get(value.id)?.axisId !== 2) c.problems.add("userAxisValues_2 must be null or {id} of an axis section of axis 2.");
    else c.patch.userAxisValue2Id = value.id;
  },
  allowsElectronicPayslip: (name, c) => {
    const value = c.body[name];
    if (typeof value !== "boolean") c.problems.add("allowsElectronicPayslip must be true or false.");
    else c.patch.allowsElectronicPayslip = value;
  },
  bankName: (name, c) => set(c, "bankName", str(c, name, { nullable: true })),
  iban: bankCode(ibanValid, "an IBAN with valid check digits"),
  bic: bankCode((v) => BIC.test(v), "a BIC of 8 or 11 characters"),
  rib: bankCode((v) => RIB.test(v), "a French RIB of 23 characters"),
  frenchCarTaxHorsePower: horsePower,
  frenchMotocyclesTaxHorsePower: horsePower,
  userWorkCycles: (name, c) => set(c, "userWorkCycles", checkWorkCycles(c.problems, c.body[name], c.id)),
};

/** The contract may not end before it starts, whichever of its dates the PUT changes. */
function checkContractDates({ body, patch, ctx, problems }: Check): void {
  if (body.dtContractStart === undefined && body.dtContractEnd === undefined) return;
  const start = patch.dtContractStart ?? ctx.current.dtContractStart;
  const end = patch.dtContractEnd !== undefined ? patch.dtContractEnd : ctx.current.dtContractEnd;
  if (start !== null && end !== null && end < start) problems.add(`dtContractEnd ${end} is before dtContractStart ${start}.`);
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
