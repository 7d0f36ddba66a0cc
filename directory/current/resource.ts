import type {
  BusinessEstablishment,
  Company,
  Department,
  Employee,
  EmployeeStatus,
  Employment,
  EmploymentTemplate,
  Id,
  IsoDate,
  JobPosition,
  JobQualification,
  LegalEntity,
  OccupationCategory,
} from "../data/model.js";
import type { Caller, TokenStore } from "./tokens.js";
import type { DirectoryRequest, DirectoryResponse } from "../http/router.js";

/**
 * How a resource of the current API is declared. One generic engine (`engine.ts`) serves every
 * declared resource: authentication, scopes, `Api-Version`, visibility, `include`, the collection
 * envelope, keyset cursor pagination, filters, sorts, ETags and problem details. A resource module
 * (`resources/employees.ts`, `resources/legal-entities.ts`, ...) only says what its records are and how they look.
 */

/** Values computed once from the company at start-up ("as of today"). */
export interface Derived {
  employee: ReadonlyMap<
    Id,
    {
      status: EmployeeStatus;
      applicableEmploymentId: Id | null;
      applicableJobPositionId: Id | null;
      /** establishment of the applicable job position: the one visibility rules look at */
      establishmentId: Id | null;
    }
  >;
  employment: ReadonlyMap<Id, { status: EmployeeStatus; legalEntityId: Id | null }>;
  jobPosition: ReadonlyMap<Id, { status: EmployeeStatus; endsOn: IsoDate | null; updatedAttributes: string[] }>;
}

/** Lookups by id and by parent, built together with `Derived`. Lists are chronological. */
export interface Lookup {
  employees: ReadonlyMap<Id, Employee>;
  employments: ReadonlyMap<Id, Employment>;
  jobPositions: ReadonlyMap<Id, JobPosition>;
  legalEntities: ReadonlyMap<Id, LegalEntity>;
  businessEstablishments: ReadonlyMap<Id, BusinessEstablishment>;
  departments: ReadonlyMap<Id, Department>;
  employmentTemplates: ReadonlyMap<Id, EmploymentTemplate>;
  occupationCategories: ReadonlyMap<Id, OccupationCategory>;
  jobQualifications: ReadonlyMap<Id, JobQualification>;
  /** by start date, then id */
  employmentsByEmployee: ReadonlyMap<Id, readonly Employment[]>;
  /** by startsOn, then id */
  jobPositionsByEmployment: ReadonlyMap<Id, readonly JobPosition[]>;
  /** the whole career across employments: by startsOn, then the employment's start, then id */
  jobPositionsByEmployee: ReadonlyMap<Id, readonly JobPosition[]>;
}

export interface CurrentContext {
  company: Company;
  derived: Derived;
  /** records by id and by parent, built with `derived` (see derived.ts) */
  lookup: Lookup;
  /** state of the running service that outlives a company generation */
  service: CurrentService;
}

/** One per running service: shared by every context built for it. */
export interface CurrentService {
  tokens: TokenStore;
  /** every registered resource, by item `type`: embedding checks the caller's scope with it */
  resources: Map<string, ResourceDef<any>>;
  /** signs page cursors (a tampered cursor is a 400, not a silent jump) and portrait file tokens */
  signingKey: Buffer;
  /** what list pages have cost since start, in records examined (see `RunningDirectory.work`) */
  work: ListWork;
}

/**
 * What list pages cost, counted rather than timed so that a test can compare a large company
 * with a small one whatever the speed and load of the machine.
 */
export interface ListWork {
  /** records that list pages tested against their visibility rule and filters */
  recordsExamined: number;
  /**
   * contexts, sorted orders and indexes built: each once per company generation, by the first
   * page that needs it; another page of the same kind builds none
   */
  cachesBuilt: number;
}

export type IncludeOption = "embedded" | "links" | "totalCount";

/** What a representation is written for. */
export interface View {
  /** `http://127.0.0.1:4010`: hrefs and urls are absolute */
  origin: string;
  include: ReadonlySet<IncludeOption>;
  caller: Caller;
  ctx: CurrentContext;
}

/** A query parameter that did not parse: answered 400 with `errors[param]`. */
export class BadParameter extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

export interface FilterDef<R> {
  /** Parse the raw query value (throw BadParameter with a clear message on bad input). */
  parse(raw: string, param: string): unknown;
  /** Whether a record passes the filter with the parsed value. */
  matches(record: R, value: unknown, ctx: CurrentContext): boolean;
  /**
   * Optional index: every record that may match (a superset is fine), so that a selective filter
   * costs in proportion to its matches and not to the size of the company. `all` is the
   * resource's `records(ctx)`, for filters that build their index lazily.
   */
  candidates?(value: unknown, ctx: CurrentContext, all: readonly R[]): readonly R[];
}

/** A sort key; `-name` (descending) is derived from `name` by the engine. Ties break on id. */
export type SortKey<R> = (record: R, ctx: CurrentContext) => string | number | null;

export interface ResourceDef<R extends { id: Id }> {
  /**
   * Another representation of a list page the request asks for (`Accept`), made from the
   * envelope and the page's records; null: the envelope (`GET /events` in CloudEvents batch format)
   */
  alternateList?(req: DirectoryRequest, envelope: Record<string, unknown>, items: readonly R[], view: View): DirectoryResponse | null;
  /** list path segment and envelope `type`, e.g. `employees` */
  collection: string;
  /** item `type`, e.g. `employee` */
  type: string;
  /** reading needs `<scope>.readonly` or `<scope>.readwrite` */
  scope: string;
  /** every record, ordered by id */
  records(ctx: CurrentContext): readonly R[];
  /** one record by id (O(1)) */
  byId(id: Id, ctx: CurrentContext): R | undefined;
  /** visibility rules; absent = every record is visible to every caller with the scope */
  visible?(record: R, caller: Caller, ctx: CurrentContext): boolean;
  /** the representation, with `links` only when `view.include` has `links` */
  serialize(record: R, view: View): Record<string, unknown>;
  /** embeddable types -> the representations to embed for a record (keyed by type then id) */
  embeddables?: Record<string, (record: R, view: View) => Array<{ id: Id; representation: unknown } | null>>;
  /** filter parameter name -> definition */
  filters?: Record<string, FilterDef<R>>;
  /**
   * A filter for a parameter that is not in `filters` because only its pattern is known
   * (`value.<prop>` of employee attributes); undefined: not a parameter of this list.
   */
  dynamicFilter?(param: string): FilterDef<R> | undefined;
  /**
   * sort name (ascending) -> key; `id` is always one. Absent: the list takes no `sort` parameter
   * (production offers `sort` on some lists only) and is in id order; `{}`: `sort` by id only.
   */
  sorts?: Record<string, SortKey<R>>;
  /**
   * The resource's file (a portrait's image): the single read answers it instead of the JSON
   * representation when the client accepts `image/*` and not JSON.
   */
  download?(record: R): { status: number; headers?: Record<string, string>; body?: unknown };
  /** whether `GET /<collection>/{id}` exists (default true) and the list exists (default true) */
  single?: boolean;
  list?: boolean;
}
