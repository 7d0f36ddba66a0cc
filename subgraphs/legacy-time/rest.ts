/**
 * Payloads of the legacy API as the directory service writes them (docs/interface.md#legacy-api,
 * docs/decisions.md#legacy-api). Ids are integers; date-times carry no offset.
 */

/** `{id, name, url}`: the legacy API's reference to a user, role, calendar... */
export interface LegacyRef {
  id: number;
  name: string;
  url?: string;
}

export interface RestLegacyUser {
  id: number;
  name?: string;
  displayName?: string;
  modifiedAt?: string | null;
  firstName?: string;
  lastName?: string;
  login?: string;
  mail?: string | null;
  dtContractStart?: string | null;
  dtContractEnd?: string | null;
  birthDate?: string | null;
  employeeNumber?: string | null;
  calendarId?: number | null;
  calendar?: LegacyRef | null;
  cultureID?: number | null;
  culture?: LegacyRef | null;
  picture?: { id: string | number; href?: string; url?: string; name?: string } | null;
  legalEntityId?: number | null;
  legalEntity?: LegacyRef | null;
  departmentId?: number | null;
  department?: LegacyRef | null;
  managerId?: number | null;
  manager?: LegacyRef | null;
  manager2Id?: number | null;
  manager2?: LegacyRef | null;
  rolePrincipalId?: number | null;
  rolePrincipal?: LegacyRef | null;
  habilitedRoles?: Array<LegacyRef | null> | null;
  userWorkCycles?: RestUserWorkCycle[] | null;
  extendedData?: Record<string, { value: unknown } | null> | null;
  applicationData?: { profile_leave?: LegacyRef | null } | null;
  userAxisValues_2?: (LegacyRef & { axisId?: number }) | null;
  allowsElectronicPayslip?: boolean | null;
  bankName?: string | null;
  rib?: string | null;
  iban?: string | null;
  bic?: string | null;
  frenchCarTaxHorsePower?: number | null;
  frenchMotocyclesTaxHorsePower?: number | null;
  cspId?: number | null;
  address?: string | null;
  directLine?: string | null;
  jobTitle?: string | null;
  personalEmail?: string | null;
  personalMobile?: string | null;
  professionalMobile?: string | null;
  quote?: string | null;
  gender?: string | null;
  nationalityId?: string | null;
}

export interface RestUserWorkCycle {
  id: number;
  ownerID?: number;
  workCycleID: number;
  startsOn: string;
  endsOn: string | null;
}

/**
 * The user fields the facade asks for (`fields=`): without them the legacy API writes only
 * `id, name, url`.
 */
export const USER_FIELDS: readonly string[] = [
  "id", "name", "displayName", "modifiedAt", "firstName", "lastName", "login", "mail",
  "dtContractStart", "dtContractEnd", "birthDate", "employeeNumber", "calendar", "culture", "picture",
  "legalEntity", "departmentId", "managerId", "manager2Id", "rolePrincipal", "habilitedRoles",
  "userWorkCycles", "extendedData", "applicationData", "userAxisValues_2", "allowsElectronicPayslip",
  "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "cspId",
  "address", "directLine", "jobTitle", "personalEmail", "personalMobile", "professionalMobile", "quote",
  "gender", "nationalityId",
];

export interface RestLegacyDepartment {
  id: number;
  name: string;
  code: string | null;
  hierarchy: string;
  /** the parent's place in the tree (its `hierarchy`, e.g. `/1/4/`); `/` for a root */
  parentId: string | null;
  position: number;
  sortOrder: number;
  level: number;
  isActive: boolean;
  headID: number | null;
  head?: LegacyRef | null;
  users: LegacyRef[];
  currentUsers: LegacyRef[];
  currentUsersCount?: number;
  url?: string;
}

/** The id of a department's parent from its `parentId` (the parent's hierarchy path); null for a root. */
export function parentDepartmentId(parentId: string | number | null | undefined): number | null {
  if (parentId === null || parentId === undefined) return null;
  if (typeof parentId === "number") return parentId;
  const last = parentId.split("/").filter((part) => part !== "").at(-1);
  return last !== undefined && /^\d{1,15}$/.test(last) ? Number(last) : null;
}

