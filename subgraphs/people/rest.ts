/**
 * The REST payloads of the current API that the people subgraph reads (docs/interface.md#current-api-resources). Only the
 * members the graph uses are declared; `links` and `embedded` are asked for only where the graph
 * reads them: an employee's `links` when an operation selects a portrait's address
 * (`include=links`, employee/portrait.ts), the embedded attribute definitions (employee-attribute/).
 */

import type { Ref } from "../shared/upstream/index.js";

export type IsoDate = string;
export type IsoDateTime = string;
export type T9n = Record<string, Record<string, string>>;

/** A reference object of the current API, `{id, type, url}`. */
export type RestRef = Ref;

export type RestStatus = "active" | "upcoming" | "deactivated";

export interface RestEmployee {
  id: string;
  remoteId: string | null;
  portrait: RestRef | null;
  givenName: string;
  familyName: string;
  employeeNumber: string | null;
  status: RestStatus;
  email: string | null;
  phoneNumber: string | null;
  birthDay: { day: number; month: number } | null;
  applicableEmployment: RestRef | null;
  applicableJobPosition: RestRef | null;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
  /** only when read with `include=links` (for the portrait's file address, see employee/portrait.ts) */
  links?: { portrait?: { href: string } | null };
}

/** `GET /portraits/{id}`: the portrait's metadata (employee/portrait.ts). */
export interface RestPortrait {
  id: string;
  url: string;
  employee: RestRef;
  fileName: string;
  contentType: string;
  createdAt: IsoDateTime;
}

export interface RestEmployment {
  id: string;
  remoteId: string | null;
  employee: RestRef;
  legalEntity: RestRef | null;
  status: RestStatus;
  start: { date: IsoDate };
  end: { date: IsoDate } | null;
  document: RestRef | null;
  template: RestRef | null;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}

export interface RestJobPosition {
  id: string;
  remoteId: string | null;
  employment: RestRef;
  employee: RestRef;
  status: RestStatus;
  startsOn: IsoDate;
  endsOn: IsoDate | null;
  businessEstablishment: RestRef | null;
  jobTitle: string;
  jobQualification: RestRef | null;
  manager: RestRef | null;
  occupationCategory: RestRef | null;
  workingTimeArrangement: RestRef | null;
  department: RestRef | null;
  document: RestRef | null;
  notes: string | null;
  t9n: T9n | null;
  updatedAttributes: string[];
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}

export interface RestEmployeeAttribute {
  id: string;
  definition: RestRef;
  employee: RestRef;
  /** docs/interface.md#employee-attribute: an employment object (possibly partial) when the attribute comes from one */
  employment?: { id: string } | null;
  /** a job-position object (possibly partial) when the attribute comes from one */
  jobPosition?: { id: string } | null;
  applicability: { start: IsoDate | null; end: IsoDate | null } | null;
  value: unknown;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}

/** The embedded form, the only form the interface has (docs/interface.md#employee-attribute-definition). */
export interface RestEmployeeAttributeDefinition {
  id: string;
  name: string;
  multipleValueHandling: string | null;
  taxonomy: RestRef | null;
  schema: unknown;
  propertyDescriptions: unknown;
  t9n: T9n | null;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
  isArchived: boolean;
  lastArchivedAt: IsoDateTime | null;
}

export interface RestEmployeePersonalRecord {
  id: string;
  employee: RestRef;
  title: "unknown" | "mister" | "miss" | null;
  legalGender: "unknown" | "male" | "female" | "diverse" | null;
  birthDate: IsoDate | null;
  insuranceNumber: { format: string; value: string } | null;
  nationalitiesCountryCodes: string[] | null;
  bankAccount: { format: string; bankName: string; accountIdentifier: string; bankIdentifier: string | null } | null;
  phoneNumber: string | null;
  email: string | null;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}

export interface RestProbationaryPeriod {
  id: string;
  employment: RestRef;
  startsOn: IsoDate | null;
  endsOn: IsoDate;
  initialEndsOn: IsoDate;
  extendedEndsOn: IsoDate | null;
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}
