/**
 * The demo company as the in-process directory service stores it.
 *
 * Records hold what the service stores, never what it computes: statuses, job-position `endsOn`,
 * probationary `endsOn`, employment `legalEntity`, `updatedAttributes` and the applicable
 * employment / job position are derived when a response is written (see `directory/current/`).
 * The legacy API (`directory/legacy/`) reads the same records, so every person, employment
 * (work contract), establishment and department carries the same id in both APIs. Ids of those
 * resources are decimal integers written as strings ("17"), so that the legacy API can serve them
 * as integers.
 */

export type Id = string;
/** `YYYY-MM-DD` */
export type IsoDate = string;
/** ISO 8601 date-time in UTC, `2024-03-01T08:00:00.000Z` */
export type IsoDateTime = string;

/** field name -> (language tag -> text) */
export type Translations = Record<string, Record<string, string>>;

export interface Stamped {
  createdAt: IsoDateTime;
  lastUpdatedAt: IsoDateTime;
}

export interface FormattedValue {
  format: string;
  value: string;
}

export interface LegalEntity extends Stamped {
  id: Id;
  legalName: string;
  remoteId: string;
  isArchived: boolean;
  lastArchivedAt: IsoDateTime | null;
  /** alpha-3 */
  countryCode: string;
  /** ISO 4217 */
  currencyCode: string;
  taxIdentificationNumber: FormattedValue;
  industryCode: FormattedValue;
}

export interface Address {
  addressLines: string[];
  postalCode: string;
  locality: string;
  administrativeArea: string;
  /** alpha-3 */
  countryCode: string;
}

export interface BusinessEstablishment extends Stamped {
  id: Id;
  name: string;
  remoteId: string;
  legalEntityId: Id;
  isHeadquarters: boolean;
  taxIdentificationNumber: FormattedValue;
  industryCode: FormattedValue;
  address: Address;
  /** IANA time zone */
  timezoneId: string;
  isArchived: boolean;
  lastArchivedAt: IsoDateTime | null;
}

export interface Department extends Stamped {
  id: Id;
  name: string;
  remoteId: string | null;
  isArchived: boolean;
  parentId: Id | null;
  /** 1 for a root department */
  level: number;
  managerId: Id | null;
  owningApplication: string;
  description: string | null;
  /** 0-based index among the departments of the same parent */
  sortOrder: number;
}

export interface EmploymentTemplate extends Stamped {
  id: Id;
  title: string;
  legalEntityIds: Id[];
  term: "permanent" | "fixed";
  audience: string;
  t9n: Translations;
}

export interface OccupationCategory extends Stamped {
  id: Id;
  title: string;
  /** null: valid for all establishments, including future ones; never empty when present */
  businessEstablishmentIds: Id[] | null;
  t9n: Translations;
}

export interface JobQualification extends Stamped {
  id: Id;
  title: string;
  professionId: Id;
  rank: number;
  t9n: Translations;
}

export interface Profession {
  id: Id;
  title: string;
  isArchived: boolean;
  t9n: Translations;
}

export interface Taxonomy extends Stamped {
  id: Id;
  name: string;
  sortLabelsBy: "id" | "name";
  t9n: Translations;
}

export interface TaxonomyLabel extends Stamped {
  id: Id;
  taxonomyId: Id;
  name: string;
  remoteId: string | null;
  applicabilitySchema: Record<string, unknown>;
  isArchived: boolean;
  lastArchivedAt: IsoDateTime | null;
  t9n: Translations;
}

export type EmployeeStatus = "active" | "upcoming" | "deactivated";

export interface Employee extends Stamped {
  id: Id;
  remoteId: string;
  givenName: string;
  familyName: string;
  employeeNumber: string;
  email: string | null;
  phoneNumber: string | null;
  birthDay: { day: number; month: number };
  portraitId: Id;
}

export interface Employment extends Stamped {
  id: Id;
  remoteId: string | null;
  employeeId: Id;
  startDate: IsoDate;
  endDate: IsoDate | null;
  templateId: Id;
  documentId: Id | null;
}

export interface JobPosition extends Stamped {
  id: Id;
  remoteId: string | null;
  employmentId: Id;
  employeeId: Id;
  startsOn: IsoDate;
  businessEstablishmentId: Id;
  jobTitle: string;
  jobQualificationId: Id;
  managerId: Id | null;
  occupationCategoryId: Id;
  workingTimeArrangementId: Id | null;
  departmentId: Id;
  documentId: Id | null;
  notes: string | null;
  t9n: Translations;
}

export interface EmployeeAttributeDefinition extends Stamped {
  /** a dotted name such as `employee.shirtSize` */
  id: Id;
  name: string;
  multipleValueHandling: string | null;
  taxonomyId: Id | null;
  /** JSON Schema 2020-12 of the value */
  schema: Record<string, unknown>;
  propertyDescriptions: Record<string, string>;
  t9n: Translations;
  isArchived: boolean;
  lastArchivedAt: IsoDateTime | null;
}

