/**
 * Reference data that only the legacy API knows: public-holiday calendars, cultures, roles,
 * work cycles, leave profiles, time types and extended-data fields. The user's values among
 * them are drawn per user (see users.ts); PUT /api/v3/users validates against these tables.
 */

export interface Named {
  id: number;
  name: string;
}

/** Public-holiday calendars, by the alpha-3 country of the user's establishment. */
export const CALENDARS: readonly (Named & { country: string })[] = [
  { id: 1, name: "France", country: "FRA" },
  { id: 2, name: "France - Alsace-Moselle", country: "FRA" },
  { id: 3, name: "United Kingdom - England and Wales", country: "GBR" },
  { id: 4, name: "United States - Federal", country: "USA" },
  { id: 5, name: "Spain - Madrid", country: "ESP" },
  { id: 6, name: "Germany - Berlin", country: "DEU" },
  { id: 7, name: "Switzerland - Geneva", country: "CHE" },
  { id: 8, name: "Belgium", country: "BEL" },
  { id: 9, name: "Italy", country: "ITA" },
  { id: 10, name: "Canada - Quebec", country: "CAN" },
];

/** Cultures by LCID (language code identifier). */
export const CULTURES: readonly (Named & { tag: string; country: string })[] = [
  { id: 1031, name: "German (Germany)", tag: "de-DE", country: "DEU" },
  { id: 1033, name: "English (United States)", tag: "en-US", country: "USA" },
  { id: 1034, name: "Spanish (Spain)", tag: "es-ES", country: "ESP" },
  { id: 1036, name: "French (France)", tag: "fr-FR", country: "FRA" },
  { id: 1040, name: "Italian (Italy)", tag: "it-IT", country: "ITA" },
  { id: 1043, name: "Dutch (Netherlands)", tag: "nl-NL", country: "NLD" },
  { id: 2055, name: "German (Switzerland)", tag: "de-CH", country: "CHE" },
  { id: 2057, name: "English (United Kingdom)", tag: "en-GB", country: "GBR" },
  { id: 2060, name: "French (Belgium)", tag: "fr-BE", country: "BEL" },
  { id: 2070, name: "Portuguese (Portugal)", tag: "pt-PT", country: "PRT" },
  { id: 3084, name: "French (Canada)", tag: "fr-CA", country: "CAN" },
  { id: 4105, name: "English (Canada)", tag: "en-CA", country: "CAN" },
  { id: 4108, name: "French (Switzerland)", tag: "fr-CH", country: "CHE" },
];

/** LCIDs below 1025 are neutral or reserved; above 0xFFFF is outside the 16-bit language id. */
export const LCID_MIN = 1025;
export const LCID_MAX = 0xffff;

export const ROLE = { employee: 1, manager: 2, hr: 3, payroll: 4, administrator: 5, timeApprover: 6, expenseApprover: 7 } as const;

export const ROLES: readonly Named[] = [
  { id: ROLE.employee, name: "Employee" },
  { id: ROLE.manager, name: "Manager" },
  { id: ROLE.hr, name: "HR officer" },
  { id: ROLE.payroll, name: "Payroll officer" },
  { id: ROLE.administrator, name: "Administrator" },
  { id: ROLE.timeApprover, name: "Timesheet approver" },
  { id: ROLE.expenseApprover, name: "Expense approver" },
];

export const WORK_CYCLES: readonly Named[] = [
  { id: 1, name: "Full time - 35h, Monday to Friday" },
  { id: 2, name: "Full time - 39h, Monday to Friday" },
  { id: 3, name: "Part time 80% - Wednesday off" },
  { id: 4, name: "Part time 50% - mornings" },
  { id: 5, name: "Annual days package - 218 days" },
];

/** Leave profiles, by the alpha-3 country of the user's establishment. */
export const LEAVE_PROFILES: readonly (Named & { country: string | null })[] = [
  { id: 1, name: "France - Executive", country: "FRA" },
  { id: 2, name: "France - Non-executive", country: "FRA" },
  { id: 3, name: "United Kingdom - Standard", country: "GBR" },
  { id: 4, name: "United States - Paid time off", country: "USA" },
  { id: 5, name: "Spain - Collective agreement", country: "ESP" },
  { id: 6, name: "Germany - Standard", country: "DEU" },
  { id: 7, name: "International - Standard", country: null },
];

/**
 * The work contracts' reference lists (docs/decisions.md#legacy-api): hiring types, termination
 * reasons (ended contracts only) and the legal grounds of fixed-term contracts, each served whole
 * at `/directory/api/work-contract-<list>` (work-contracts.ts).
 */
export const HIRING_TYPES: readonly Named[] = [
  { id: 1, name: "New hire" },
  { id: 2, name: "Rehire" },
  { id: 3, name: "Transfer within the group" },
  { id: 4, name: "Conversion of a fixed-term contract" },
];

export const TERMINATION_REASONS: readonly Named[] = [
  { id: 1, name: "Resignation" },
  { id: 2, name: "Dismissal" },
  { id: 3, name: "Mutual agreement" },
  { id: 4, name: "End of fixed-term contract" },
  { id: 5, name: "Retirement" },
  { id: 6, name: "End of trial period" },
];

export const TEMPORARY_CONTRACT_GROUNDS: readonly Named[] = [
  { id: 1, name: "Replacement of an absent employee" },
  { id: 2, name: "Temporary increase in activity" },
  { id: 3, name: "Seasonal work" },
  { id: 4, name: "Defined project" },
  { id: 5, name: "Awaiting the start of a permanent employee" },
];

/** Time types of the `typed` time-tracking mode. */
export const TIME_TYPES: readonly Named[] = [
  { id: 1, name: "Normal hours" },
  { id: 2, name: "Overtime" },
  { id: 3, name: "Night work" },
  { id: 4, name: "Travel time" },
  { id: 5, name: "On call" },
];

export type ExtendedType = "string" | "integer" | "boolean";

/** The extended-data fields of users (`e_*`), with the JSON type of their value. */
export const EXTENDED_FIELDS: ReadonlyMap<string, ExtendedType> = new Map<string, ExtendedType>([
  ["e_shirtSize", "string"],
  ["e_badgeNumber", "string"],
  ["e_remoteDaysPerWeek", "integer"],
  ["e_hasCompanyCar", "boolean"],
  ["e_emergencyContact", "string"],
]);

export function byId<T extends Named>(table: readonly T[]): ReadonlyMap<number, T> {
  return new Map(table.map((row) => [row.id, row]));
}
