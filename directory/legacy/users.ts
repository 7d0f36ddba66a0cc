import { markCompanyChanged } from "../current/derived.js";
import { recordEvent } from "../current/outbox.js";
import { parseIsoDate } from "../data/calendar.js";
import type { Employee, Id } from "../data/model.js";
import type { Random } from "../data/random.js";
import type { Router } from "../http/router.js";
import type { AxisSectionStore } from "./axis-sections.js";
import { invariantName } from "./axis-sections.js";
import type { CompanyView } from "./company.js";
import { dateOfDay } from "./company.js";
import { alpha2Of } from "./countries.js";
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
import {
  compareBy,
  parseDateComparator,
  parseListFields,
  parseOrderBy,
  parsePaging,
  parseSelection,
  parseStringComparator,
  project,
  v3ListParams,
  type Selection,
} from "./query.js";
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
import {
  CALENDAR_BY_ID,
  CULTURE_BY_ID,
  LEAVE_PROFILE_BY_ID,
  LEGAL_GENDER,
  READABLE,
  ROLE_BY_ID,
  type UserData,
  type WorkCycle,
} from "./user-data.js";
import { checkUserUpdate } from "./user-validation.js";

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

/** Fields written when `fields` is absent: what identifies a user, as the production service does. */
export const DEFAULT_FIELDS: readonly string[] = ["id", "name", "url"];
export const MAX_USER_IDS = 100;
/** `paging` of the list: 0,1000 by default, at most 1000 a page (docs/interface.md#legacy-list-conventions) */
export const MAX_USER_PAGE = 1000;
const LIST_PARAMS = ["id", "modifiedAt", "dtContractStart", "dtContractEnd", "mail", "login", "formerEmployees"];
const ORDER_FIELDS = ["id", "lastName", "firstName", "modifiedAt", "dtContractStart", "dtContractEnd", "employeeNumber"];

const READABLE_SET: ReadonlySet<string> = new Set(READABLE);
const SHIRT_SIZES = ["XS", "S", "M", "L", "XL", "XXL"];

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

  /** The user as the legacy API writes an owner (docs/interface.md#legacy-time-entry): `{id, firstName, lastName, mail, legalEntityId}`. */
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
      // a string, as docs/interface.md#legacy-user has it: empty for a person without a professional address
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
      // requestable but "legacy, not to be used", and nothing in the company holds a sell price: null (docs/decisions.md#legacy-details)
      unitSellPrice: () => null,
    };
    return Object.fromEntries(fields.map((f) => [f, all[f]!()]));
  }

  /**
   * Validates every field of a PUT body, then applies them all; a bad body changes nothing. A PUT
   * that changes anything records an `employee.updated` event (`origin`: the base URL of its
   * addresses), whose `previousAttributes` are the employee's own attributes it changed.
   */
  update(employee: Employee, body: Record<string, unknown>, origin: string): void {
    const view = this.view;
    const current = this.data(employee);
    const { record, patch, extended } = checkUserUpdate(employee.id, body, {
      view,
      sections: this.sections,
      current,
      employeeNumberHolder: (number, legalEntityId) => this.employeeNumberHolder(number, legalEntityId, employee.id),
    });

    const stamp = nowOn(view.today);
    // the current API rebuilds its indexes after a change: only signal one that happened
    const changed = (Object.keys(record) as Array<keyof typeof record>).filter((key) => employee[key] !== record[key]);
    const previousAttributes = Object.fromEntries(changed.map((key) => [key, employee[key]]));
    if (changed.length > 0) {
      Object.assign(employee, record, { lastUpdatedAt: `${stamp}.000Z` });
      markCompanyChanged(view.company);
    }
    if (extended) patch.extendedData = { ...current.extendedData, ...extended };
    const legacyChanged = (Object.keys(patch) as Array<keyof UserData>).some((key) => JSON.stringify(patch[key]) !== JSON.stringify(current[key]));
    if (changed.length > 0 || legacyChanged) {
      const establishmentId = view.applicableJobPosition(employee.id)?.businessEstablishmentId ?? null;
      recordEvent(view.company, { topic: "employee.updated", employee, previousAttributes, origin }, establishmentId);
    }
    // periods sent without an id are new ones
    if (patch.userWorkCycles) patch.userWorkCycles = patch.userWorkCycles.map((c) => (c.id === 0 ? { ...c, id: this.nextWorkCycleId++ } : c));
    this.overrides.set(employee.id, { ...this.overrides.get(employee.id), ...patch, modifiedAt: stamp });
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
  return selectedFields(raw === undefined ? null : parseSelection(raw));
}

function selectedFields(selection: Selection | null): { names: string[]; selection: Selection | null } {
  if (selection === null) return { names: [...DEFAULT_FIELDS], selection: null };
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
      rejectUnknownParams(q, v3ListParams(q, LIST_PARAMS));
      const param = (name: string) => singleParam(q, name);
      const ids = param("id") === undefined ? null : parseIdList(param("id")!, "id", MAX_USER_IDS);
      const listFields = parseListFields(param("fields"));
      const fields = selectedFields(listFields.selection);
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
      if (listFields.count && listFields.selection?.size === 0) return ok({ data: { count: matching.length } });
      const items = matching.slice(offset, offset + limit).map(({ e }) => representSelected(users, e, fields, req.origin));
      return ok({ data: listFields.count ? { items, count: matching.length } : { items } });
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
      users.update(employee, objectBody(req), req.origin);
      return ok({ data: representSelected(users, employee, fields, req.origin) });
    }),
  );
}
