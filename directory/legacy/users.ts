import { markCompanyChanged } from "../current/derived.js";
import { parseIsoDate } from "../data/calendar.js";
import { ibanValid } from "../data/identifiers.js";
import type { Employee, Id } from "../data/model.js";
import type { Random } from "../data/random.js";
import type { Router } from "../http/router.js";
import type { AxisSectionStore } from "./axis-sections.js";
import { invariantName } from "./axis-sections.js";
import type { CompanyView } from "./company.js";
import { dateOfDay } from "./company.js";
import { alpha2Of, isAlpha2 } from "./countries.js";
import {
  badRequest,
  existing,
  localDateTime,
  nowOn,
  objectBody,
  ok,
  parseBoolean,
  parseIdList,
  rejectUnknownParams,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { compareBy, parseDateComparator, parseOrderBy, parsePaging, parseSelection, parseStringComparator, project, type Selection } from "./query.js";
import {
  CALENDARS,
  CULTURES,
  EXTENDED_FIELDS,
  LCID_MAX,
  LCID_MIN,
  LEAVE_PROFILES,
  ROLE,
  ROLES,
  WORK_CYCLES,
  byId,
  type Named,
} from "./reference.js";
import { fullName, ref, userRef } from "./refs.js";
import { checkBodyId, checkFieldNames, checkId, checkString, isId, isInteger, isObject, parseLocalDateTime, Problems } from "./validate.js";

/**
 * Legacy users (`/api/v3/users`): one per employee, with the same id.
 *
 * What the current API stores is read from its records: names, email, employee number and
 * portrait from the employee; contract dates from the applicable employment; legal entity,
 * department, manager, job title and socio-professional category from the applicable job
 * position (the legal entity through its establishment); birth date, gender, nationality,
 * personal contact and bank data from the personal record. What only the legacy API knows
 * (calendar, culture, roles, work cycles, extended data, leave profile, default project,
 * payslip consent, fiscal horsepower) is drawn from a generator keyed by the user id.
 *
 * A PUT writes the four fields that are the employee record's own (firstName -> givenName,
 * lastName -> familyName, mail -> email, employeeNumber) through to that record, so that both APIs
 * show the same person; every other field is kept as a legacy-side override, because the current
 * API holds it on time-bounded records (careers) or on the personal record, whose own rules the
 * legacy API does not enforce.
 */

type Gender = "Undefined" | "Male" | "Female" | "Misc";
const GENDERS: readonly Gender[] = ["Undefined", "Male", "Female", "Misc"];
const LEGAL_GENDER: Record<string, Gender> = { unknown: "Undefined", male: "Male", female: "Female", diverse: "Misc" };

interface WorkCycle {
  id: number;
  workCycleID: number;
  /** offset-free date-time */
  startsOn: string;
  endsOn: string | null;
}

/** A user's values, before they are written as a representation. */
interface UserData {
  login: string;
  dtContractStart: string | null;
  dtContractEnd: string | null;
  birthDate: string | null;
  calendarId: number | null;
  cultureID: number;
  legalEntityId: number | null;
  departmentId: number | null;
  managerId: number | null;
  manager2Id: number | null;
  rolePrincipalId: number;
  habilitedRoleIds: number[];
  userWorkCycles: WorkCycle[];
  extendedData: Record<string, unknown>;
  profileLeaveId: number;
  userAxisValue2Id: number | null;
  allowsElectronicPayslip: boolean;
  bankName: string | null;
  rib: string | null;
  iban: string | null;
  bic: string | null;
  frenchCarTaxHorsePower: number | null;
  frenchMotocyclesTaxHorsePower: number | null;
  cspId: number | null;
  address: string | null;
  directLine: string | null;
  jobTitle: string | null;
  personalEmail: string | null;
  personalMobile: string | null;
  professionalMobile: string | null;
  quote: string | null;
  gender: Gender;
  nationalityId: string | null;
  modifiedAt: string;
}

/** Fields written when `fields` is absent: what identifies a user, as the production service does. */
export const DEFAULT_FIELDS: readonly string[] = ["id", "name", "url"];
export const MAX_USER_IDS = 100;
/** `paging` of the list: 0,1000 by default, at most 1000 a page (the legacy reference) */
export const MAX_USER_PAGE = 1000;
const LIST_PARAMS = ["id", "fields", "paging", "modifiedAt", "dtContractStart", "dtContractEnd", "mail", "login", "formerEmployees"];
const ORDER_FIELDS = ["id", "lastName", "firstName", "modifiedAt", "dtContractStart", "dtContractEnd", "employeeNumber"];

const READABLE = [
  "id", "name", "displayName", "url", "modifiedAt", "firstName", "lastName", "login", "mail",
  "dtContractStart", "dtContractEnd", "birthDate", "employeeNumber", "calendarId", "calendar",
  "cultureID", "culture", "picture", "legalEntityId", "legalEntity", "departmentId", "department",
  "managerId", "manager", "manager2Id", "manager2", "rolePrincipalId", "rolePrincipal", "habilitedRoles",
  "userWorkCycles", "extendedData", "applicationData", "userAxisValues_2", "allowsElectronicPayslip",
  "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "cspId",
  "address", "directLine", "jobTitle", "personalEmail", "personalMobile", "professionalMobile", "quote",
  "gender", "nationalityId",
] as const;
const READABLE_SET: ReadonlySet<string> = new Set(READABLE);

const WRITABLE: ReadonlySet<string> = new Set([
  "id", "firstName", "lastName", "mail", "login", "employeeNumber", "legalEntityId", "dtContractStart",
  "dtContractEnd", "birthDate", "cspId", "calendarId", "userWorkCycles", "departmentId", "managerId",
  "rolePrincipalId", "habilitedRoles", "cultureID", "address", "directLine", "jobTitle", "personalEmail",
  "personalMobile", "professionalMobile", "quote", "gender", "nationalityId", "profile_leave",
  "userAxisValues_2", "allowsElectronicPayslip", "bankName", "rib", "iban", "bic",
  "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "manager2Id",
]);
const READ_ONLY: ReadonlySet<string> = new Set([...READABLE].filter((f) => !WRITABLE.has(f)));

const CALENDAR_BY_ID = byId(CALENDARS);
const CULTURE_BY_ID = byId(CULTURES);
const ROLE_BY_ID = byId(ROLES);
const WORK_CYCLE_BY_ID = byId(WORK_CYCLES);
const LEAVE_PROFILE_BY_ID = byId(LEAVE_PROFILES);
const SHIRT_SIZES = ["XS", "S", "M", "L", "XL", "XXL"];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{3,30}$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const RIB = /^[0-9A-Z]{23}$/;
const MAX_HORSEPOWER = 50;

export class UserStore {
  /** legacy-side values written by PUT, by employee id */
  private readonly overrides = new Map<Id, Partial<UserData>>();
  private readonly base = new Map<Id, UserData>();
  private nextWorkCycleId: number;

  constructor(
    private readonly view: CompanyView,
    private readonly sections: AxisSectionStore,
  ) {
    const maxEmployeeId = view.company.employees.reduce((max, e) => Math.max(max, Number(e.id)), 0);
    // generated work cycles are numbered employeeId * 100 + n; written ones follow all of them
    this.nextWorkCycleId = (maxEmployeeId + 1) * 100;
  }

  /** Users whose department was overridden by a PUT: employee id -> department id. */
  departmentOverrides(): Map<Id, number | null> {
    const out = new Map<Id, number | null>();
    for (const [id, o] of this.overrides) if (o.departmentId !== undefined) out.set(id, o.departmentId);
    return out;
  }

  /** The user as the legacy reference writes an owner: `{id, firstName, lastName, mail, legalEntityId}`. */
  brief(employee: Employee): { id: number; firstName: string; lastName: string; mail: string; legalEntityId: number | null } {
    return {
      id: Number(employee.id),
      firstName: employee.givenName,
      lastName: employee.familyName,
      mail: employee.email ?? "",
      legalEntityId: this.data(employee).legalEntityId,
    };
  }

  /** A value of a user for filtering and ordering the list. */
  value(employee: Employee, field: string): string | number | null {
    const d = this.data(employee);
    switch (field) {
      case "id":
        return Number(employee.id);
      case "firstName":
        return employee.givenName;
      case "lastName":
        return employee.familyName;
      case "mail":
        return employee.email ?? "";
      case "employeeNumber":
        return employee.employeeNumber;
      case "login":
      case "modifiedAt":
      case "dtContractStart":
      case "dtContractEnd":
        return d[field];
      default:
        return null;
    }
  }

  /** A former employee: their contract ended before today. */
  isFormer(employee: Employee): boolean {
    const end = this.data(employee).dtContractEnd;
    return end !== null && end.slice(0, 10) < this.view.today;
  }

  represent(employee: Employee, fields: readonly string[], origin: string): Record<string, unknown> {
    const d = this.data(employee);
    const view = this.view;
    const user = (id: number | null) => {
      const e = id === null ? undefined : view.employee(id);
      return e ? userRef(origin, e) : null;
    };
    const named = (path: string, row: Named | undefined) => (row ? ref(origin, path, row.id, row.name) : null);
    const legalEntity = d.legalEntityId === null ? undefined : view.legalEntities.get(String(d.legalEntityId));
    const department = d.departmentId === null ? undefined : view.departments.get(String(d.departmentId));
    const axisValue = d.userAxisValue2Id === null ? undefined : this.sections.get(d.userAxisValue2Id);
    const all: Record<string, () => unknown> = {
      id: () => Number(employee.id),
      name: () => fullName(employee),
      displayName: () => `${employee.familyName} ${employee.givenName}`,
      url: () => `${origin}/api/v3/users/${employee.id}`,
      modifiedAt: () => d.modifiedAt,
      firstName: () => employee.givenName,
      lastName: () => employee.familyName,
      login: () => d.login,
      // a string, as the reference documents it: empty for a person without a professional address
      mail: () => employee.email ?? "",
      dtContractStart: () => d.dtContractStart,
      dtContractEnd: () => d.dtContractEnd,
      birthDate: () => d.birthDate,
      employeeNumber: () => employee.employeeNumber,
      calendarId: () => d.calendarId,
      calendar: () => named("/api/v3/calendars", d.calendarId === null ? undefined : CALENDAR_BY_ID.get(d.calendarId)),
      cultureID: () => d.cultureID,
      culture: () => named("/api/v3/cultures", CULTURE_BY_ID.get(d.cultureID)),
      picture: () => ({ id: employee.portraitId, href: `${origin}/api/v3/files/${employee.portraitId}`, name: "portrait.jpg" }),
      legalEntityId: () => d.legalEntityId,
      legalEntity: () => (legalEntity ? ref(origin, "/api/v3/legalentities", Number(legalEntity.id), legalEntity.legalName) : null),
      departmentId: () => d.departmentId,
      department: () => (department ? ref(origin, "/api/v3/departments", Number(department.id), department.name) : null),
      managerId: () => d.managerId,
      manager: () => user(d.managerId),
      manager2Id: () => d.manager2Id,
      manager2: () => user(d.manager2Id),
      rolePrincipalId: () => d.rolePrincipalId,
      rolePrincipal: () => named("/api/v3/roles", ROLE_BY_ID.get(d.rolePrincipalId)),
      habilitedRoles: () => d.habilitedRoleIds.map((id) => named("/api/v3/roles", ROLE_BY_ID.get(id))),
      userWorkCycles: () => d.userWorkCycles.map((c) => ({ id: c.id, ownerID: Number(employee.id), workCycleID: c.workCycleID, startsOn: c.startsOn, endsOn: c.endsOn })),
      extendedData: () => Object.fromEntries(Object.entries(d.extendedData).map(([k, value]) => [k, { value }])),
      applicationData: () => ({ profile_leave: named("/api/v3/leaveprofiles", LEAVE_PROFILE_BY_ID.get(d.profileLeaveId)) }),
      userAxisValues_2: () =>
        axisValue ? { ...ref(origin, "/api/v3/axisSections", axisValue.id, invariantName(axisValue.multilingualName)), axisId: axisValue.axisId } : null,
      allowsElectronicPayslip: () => d.allowsElectronicPayslip,
      bankName: () => d.bankName,
      rib: () => d.rib,
      iban: () => d.iban,
      bic: () => d.bic,
      frenchCarTaxHorsePower: () => d.frenchCarTaxHorsePower,
      frenchMotocyclesTaxHorsePower: () => d.frenchMotocyclesTaxHorsePower,
      cspId: () => d.cspId,
      address: () => d.address,
      directLine: () => d.directLine,
      jobTitle: () => d.jobTitle,
      personalEmail: () => d.personalEmail,
      personalMobile: () => d.personalMobile,
      professionalMobile: () => d.professionalMobile,
      quote: () => d.quote,
      gender: () => d.gender,
      nationalityId: () => d.nationalityId,
    };
    return Object.fromEntries(fields.map((f) => [f, all[f]!()]));
  }

  /** Validates every field of a PUT body, then applies them all; a bad body changes nothing. */
  update(employee: Employee, body: Record<string, unknown>): void {
    const id = Number(employee.id);
    const view = this.view;
    const current = this.data(employee);
    const problems = new Problems();
    const patch: Partial<UserData> = {};
    const record: Partial<Pick<Employee, "givenName" | "familyName" | "email" | "employeeNumber">> = {};

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
        const clash = this.employeeNumberHolder(number, legalEntityId, employee.id);
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
    if (has("habilitedRoles")) set("habilitedRoleIds", this.checkRoles(problems, body.habilitedRoles));
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
      else if (!isObject(value) || !isId(value.id) || this.sections.get(value.id)?.axisId !== 2) {
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
    if (has("userWorkCycles")) set("userWorkCycles", this.checkWorkCycles(problems, body.userWorkCycles, id));
    const extended = this.checkExtended(problems, body);

    problems.throwIfAny("user");

    const stamp = nowOn(view.today);
    // the current API rebuilds its indexes after a change: only signal one that happened
    const changed = (Object.keys(record) as Array<keyof typeof record>).filter((key) => employee[key] !== record[key]);
    if (changed.length > 0) {
      Object.assign(employee, record, { lastUpdatedAt: `${stamp}.000Z` });
      markCompanyChanged(view.company);
    }
    if (extended) patch.extendedData = { ...current.extendedData, ...extended };
    // periods sent without an id are new ones
    if (patch.userWorkCycles) patch.userWorkCycles = patch.userWorkCycles.map((c) => (c.id === 0 ? { ...c, id: this.nextWorkCycleId++ } : c));
    this.overrides.set(employee.id, { ...this.overrides.get(employee.id), ...patch, modifiedAt: stamp });
  }

  private checkRoles(problems: Problems, raw: unknown): number[] | undefined {
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
  private checkWorkCycles(problems: Problems, raw: unknown, userId: number): WorkCycle[] | undefined {
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
  private checkExtended(problems: Problems, body: Record<string, unknown>): Record<string, unknown> | undefined {
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

  private employeeNumberHolder(number: string, legalEntityId: number | null, except: Id): Employee | undefined {
    for (const other of this.view.company.employees) {
      if (other.id === except || other.employeeNumber !== number) continue;
      if (this.data(other).legalEntityId === legalEntityId) return other;
    }
    return undefined;
  }

  private data(employee: Employee): UserData {
    let base = this.base.get(employee.id);
    if (!base) {
      base = this.generate(employee);
      this.base.set(employee.id, base);
    }
    const override = this.overrides.get(employee.id);
    return override ? { ...base, ...override } : base;
  }

  private generate(employee: Employee): UserData {
    const view = this.view;
    const id = Number(employee.id);
    const rng = view.random(0x05e7).fork(id);
    const employment = view.applicableEmployment(employee.id);
    const position = view.applicableJobPosition(employee.id);
    const establishment = position ? view.establishments.get(position.businessEstablishmentId) : undefined;
    const country = establishment?.address.countryCode ?? null;
    const record = view.personalRecordByEmployee.get(employee.id);
    const managerId = position?.managerId ?? null;
    const managersManager = managerId === null ? null : (view.applicableJobPosition(managerId)?.managerId ?? null);

    const calendars = CALENDARS.filter((c) => c.country === country);
    const cultures = CULTURES.filter((c) => c.country === country);
    const cultureID = cultures.length > 0 && !rng.chance(0.15) ? rng.pick(cultures).id : 1033;
    const profiles = LEAVE_PROFILES.filter((p) => p.country === country);

    let rolePrincipalId: number = ROLE.employee;
    if (view.administrator?.id === employee.id) rolePrincipalId = ROLE.administrator;
    else if (view.hasReports(employee.id)) rolePrincipalId = ROLE.manager;
    else {
      const roll = rng.next();
      if (roll < 0.07) rolePrincipalId = ROLE.hr;
      else if (roll < 0.12) rolePrincipalId = ROLE.payroll;
    }
    const secondary = [ROLE.timeApprover, ROLE.expenseApprover, ROLE.hr].filter((r) => r !== rolePrincipalId && rng.chance(0.2));

    const bank = record?.bankAccount;
    const iban = bank?.format === "iban" ? bank.accountIdentifier : null;

    return {
      login: loginOf(employee),
      dtContractStart: employment ? localDateTime(employment.startDate) : null,
      dtContractEnd: employment ? localDateTime(employment.endDate) : null,
      birthDate: localDateTime(record?.birthDate ?? null),
      calendarId: calendars.length > 0 ? rng.pick(calendars).id : null,
      cultureID,
      legalEntityId: establishment ? Number(establishment.legalEntityId) : null,
      departmentId: position ? Number(position.departmentId) : null,
      managerId: managerId === null ? null : Number(managerId),
      manager2Id: managersManager === null || managersManager === employee.id ? null : Number(managersManager),
      rolePrincipalId,
      habilitedRoleIds: secondary,
      userWorkCycles: this.workCycles(id, employment?.startDate ?? null, employment?.endDate ?? null, rng),
      extendedData: {
        e_shirtSize: rng.pick(SHIRT_SIZES),
        e_badgeNumber: `B${String(id).padStart(6, "0")}`,
        e_remoteDaysPerWeek: rng.int(0, 3),
        e_hasCompanyCar: rng.chance(0.15),
        e_emergencyContact: rng.chance(0.6) ? `+33 6 ${rng.int(10, 99)} ${rng.int(10, 99)} ${rng.int(10, 99)} ${rng.int(10, 99)}` : null,
      },
      profileLeaveId: profiles.length > 0 ? rng.pick(profiles).id : 7,
      userAxisValue2Id: this.sections.staffable.length > 0 ? rng.pick(this.sections.staffable).projectId : null,
      allowsElectronicPayslip: rng.chance(0.7),
      bankName: bank?.bankName ?? null,
      iban,
      // only a BIC is a bic: a US account's ABA routing number is not one
      bic: bank?.format === "iban" ? (bank.bankIdentifier ?? null) : null,
      // a French IBAN carries the RIB (bank, branch, account, key) after its first four characters
      rib: iban?.startsWith("FR") ? iban.replace(/ /g, "").slice(4) : null,
      frenchCarTaxHorsePower: rng.chance(0.5) ? rng.int(3, 11) : null,
      frenchMotocyclesTaxHorsePower: rng.chance(0.12) ? rng.int(1, 5) : null,
      cspId: position ? Number(position.occupationCategoryId) : null,
      address: null,
      directLine: null,
      jobTitle: position?.jobTitle ?? null,
      personalEmail: record?.email ?? null,
      personalMobile: record?.phoneNumber ?? null,
      professionalMobile: employee.phoneNumber,
      quote: null,
      gender: LEGAL_GENDER[record?.legalGender ?? "unknown"] ?? "Undefined",
      nationalityId: record?.nationalitiesCountryCodes[0] ? alpha2Of(record.nationalitiesCountryCodes[0]) : null,
      modifiedAt: localDateTime(record && record.lastUpdatedAt > employee.lastUpdatedAt ? record.lastUpdatedAt : employee.lastUpdatedAt),
    };
  }

  /** One or two consecutive periods over the applicable employment; they never overlap. */
  private workCycles(userId: number, start: string | null, end: string | null, rng: Random): WorkCycle[] {
    if (start === null) return [];
    const first = rng.pick(WORK_CYCLES).id;
    const startDay = parseIsoDate(start);
    const lastDay = Math.min(end === null ? this.view.todayDay : parseIsoDate(end), this.view.todayDay);
    if (lastDay - startDay < 180 || !rng.chance(0.35)) {
      return [{ id: userId * 100 + 1, workCycleID: first, startsOn: localDateTime(start), endsOn: localDateTime(end) }];
    }
    const switchDay = startDay + rng.int(90, lastDay - startDay - 60);
    const second = rng.pick(WORK_CYCLES.filter((c) => c.id !== first)).id;
    return [
      { id: userId * 100 + 1, workCycleID: first, startsOn: localDateTime(start), endsOn: localDateTime(dateOfDay(switchDay - 1)) },
      { id: userId * 100 + 2, workCycleID: second, startsOn: localDateTime(dateOfDay(switchDay)), endsOn: localDateTime(end) },
    ];
  }
}

/** The login: the local part of the email, else first.last in ASCII lower case. */
function loginOf(employee: Employee): string {
  if (employee.email) return employee.email.split("@")[0]!;
  const ascii = (s: string) => s.normalize("NFD").replace(/[^A-Za-z0-9]/g, "").toLowerCase();
  return `${ascii(employee.givenName)}.${ascii(employee.familyName)}`;
}

/**
 * `fields=a,b[c,d]`: the fields to write (always with `id`), with nested selections of object
 * fields (`manager[id,name]`); absent: the default set.
 */
export function parseFields(raw: string | undefined): { names: string[]; selection: Selection | null } {
  if (raw === undefined) return { names: [...DEFAULT_FIELDS], selection: null };
  const selection = parseSelection(raw);
  const names = [...selection.keys()];
  const unknown = names.filter((n) => !READABLE_SET.has(n));
  if (unknown.length > 0) throw badRequest(`Unknown user field${unknown.length > 1 ? "s" : ""} in 'fields': ${unknown.join(", ")}.`);
  const nested = [...selection.values()].some((v) => v !== null);
  return { names: [...new Set(["id", ...names])], selection: nested ? selection : null };
}

function representSelected(users: UserStore, employee: Employee, fields: ReturnType<typeof parseFields>, origin: string): Record<string, unknown> {
  const user = users.represent(employee, fields.names, origin);
  if (fields.selection === null) return user;
  return Object.fromEntries(Object.entries(user).map(([k, v]) => [k, project(v, fields.selection!.get(k) ?? null)]));
}

export function registerUserRoutes(router: Router, state: () => { view: CompanyView; users: UserStore }): void {
  router.get(
    "/api/v3/users",
    withApiKey((req) => {
      const q = req.query;
      rejectUnknownParams(q, [...LIST_PARAMS, ...[...new Set(q.keys())].filter((k) => k.toLowerCase() === "orderby")]);
      const param = (name: string) => singleParam(q, name);
      const ids = param("id") === undefined ? null : parseIdList(param("id")!, "id", MAX_USER_IDS);
      const fields = parseFields(param("fields"));
      const { offset, limit } = parsePaging(param("paging"), MAX_USER_PAGE, MAX_USER_PAGE);
      const dateFilters = (["modifiedAt", "dtContractStart", "dtContractEnd"] as const).flatMap((name) =>
        param(name) === undefined ? [] : [{ name, test: parseDateComparator(param(name)!, name) }],
      );
      const stringFilters = (["mail", "login"] as const).flatMap((name) =>
        param(name) === undefined ? [] : [{ name, test: parseStringComparator(param(name)!, name) }],
      );
      // former employees are left out unless asked for, or unless the caller filters on the contract end itself
      const withFormer = param("formerEmployees") === undefined ? param("dtContractEnd") !== undefined : parseBoolean(param("formerEmployees")!, "formerEmployees");
      const order = parseOrderBy(q, ORDER_FIELDS) ?? { field: "id", descending: false };

      const { view, users } = state();
      const candidates = ids === null ? view.company.employees : ids.flatMap((id) => view.employee(id) ?? []);
      const matching = candidates
        .filter(
          (e) =>
            (withFormer || !users.isFormer(e)) &&
            dateFilters.every((f) => f.test(users.value(e, f.name) as string | null)) &&
            stringFilters.every((f) => f.test(users.value(e, f.name) as string | null)),
        )
        .map((e) => ({ id: Number(e.id), e }))
        .sort(compareBy(order, (item, field) => users.value(item.e, field)));
      const items = matching.slice(offset, offset + limit).map(({ e }) => representSelected(users, e, fields, req.origin));
      return ok({ data: { items } });
    }),
  );
  router.get(
    "/api/v3/users/{id}",
    resourceRoute(["fields"], (id, req) => {
      const fields = parseFields(singleParam(req.query, "fields"));
      const { view, users } = state();
      return ok({ data: representSelected(users, existing(view.employee(id), "User", id), fields, req.origin) });
    }),
  );
  router.put(
    "/api/v3/users/{id}",
    resourceRoute(["fields"], (id, req) => {
      const fields = parseFields(singleParam(req.query, "fields"));
      const { view, users } = state();
      const employee = existing(view.employee(id), "User", id);
      users.update(employee, objectBody(req));
      return ok({ data: representSelected(users, employee, fields, req.origin) });
    }),
  );
}
