/**
 * Payloads of the legacy API as the directory service writes them (docs/interface.md#legacy-api,
 * docs/decisions.md#legacy-api), typed from the shapes declared once in contract/legacy-shapes.ts.
 * Ids are integers; date-times carry no offset.
 */

import type { Static } from "@sinclair/typebox";
import type * as Legacy from "../../contract/legacy-shapes.js";
import type * as Current from "../../contract/rest-shapes.js";

/** `{id, name, url}`: the legacy API's reference to a user, role, calendar... */
export type LegacyRef = Static<typeof Legacy.Ref>;

/** `{id, name}`: an entry of a reference list the legacy API serves whole (hiring types...). */
export type RestNamedItem = Static<typeof Legacy.NamedItem>;

/**
 * A user as the facade reads it: only the fields it names in `fields=` are written
 * (docs/interface.md#legacy-user), so every member but `id` may be absent.
 */
export type RestLegacyUser = Pick<LegacyUser, "id"> & Partial<LegacyUser>;
type LegacyUser = Static<typeof Legacy.User>;

export type RestUserWorkCycle = LegacyUser["userWorkCycles"][number];

/**
 * The user fields the facade asks for (`fields=`): without them the legacy API writes only
 * `id, name, url`.
 */
export const USER_FIELDS: ReadonlyArray<keyof LegacyUser> = [
  "id", "name", "displayName", "modifiedAt", "firstName", "lastName", "login", "mail",
  "dtContractStart", "dtContractEnd", "birthDate", "employeeNumber", "calendar", "culture", "picture",
  "legalEntity", "departmentId", "managerId", "manager2Id", "rolePrincipal", "habilitedRoles",
  "userWorkCycles", "extendedData", "applicationData", "userAxisValues_2", "allowsElectronicPayslip",
  "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "cspId",
  "address", "directLine", "jobTitle", "personalEmail", "personalMobile", "professionalMobile", "quote",
  "gender", "nationalityId",
];

export type { RestWorkContract } from "../shared/legacy/work-contracts.js";
export type RestLegacyEstablishment = Static<typeof Legacy.Establishment>;
/** The owner of a time entry or timesheet as the legacy API writes it. */
export type LegacyOwner = Static<typeof Legacy.TimeEntryOwner>;
/** unit 0 days, 1 hours, 2 time; layer 0 declared, 1 theoretical (from the work cycle); duration `d.hh:mm:ss`, the day part omitted when zero */
export type RestTimeEntry = Static<typeof Legacy.TimeEntry>;
/** A weekly timesheet (`/api/v3/timmitimesheets`); status 0 temporary, 1 pending, 2 approved, 3 rejected. */
export type RestTimesheet = Static<typeof Legacy.Timesheet>;

/**
 * An axis section without its parents and children (the nested shape). Its `multilingualName` is
 * the legacy API's string (`[en-US]Design|[fr-FR]Conception`, docs/interface.md#legacy-axis-section);
 * an object language tag -> name is read too.
 */
export type RestAxisSectionFlat = Omit<Static<typeof Legacy.AxisSectionFlat>, "multilingualName"> & { multilingualName: string | Record<string, string> };

/** A section read whole carries its parents and children; one nested in another's does not. */
export type RestAxisSection = RestAxisSectionFlat & Partial<Pick<Static<typeof Legacy.AxisSection>, "parentAxisSections" | "childrenAxisSections">>;

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

/**
 * An employee of the current API, as far as this subgraph reads it: whether the caller can see it
 * (forward mode), and the names `employee(id:)` answers beside the legacy data.
 */
export type RestCurrentEmployee = Pick<Static<typeof Current.employee>, "id" | "givenName" | "familyName">;
/** An employee of the current API as a department's members' read keeps it (`LegacyDepartment.users`). */
export type RestMemberEmployee = Pick<Static<typeof Current.employee>, "id" | "status" | "applicableJobPosition">;
/** An employment of the current API as legacy-time reads it: its owner (the employee of its work contract). */
export type RestCurrentEmployment = Pick<Static<typeof Current.employment>, "id" | "employee">;