export interface EmployeeAttribute extends Stamped {
  id: Id;
  definitionId: Id;
  employeeId: Id;
  /** set when the attribute originates from an employment */
  employmentId: Id | null;
  /** set when the attribute originates from a job position */
  jobPositionId: Id | null;
  /** null bounds are open; both null: applies indefinitely */
  applicability: { start: IsoDate | null; end: IsoDate | null } | null;
  value: unknown;
}

export interface EmployeePersonalRecord extends Stamped {
  id: Id;
  employeeId: Id;
  title: "unknown" | "mister" | "miss";
  legalGender: "unknown" | "male" | "female" | "diverse";
  birthDate: IsoDate | null;
  insuranceNumber: FormattedValue;
  /** alpha-3, at most one */
  nationalitiesCountryCodes: string[];
  bankAccount: { format: string; bankName: string; accountIdentifier: string; bankIdentifier: string | null };
  phoneNumber: string | null;
  email: string | null;
}

export interface ProbationaryPeriod extends Stamped {
  id: Id;
  employmentId: Id;
  initialEndsOn: IsoDate;
  extendedEndsOn: IsoDate | null;
}

export interface WebhookEndpoint {
  id: Id;
  url: string;
  isActive: boolean;
  /** filled in by the generator when not given */
  name?: string;
  /** the topics delivered to it; absent or empty: every topic (the configured endpoints) */
  topics?: string[];
  /** the business establishments whose events it receives; absent or empty: all */
  establishmentIds?: Id[];
  createdAt?: IsoDateTime;
  /** set after too many failed deliveries in a row: nothing more is delivered to it (docs/decisions.md#webhook-deliveries) */
  suspended?: boolean;
  /** failed deliveries since its last delivered one */
  failuresInARow?: number;
  /** the secret its deliveries are signed with (answered once at registration); derived from the seed and the id when not given */
  secret?: string;
}

/** Something that happened to a record, as `GET /events` lists it and the webhooks deliver it. */
export interface DirectoryEvent {
  id: Id;
  /** the event kind, e.g. `employee.created` */
  topic: string;
  occurredAt: IsoDateTime;
  /** the employee the event is about (its visibility is the event's); null: about no employee (a reference record's change, a `ping`) */
  employeeId: Id | null;
  /** the changed resource, when it is not the employee itself */
  resource?: { type: string; id: Id };
  /** the employee record right after the change (absent: the generated events, which show the employee as it reads now) */
  snapshot?: Employee;
  /** the event's data when it is no employee: the reference record just after its change */
  data?: Record<string, unknown>;
  /** on updates: the changed attributes as they were before, in the current API's names */
  previousAttributes?: Record<string, unknown> | null;
  /** the business establishment of the employee when the change happened */
  businessEstablishmentId?: Id | null;
}

/** One POST of a delivery's event to its endpoint. */
export interface WebhookDeliveryAttempt {
  id: Id;
  webhookDeliveryId: Id;
  isSuccessful: boolean;
  /** null when no answer came (refused connection, timeout) */
  responseStatusCode: number | null;
  errorResponseBody: string;
  /** hex HMAC-SHA256 of the body sent */
  signature: string;
  createdAt: IsoDateTime;
}

export interface WebhookDelivery {
  id: Id;
  webhookEndpointId: Id;
  eventId: Id;
  /** the event kind, e.g. `employee.created` */
  eventType: string;
  status: "delivered" | "undelivered" | "failed";
  attemptsCount: number;
  nextAttemptAt: IsoDateTime | null;
}

/**
 * The whole demo company. Arrays are ordered by id (numeric order for numeric ids).
 * `today` is the date every status is computed against.
 */
export interface Company {
  today: IsoDate;
  /**
   * The seed the company was drawn from. The legacy API draws what only it knows (work cycles,
   * extended data, time entries, axis sections...) when first asked, from the same seed, so that
   * `DIRECTORY_SEED` changes the whole demo and not only the current API's part of it.
   */
  seed: number;
  legalEntities: LegalEntity[];
  businessEstablishments: BusinessEstablishment[];
  departments: Department[];
  employmentTemplates: EmploymentTemplate[];
  occupationCategories: OccupationCategory[];
  jobQualifications: JobQualification[];
  taxonomies: Taxonomy[];
  taxonomyLabels: TaxonomyLabel[];
  employees: Employee[];
  employments: Employment[];
  jobPositions: JobPosition[];
  attributeDefinitions: EmployeeAttributeDefinition[];
  employeeAttributes: EmployeeAttribute[];
  personalRecords: EmployeePersonalRecord[];
  probationaryPeriods: ProbationaryPeriod[];
  webhookEndpoints: WebhookEndpoint[];
  webhookDeliveries: WebhookDelivery[];
  webhookDeliveryAttempts: WebhookDeliveryAttempt[];
  /** an `employee.created` per employee (ids = employee ids), then those test deliveries add */
  events: DirectoryEvent[];
  professions: Profession[];
}

export interface GenerateOptions {
  /** number of employees; default 300 */
  employees?: number;
  /** the date statuses are computed against; default: the current UTC date */
  today?: IsoDate;
  /** seed of the pseudo-random generator; default 1 */
  seed?: number;
  /** webhook endpoints to register (tests pass a local URL) */
  webhookEndpoints?: WebhookEndpoint[];
}
