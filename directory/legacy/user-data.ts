import { CALENDARS, CULTURES, LEAVE_PROFILES, ROLES, WORK_CYCLES, byId } from "./reference.js";

/** A legacy user's values (users.ts), shared by their representation and the checks of a PUT (user-validation.ts). */

export type Gender = "Undefined" | "Male" | "Female" | "Misc";
export const GENDERS: readonly Gender[] = ["Undefined", "Male", "Female", "Misc"];
export const LEGAL_GENDER: Record<string, Gender> = { unknown: "Undefined", male: "Male", female: "Female", diverse: "Misc" };

export interface WorkCycle {
  id: number;
  workCycleID: number;
  /** offset-free date-time */
  startsOn: string;
  endsOn: string | null;
}

/** A user's values, before they are written as a representation. */
export interface UserData {
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

export const READABLE = [
  "id", "name", "displayName", "url", "modifiedAt", "firstName", "lastName", "login", "mail",
  "dtContractStart", "dtContractEnd", "birthDate", "employeeNumber", "calendarId", "calendar",
  "cultureID", "culture", "picture", "legalEntityId", "legalEntity", "departmentId", "department",
  "managerId", "manager", "manager2Id", "manager2", "rolePrincipalId", "rolePrincipal", "habilitedRoles",
  "userWorkCycles", "extendedData", "applicationData", "userAxisValues_2", "allowsElectronicPayslip",
  "bankName", "rib", "iban", "bic", "frenchCarTaxHorsePower", "frenchMotocyclesTaxHorsePower", "cspId",
  "address", "directLine", "jobTitle", "personalEmail", "personalMobile", "professionalMobile", "quote",
  "gender", "nationalityId",
] as const;

export const CALENDAR_BY_ID = byId(CALENDARS);
export const CULTURE_BY_ID = byId(CULTURES);
export const ROLE_BY_ID = byId(ROLES);
export const WORK_CYCLE_BY_ID = byId(WORK_CYCLES);
export const LEAVE_PROFILE_BY_ID = byId(LEAVE_PROFILES);