export interface RestWorkContract {
  id: number;
  ownerId: number;
  externalId: string | null;
  typeId: number;
  startsOn: string;
  endsOn: string | null;
  isApplicable: boolean;
  establishmentId: number | null;
  spcId: number | null;
  hiringTypeId: number | null;
  terminationReasonId: number | null;
  trialPeriodDays: number | null;
  renewedTrialPeriodDays: number | null;
  trialPeriodEndDate: string | null;
  trialPeriodEndDate2: string | null;
  temporaryContractGroundId: number | null;
  internshipSupervisorId: number | null;
  authorId: number;
  lastModifierId: number;
  createdAt: string;
  lastModifiedAt: string;
}

export interface RestLegacyEstablishment {
  id: number;
  name: string;
  legalUnitId: number;
  code: string | null;
  legalIdentificationNumber: string | null;
  activityCode: string | null;
  calendarId: number | null;
  address: { street: string | null; zipCode: string | null; city: string | null } | null;
  timezoneId: string | null;
  usersCount: number;
  createdAt: string;
  author: { id: number; firstName?: string; lastName?: string; fullname?: string; url?: string } | null;
  isArchived: boolean;
}

/** The owner of a time entry or timesheet as the legacy API writes it. */
export interface LegacyOwner {
  id: number;
  firstName?: string;
  lastName?: string;
  mail?: string;
  legalEntityId?: number | null;
}

export interface RestTimeEntry {
  id: number;
  ownerId: number;
  owner?: LegacyOwner;
  /** 0 days, 1 hours, 2 time */
  unit: number;
  startsAt: string;
  /** `d.hh:mm:ss`, the day part omitted when zero */
  duration: string;
  creationSource: number;
  axisSections: Array<{ id: number }> | null;
  comment: { id: number; content: string } | null;
  timeTypeId: number | null;
  endsAt?: string | null;
  authorId?: number | null;
  createdAt?: string | null;
  modifierId?: number | null;
  modifiedAt?: string | null;
  archivedAt?: string | null;
  /** 0 declared, 1 theoretical (from the work cycle) */
  layer?: number;
  timesheetId?: number | null;
}

/** A weekly timesheet (`/api/v3/timmitimesheets`); status 0 temporary, 1 pending, 2 approved, 3 rejected. */
export interface RestTimesheet {
  id: number;
  ownerId: number;
  startsOn: string;
  endsOn: string;
  status: number;
}

/** An axis section without its parents and children (the nested shape). */
export interface RestAxisSectionFlat {
  id: number;
  code: string;
  /** the invariant name */
  name?: string;
  /** `[en-US]Design|[fr-FR]Conception` (the legacy API's string, docs/interface.md#legacy-axis-section); an object language tag -> name is read too */
  multilingualName: string | Record<string, string>;
  startOn?: string | null;
  axisId: number;
  description: string | null;
  ownerId: number | null;
  endOn: string | null;
  active: boolean;
  isPublic: boolean;
}

const NAME_ENTRY = /^\[([^\]]*)\](.*)$/s;

/** An axis section's names by language tag, whichever form the upstream wrote. */
export function sectionNames(section: Pick<RestAxisSectionFlat, "multilingualName">): Record<string, string> {
  const raw = section.multilingualName;
  if (typeof raw !== "string") return raw ?? {};
  const out: Record<string, string> = {};
  for (const entry of raw.split("|")) {
    const match = NAME_ENTRY.exec(entry);
    if (match) out[match[1]!] = match[2]!;
  }
  return out;
}

export interface RestAxisSection extends RestAxisSectionFlat {
  parentAxisSections?: RestAxisSectionFlat[] | null;
  childrenAxisSections?: RestAxisSectionFlat[] | null;
}

/** An employee of the current API, as far as the forward-mode visibility check needs it. */
export interface RestCurrentEmployee {
  id: string;
}
