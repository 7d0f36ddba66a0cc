import { User } from "../../contract/legacy-shapes.js";
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

/** Every field a user can be read with (`fields=`): the members of the declared shape, contract/legacy-shapes.ts. */
export const READABLE: readonly string[] = Object.keys(User.properties);

export const CALENDAR_BY_ID = byId(CALENDARS);
export const CULTURE_BY_ID = byId(CULTURES);
export const ROLE_BY_ID = byId(ROLES);
export const WORK_CYCLE_BY_ID = byId(WORK_CYCLES);
export const LEAVE_PROFILE_BY_ID = byId(LEAVE_PROFILES);
