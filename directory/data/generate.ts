/**
 * The deterministic demo company of the in-process directory service.
 *
 * Same options, same company, on every machine: everything is drawn from the seeded generator
 * of `random.ts`, and every date is an offset from `today`, so that statuses (computed from the
 * dates when a response is written) always come out varied whatever day the demo runs.
 *
 * Each employee draws from a stream of their own (`fork`), so that an employee does not depend on
 * how much was drawn for the ones before: up to 1 000 employees, a larger company starts with
 * exactly the people of a smaller one (beyond that, squads are added to the department tree).
 */

import { createHash } from "node:crypto";
import { DayFormatter, parseIsoDate, todayUtc } from "./calendar.js";
import { flat } from "./flat.js";
import {
  BANKS,
  CATEGORY,
  DEPARTMENTS,
  ESTABLISHMENTS,
  FAMILIES,
  FAMILY_ORDER,
  LEGAL_ENTITIES,
  OCCUPATION_CATEGORIES,
  RANK_NAMES,
  SQUAD_NAMES,
  TAXONOMIES,
  TEMPLATES,
  WORKING_TIME_ARRANGEMENTS,
  type Family,
  type LadderStep,
} from "./catalog.js";
import {
  abaRoutingNumber,
  britishCompanyNumber,
  britishIban,
  britishNino,
  frenchIban,
  frenchSsn,
  siren,
  siret,
  swissUid,
  usAccountNumber,
  usEin,
  usSsn,
} from "./identifiers.js";
import type {
  BusinessEstablishment,
  Company,
  Department,
  Employee,
  EmployeeAttribute,
  EmployeeAttributeDefinition,
  EmployeePersonalRecord,
  Employment,
  EmploymentTemplate,
  GenerateOptions,
  JobPosition,
  JobQualification,
  LegalEntity,
  OccupationCategory,
  ProbationaryPeriod,
  Stamped,
  Taxonomy,
  TaxonomyLabel,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  DirectoryEvent,
  Profession,
} from "./model.js";
import { NAME_POOLS, POOL_WEIGHTS_BY_COUNTRY, emailPart, type NamePool, type PoolKey } from "./names.js";
import { Random } from "./random.js";

export const DEFAULT_EMPLOYEES = 300;
/** beyond this the process would run out of memory long before anyone could use the data */
export const MAX_EMPLOYEES = 1_000_000;
export const EMAIL_DOMAIN = "lumiere-systems.example";

const DAY_SECONDS = 86_400;
/** the company was founded this many days before `today` */
const FOUNDED_DAYS_AGO = 16 * 365;
/** nobody was hired during the company's first year */
const FIRST_HIRE_AFTER = 365;

const SALT_REFERENCE = 1;
const SALT_WEBHOOKS = 2;
const SALT_EMPLOYEE = 1000;

const DEFAULT_WEBHOOK_ENDPOINTS: readonly WebhookEndpoint[] = [
  { id: "1", url: "http://127.0.0.1:9/webhooks/directory-events", isActive: true },
  { id: "2", url: "http://127.0.0.1:9/webhooks/legacy-payroll-sync", isActive: false },
];

interface Settings {
  employees: number;
  today: string;
  seed: number;
  webhookEndpoints: WebhookEndpoint[];
}

export function generateCompany(options: GenerateOptions = {}): Company {
  return new CompanyGenerator(validate(options)).run();
}

function validate(options: GenerateOptions): Settings {
  if (options === null || typeof options !== "object") throw new TypeError("generateCompany: options must be an object");
  const employees = options.employees ?? DEFAULT_EMPLOYEES;
  if (!Number.isInteger(employees) || employees < 0 || employees > MAX_EMPLOYEES) {
    throw new RangeError(`generateCompany: employees must be an integer from 0 to ${MAX_EMPLOYEES}, got ${String(employees)}`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`generateCompany: seed must be an integer, got ${String(seed)}`);
  const today = options.today ?? todayUtc();
  if (typeof today !== "string") throw new TypeError("generateCompany: today must be a YYYY-MM-DD string");
  try {
    parseIsoDate(today);
  } catch (err) {
    throw new RangeError(`generateCompany: today: ${(err as Error).message}`);
  }
  const webhookEndpoints = options.webhookEndpoints ? validateEndpoints(options.webhookEndpoints) : DEFAULT_WEBHOOK_ENDPOINTS.map((e) => ({ ...e }));
  return { employees, today, seed, webhookEndpoints };
}

function validateEndpoints(endpoints: WebhookEndpoint[]): WebhookEndpoint[] {
  if (!Array.isArray(endpoints)) throw new TypeError("generateCompany: webhookEndpoints must be an array");
  const seen = new Set<string>();
  return endpoints.map((endpoint, index) => {
    const where = `generateCompany: webhookEndpoints[${index}]`;
    if (!endpoint || typeof endpoint.id !== "string" || endpoint.id.length === 0) throw new TypeError(`${where}.id must be a non-empty string`);
    if (seen.has(endpoint.id)) throw new RangeError(`${where}.id ${JSON.stringify(endpoint.id)} is used twice`);
    seen.add(endpoint.id);
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw new TypeError(`${where}.url must be an absolute URL, got ${JSON.stringify(endpoint.url)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`${where}.url must be http or https`);
    if (typeof endpoint.isActive !== "boolean") throw new TypeError(`${where}.isActive must be a boolean`);
    return { id: endpoint.id, url: endpoint.url, isActive: endpoint.isActive };
  });
}

/** weighted choice with a precomputed cumulative table: O(log n) per draw */
class WeightedPicker<T> {
  private readonly items: T[] = [];
  private readonly cumulative: number[] = [];
  private total = 0;

  constructor(entries: Iterable<readonly [T, number]>) {
    for (const [item, weight] of entries) {
      if (weight <= 0) continue;
      this.total += weight;
      this.items.push(item);
      this.cumulative.push(this.total);
    }
    if (this.items.length === 0) throw new Error("WeightedPicker: nothing to pick from");
  }

  pick(rng: Random): T {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** a department as the generator sees it while people are drawn */
interface DeptInfo {
  record: Department;
  family: Family;
  ladder: readonly LadderStep[];
  /** index of the parent in the departments array, -1 for the root */
  parent: number;
  headTitle: readonly [en: string, fr: string];
}

/** one employment of the timeline being drawn for an employee */
interface Stint {
  start: number;
  end: number | null;
  /** index into the establishments array */
  establishment: number;
}

type EmployeeKind = "active" | "upcoming" | "deactivated";

class CompanyGenerator {
  private readonly days = new DayFormatter();
  private readonly today: number;
  private readonly founded: number;
  private readonly root: Random;

  private readonly legalEntities: LegalEntity[] = [];
  private readonly establishments: BusinessEstablishment[] = [];
  private readonly departments: DeptInfo[] = [];
  private readonly templates: EmploymentTemplate[] = [];
  private readonly categories: OccupationCategory[] = [];
  private readonly qualifications: JobQualification[] = [];
  private readonly taxonomies: Taxonomy[] = [];
  private readonly labels: TaxonomyLabel[] = [];
  private readonly definitions: EmployeeAttributeDefinition[] = [];

  private readonly employees: Employee[] = [];
  private readonly employments: Employment[] = [];
  private readonly positions: JobPosition[] = [];
  private readonly attributes: EmployeeAttribute[] = [];
  private readonly personalRecords: EmployeePersonalRecord[] = [];
  private readonly probationaryPeriods: ProbationaryPeriod[] = [];

  /** department index of every position, parallel to `positions` */
  private readonly positionDept: number[] = [];
  /** department index of each employee's position as of today, -1 if none */
  private currentDept!: Int32Array;
  /** index into `positions` of each employee's position as of today, -1 if none */
  private currentPosition!: Int32Array;
  private readonly emailCounts = new Map<string, number>();
  private nextFileId = 1;
  /** English title -> French title -> shared translations */
  private readonly titleTranslations = new Map<string, Map<string, JobPosition["t9n"]>>();

  private establishmentPicker!: WeightedPicker<number>;
  private departmentPicker!: WeightedPicker<number>;
  private readonly poolPickers = new Map<string, WeightedPicker<PoolKey>>();
  /** active establishment indexes per legal-entity index */
  private readonly establishmentsOfEntity = new Map<number, number[]>();
  /** department index of the founder of each department: employee i (0-based) heads founders[i] */
  private founders: number[] = [];
  private costCentreLabelIds: string[] = [];

  constructor(private readonly settings: Settings) {
    this.today = parseIsoDate(settings.today);
    this.founded = this.today - FOUNDED_DAYS_AGO;
    this.root = new Random(settings.seed);
  }

  run(): Company {
    const rng = this.root.fork(SALT_REFERENCE);
    this.buildLegalEntitiesAndEstablishments(rng);
    this.buildDepartments(rng);
    this.buildReferenceData(rng);

    const n = this.settings.employees;
    this.currentDept = new Int32Array(n).fill(-1);
    this.currentPosition = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) this.buildEmployee(i);
    this.assignManagers();

    const registered = this.timestampOf((this.founded + 400) * DAY_SECONDS);
    const webhookEndpoints = this.settings.webhookEndpoints.map((e) => ({
      name: `Endpoint ${e.id}`,
      topics: ["employee.created", "employee.updated"],
      createdAt: registered,
      ...e,
    }));
    const webhookDeliveries = this.buildDeliveries(webhookEndpoints);
    return {
      today: this.settings.today,
      seed: this.settings.seed,
      legalEntities: this.legalEntities,
      businessEstablishments: this.establishments,
      departments: this.departments.map((d) => d.record),
      employmentTemplates: this.templates,
      occupationCategories: this.categories,
      jobQualifications: this.qualifications,
      taxonomies: this.taxonomies,
      taxonomyLabels: this.labels,
      employees: this.employees,
      employments: this.employments,
      jobPositions: this.positions,
      attributeDefinitions: this.definitions,
      employeeAttributes: this.attributes,
      personalRecords: this.personalRecords,
      probationaryPeriods: this.probationaryPeriods,
      webhookEndpoints,
      ...this.buildEvents(webhookDeliveries),
      webhookDeliveries,
    };
  }

  // ---------------------------------------------------------------- time stamps

  private date(day: number): string {
    return this.days.date(day);
  }

  private timestampOf(second: number): string {
    return this.days.timestamp(second);
  }

  /**
   * Created during office hours of `createdDay` (never later than yesterday, so that nothing is
   * stamped in the future of `today`), last updated then or on a later day up to yesterday.
   */
  private stamp(createdDay: number, rng: Random): Stamped {
    const day = Math.min(Math.max(createdDay, this.founded), this.today - 1);
    const created = day * DAY_SECONDS + rng.int(7 * 3600, 19 * 3600);
    const latest = this.today * DAY_SECONDS - 1;
    const createdAt = this.timestampOf(created);
    if (rng.chance(0.35)) return { createdAt, lastUpdatedAt: createdAt };
    return { createdAt, lastUpdatedAt: this.timestampOf(created + Math.floor(rng.next() * (latest - created))) };
  }

  /** a stamp whose last update is the archiving moment */
  private archivedStamp(createdDay: number, archivedDay: number, rng: Random): Stamped & { lastArchivedAt: string } {
    const created = this.stamp(createdDay, rng).createdAt;
    const archivedAt = this.timestampOf(Math.min(archivedDay, this.today - 1) * DAY_SECONDS + rng.int(8 * 3600, 18 * 3600));
    return { createdAt: created, lastUpdatedAt: archivedAt, lastArchivedAt: archivedAt };
  }

  // ---------------------------------------------------------------- reference data

  private buildLegalEntitiesAndEstablishments(rng: Random): void {
    const sirens: string[] = [];
    LEGAL_ENTITIES.forEach((spec, index) => {
      const taxValue =
        spec.taxNumber === "siren" ? siren(rng)
        : spec.taxNumber === "britishCompanyNumber" ? britishCompanyNumber(rng)
        : spec.taxNumber === "usEin" ? usEin(rng)
        : swissUid(rng);
      sirens.push(taxValue);
      const createdDay = this.founded + spec.createdAfter;
      const stamps = spec.archived
        ? this.archivedStamp(createdDay, this.today - 400, rng)
        : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
      this.legalEntities.push({
        id: String(index + 1),
        legalName: spec.legalName,
        remoteId: spec.remoteId,
        isArchived: spec.archived,
        countryCode: spec.countryCode,
        currencyCode: spec.currencyCode,
        taxIdentificationNumber: { format: spec.taxNumber === "siren" ? "franceSIREN" : "other", value: taxValue },
        industryCode: { ...spec.industry },
        ...stamps,
      });
    });

    ESTABLISHMENTS.forEach((spec, index) => {
      const entity = LEGAL_ENTITIES[spec.legalEntity - 1]!;
      const entityTax = sirens[spec.legalEntity - 1]!;
      const tax =
        entity.taxNumber === "siren"
          ? { format: "franceSIRET", value: siret(entityTax, rng) }
          : { format: "other", value: entityTax };
      const createdDay = this.founded + spec.createdAfter;
      const stamps = spec.archived
        ? this.archivedStamp(createdDay, this.today - 700, rng)
        : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
      this.establishments.push({
        id: String(index + 1),
        name: spec.name,
        remoteId: spec.remoteId,
        legalEntityId: String(spec.legalEntity),
        isHeadquarters: spec.isHeadquarters,
        taxIdentificationNumber: tax,
        industryCode: { ...entity.industry },
        address: { ...spec.address, addressLines: [...spec.address.addressLines] },
        timezoneId: spec.timezoneId,
        isArchived: spec.archived,
        ...stamps,
      });
      if (!spec.archived) {
        const list = this.establishmentsOfEntity.get(spec.legalEntity - 1) ?? [];
        list.push(index);
        this.establishmentsOfEntity.set(spec.legalEntity - 1, list);
      }
    });
    this.establishmentPicker = new WeightedPicker(ESTABLISHMENTS.map((spec, index) => [index, spec.archived ? 0 : spec.weight] as const));
  }

  /** how many squads a company of this size gets below the leaf departments (bounded) */
  private squadCount(): number {
    const n = this.settings.employees;
    return n <= 1000 ? 0 : Math.min(120, Math.floor((n - 1000) / 800) + 1);
  }

  private buildDepartments(rng: Random): void {
    const add = (info: Omit<DeptInfo, "record">, name: string, remoteId: string | null, archived: boolean, createdDay: number): void => {
      const id = String(this.departments.length + 1);
      const parentRecord = info.parent >= 0 ? this.departments[info.parent]!.record : null;
      this.departments.push({
        ...info,
        record: {
          id,
          name,
          remoteId,
          isArchived: archived,
          parentId: parentRecord ? parentRecord.id : null,
          level: parentRecord ? parentRecord.level + 1 : 1,
          managerId: null,
          owningApplication: "directory",
          description: parentRecord ? null : "The whole company: every department descends from this one.",
          sortOrder: this.departments.filter((d) => d.parent === info.parent).length,
          ...this.stamp(createdDay, rng),
        },
      });
    };

    DEPARTMENTS.forEach((spec, index) => {
      const parent = spec.parent === null ? -1 : spec.parent - 1;
      const headTitle: readonly [string, string] =
        parent < 0 ? ["Chief Executive Officer", "Président-directeur général"] : [`Head of ${spec.name}`, `Responsable ${spec.fr}`];
      add(
        { family: spec.family, ladder: spec.ladder ?? FAMILIES[spec.family].ladder, parent, headTitle },
        spec.name,
        `DEP-${String(index + 1).padStart(3, "0")}`,
        spec.archived,
        this.founded + 30 + index * 40,
      );
    });

    // larger companies get squads below the leaves, round-robin, so that no parent gets many
    const leaves = this.departments
      .map((dept, index) => ({ dept, index }))
      .filter(({ dept, index }) => !dept.record.isArchived && dept.record.level >= 3 && !this.departments.some((other) => other.parent === index))
      .map(({ index }) => index);
    const squads = this.squadCount();
    for (let s = 0; s < squads; s++) {
      const parent = leaves[s % leaves.length]!;
      const parentInfo = this.departments[parent]!;
      const squad = SQUAD_NAMES[Math.floor(s / leaves.length) % SQUAD_NAMES.length]!;
      const round = Math.floor(s / (leaves.length * SQUAD_NAMES.length));
      const name = `${parentInfo.record.name} – ${squad}${round > 0 ? ` ${round + 1}` : ""}`;
      add(
        { family: parentInfo.family, ladder: parentInfo.ladder, parent, headTitle: [`Squad Lead, ${name}`, `Responsable d'équipe ${name}`] },
        name,
        null,
        false,
        this.today - rng.int(60, 1500),
      );
    }

    const active = this.departments.map((d, i) => ({ d, i })).filter(({ d }) => !d.record.isArchived);
    const hasChildren = new Set(this.departments.map((d) => d.parent));
    this.departmentPicker = new WeightedPicker(
      active.map(({ d, i }) => [i, d.record.level === 1 ? 1 : d.record.level === 2 ? 2 : hasChildren.has(i) ? 3 : 6] as const),
    );
    this.founders = active.map(({ i }) => i).slice(0, this.settings.employees);
  }

  private buildReferenceData(rng: Random): void {
    const refDay = this.founded + 20;
    TEMPLATES.forEach((spec, index) => {
      this.templates.push({
        id: String(index + 1),
        title: spec.title,
        legalEntityIds: spec.legalEntities.map(String),
        term: spec.term,
        audience: spec.audience,
        t9n: { title: { ...spec.t9n } },
        ...this.stamp(refDay + index * 30, rng),
      });
    });

    OCCUPATION_CATEGORIES.forEach((spec, index) => {
      this.categories.push({
        id: String(index + 1),
        title: spec.title,
        businessEstablishmentIds: spec.establishments ? spec.establishments.map(String) : null,
        t9n: { title: { ...spec.t9n } },
        ...this.stamp(refDay + index * 20, rng),
      });
    });

    // qualification id = (profession - 1) * 3 + rank for ranks 1-3; the last one is the internship
    FAMILY_ORDER.forEach((family, p) => {
      for (let rank = 1; rank <= 3; rank++) {
        this.qualifications.push({
          id: String(p * 3 + rank),
          title: `${FAMILIES[family].profession} – ${RANK_NAMES[rank - 1]}`,
          professionId: String(p + 1),
          rank,
          t9n: { title: { "en-GB": `${FAMILIES[family].profession} – ${RANK_NAMES[rank - 1]}` } },
          ...this.stamp(refDay + p * 10, rng),
        });
      }
    });
    this.qualifications.push({
      id: String(FAMILY_ORDER.length * 3 + 1),
      title: "Internship",
      professionId: String(FAMILY_ORDER.length + 1),
      rank: 0,
      t9n: { title: { "en-GB": "Internship", "fr-FR": "Stage" } },
      ...this.stamp(refDay + 200, rng),
    });

    TAXONOMIES.forEach((spec, index) => {
      const taxonomyId = String(index + 1);
      this.taxonomies.push({
        id: taxonomyId,
        name: spec.name,
        sortLabelsBy: spec.sortLabelsBy,
        t9n: { name: { ...spec.t9n } },
        ...this.stamp(refDay + 400 + index * 90, rng),
      });
      spec.labels.forEach((label, labelIndex) => {
        const createdDay = refDay + 400 + index * 90 + labelIndex * 7;
        const stamps = label.archived
          ? this.archivedStamp(createdDay, this.today - rng.int(30, 900), rng)
          : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
        this.labels.push({
          id: String(this.labels.length + 1),
          taxonomyId,
          name: label.name,
          remoteId: label.remoteId,
          applicabilitySchema: {
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: { type: { const: "employee" } },
            required: ["type"],
          },
          isArchived: label.archived ?? false,
          t9n: { name: { ...label.t9n } },
          ...stamps,
        });
      });
    });
    // cost-centre labels by position in the first taxonomy, as FAMILIES refers to them
    this.costCentreLabelIds = this.labels.filter((l) => l.taxonomyId === "1" && !l.isArchived).map((l) => l.id);

    this.buildAttributeDefinitions(rng);
  }

  private buildAttributeDefinitions(rng: Random): void {
    const schema = (body: Record<string, unknown>) => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...body });
    const day = this.founded + 900;
    const defs: Array<Omit<EmployeeAttributeDefinition, keyof Stamped | "isArchived" | "lastArchivedAt"> & { archived?: boolean }> = [
      {
        id: "employee.shirtSize",
        name: "Shirt size",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "string", enum: ["XS", "S", "M", "L", "XL", "XXL"], description: "Size of the company T-shirt" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Taille de T-shirt", "de-DE": "T-Shirt-Größe" } },
      },
      {
        id: "employee.emergencyContact",
        name: "Emergency contact",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 255 },
            relationship: { type: "string", enum: ["partner", "parent", "sibling", "child", "friend"] },
            phoneNumber: { type: "string", minLength: 3, maxLength: 32 },
          },
          required: ["name", "phoneNumber"],
          additionalProperties: false,
        }),
        propertyDescriptions: { name: "Full name of the contact", relationship: "How the contact relates to the employee", phoneNumber: "Phone number to call" },
        t9n: { name: { "fr-FR": "Personne à prévenir en cas d'urgence" } },
      },
      {
        id: "employee.costCenter",
        name: "Cost centre",
        multipleValueHandling: null,
        taxonomyId: "1",
        schema: schema({ type: "string", minLength: 1, description: "Id of a label of the Cost centres taxonomy" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Centre de coûts", "en-US": "Cost center" } },
      },
      {
        id: "employee.childrenCount",
        name: "Number of dependent children",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "integer", minimum: 0, maximum: 20 }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Nombre d'enfants à charge" } },
      },
      {
        id: "employee.commuteDistanceKm",
        name: "Commute distance (km)",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "number", minimum: 0, description: "One-way distance between home and the workplace" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Distance domicile-travail (km)" } },
      },
      {
        id: "employee.companyCar",
        name: "Company car",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: {
            model: { type: "string", minLength: 1, maxLength: 100 },
            licensePlate: { type: "string", minLength: 1, maxLength: 16 },
            fiscalHorsePower: { type: "integer", minimum: 1 },
          },
          required: ["model", "licensePlate"],
        }),
        propertyDescriptions: { model: "Make and model", licensePlate: "Registration plate", fiscalHorsePower: "Fiscal horsepower (France)" },
        t9n: { name: { "fr-FR": "Véhicule de fonction" } },
      },
      {
        id: "employee.badgeNumber",
        name: "Badge number",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "string", pattern: "^B-[0-9]{6}$", description: "Number of the former access badge" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Numéro de badge" } },
        archived: true,
      },
      {
        id: "employment.annualSalary",
        name: "Annual gross salary",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: { amount: { type: "number", minimum: 0 }, currency: { type: "string", pattern: "^[A-Z]{3}$" } },
          required: ["amount", "currency"],
        }),
        propertyDescriptions: { amount: "Gross amount per year", currency: "ISO 4217 currency of the legal entity" },
        t9n: { name: { "fr-FR": "Salaire annuel brut" } },
      },
      {
        id: "jobPosition.workArrangement",
        name: "Work arrangement",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: { mode: { type: "string", enum: ["onsite", "hybrid", "remote"] }, officeDaysPerWeek: { type: "integer", minimum: 0, maximum: 5 } },
          required: ["mode"],
        }),
        propertyDescriptions: { mode: "Where the work is done", officeDaysPerWeek: "Days per week expected at the office" },
        t9n: { name: { "fr-FR": "Modalité de travail" } },
      },
    ];
    defs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    defs.forEach(({ archived, ...def }, index) => {
      const stamps = archived
        ? this.archivedStamp(day + index * 15, this.today - 200, rng)
        : { ...this.stamp(day + index * 15, rng), lastArchivedAt: null };
      this.definitions.push({ ...def, isArchived: archived ?? false, ...stamps });
    });
  }

  // ---------------------------------------------------------------- people

  private poolPicker(country: string): WeightedPicker<PoolKey> {
    let picker = this.poolPickers.get(country);
    if (!picker) {
      picker = new WeightedPicker(POOL_WEIGHTS_BY_COUNTRY[country] ?? [["enGB", 1]]);
      this.poolPickers.set(country, picker);
    }
    return picker;
  }

  private uniqueEmail(given: string, family: string): string {
    const base = `${emailPart(given) || "x"}.${emailPart(family) || "x"}`;
    const count = (this.emailCounts.get(base) ?? 0) + 1;
    this.emailCounts.set(base, count);
    // the counter suffix cannot collide with another base: bases never end in a digit
    return count === 1 ? flat`${base}@${EMAIL_DOMAIN}` : flat`${base}${count}@${EMAIL_DOMAIN}`;
  }

  /** employment timeline, oldest first, never overlapping */
  private drawTimeline(kind: EmployeeKind, founder: boolean, home: number, rng: Random): Stint[] {
    const T = this.today;
    const firstHire = this.founded + FIRST_HIRE_AFTER;
    const stints: Stint[] = [];
    const otherEstablishment = (): number => (rng.chance(0.8) ? home : this.establishmentPicker.pick(rng));

    const addPrior = (beforeDay: number, probability: number): void => {
      let boundary = beforeDay;
      const earlier: Stint[] = [];
      let chance = probability;
      while (rng.chance(chance)) {
        const end = boundary - rng.int(1, 400);
        const start = end - rng.int(60, 3 * 365);
        if (start < firstHire) break;
        earlier.unshift({ start, end, establishment: otherEstablishment() });
        boundary = start;
        chance = 0.25;
      }
      stints.push(...earlier);
    };

    if (kind === "active") {
      let start = founder ? T - rng.int(3 * 365, 14 * 365) : T - Math.floor(Math.pow(rng.next(), 1.6) * 12 * 365);
      let end: number | null = null;
      if (!founder && rng.chance(0.22)) {
        // fixed-term contracts are short: keep the start close enough to the end
        end = T + rng.int(0, 540);
        start = Math.max(start, T - rng.int(30, 700));
      }
      start = Math.max(start, firstHire);
      addPrior(start, founder ? 0.15 : 0.3);
      stints.push({ start, end, establishment: home });
      if (end !== null && rng.chance(0.3)) {
        const nextStart = end + rng.int(1, 45);
        stints.push({ start: nextStart, end: rng.chance(0.5) ? null : nextStart + rng.int(90, 720), establishment: home });
      }
    } else if (kind === "upcoming") {
      const start = T + rng.int(1, 120);
      addPrior(T - rng.int(30, 1500), 0.3);
      stints.push({ start, end: rng.chance(0.75) ? null : start + rng.int(90, 365), establishment: home });
    } else {
      const end = T - rng.int(1, 5 * 365);
      const start = Math.max(firstHire, end - rng.int(30, 6 * 365));
      addPrior(start, 0.2);
      stints.push({ start, end, establishment: home });
    }
    return stints;
  }

  /** template index for an employment of `entity` (0-based legal entity index) */
  private chooseTemplate(entity: number, start: number, end: number | null, founder: boolean, rng: Random): number {
    const permanent = entity === 0 ? 0 : entity === 1 ? 3 : 5;
    if (end === null || founder) return permanent;
    const short = end - start <= 270;
    const r = rng.next();
    if (entity === 0) return r < 0.45 ? 1 : r < 0.6 && short ? 2 : permanent;
    if (r < 0.15) return 7; // contractor
    if (r < 0.25 && short) return 8; // intern
    if (r < 0.6) return entity === 1 ? 4 : 6;
    return permanent;
  }

  private phoneNumber(country: string, establishment: number, rng: Random): string {
    const sep = rng.pick(PHONE_SEPARATORS);
    if (country === "FRA") {
      return flat`+33${rng.int(6, 7)}${sep}${rng.int(100, 999)}${sep}${String(rng.int(0, 99999)).padStart(5, "0")}`;
    }
    // +44 7700 900xxx is the range Ofcom keeps for drama
    if (country === "GBR") return flat`+447${sep}700${sep}900${String(rng.int(0, 999)).padStart(3, "0")}`;
    const area = rng.pick(US_AREA_CODES[establishment] ?? US_AREA_CODES[4]!);
    // 555-0100 to 555-0199 are the numbers reserved for fiction
    const line = String(rng.int(0, 99)).padStart(2, "0");
    return rng.chance(0.5) ? flat`(${area}) 555-01${line}` : flat`${area}-555-01${line}`;
  }

  private buildEmployee(index: number): void {
    const rng = this.root.fork(SALT_EMPLOYEE + index);
    const T = this.today;
    const id = String(index + 1);
    const founderDept = index < this.founders.length ? this.founders[index]! : -1;
    const founder = founderDept >= 0;

    let kind: EmployeeKind = "active";
    if (!founder) {
      const r = rng.next();
      kind = r < 0.78 ? "active" : r < 0.86 ? "upcoming" : "deactivated";
    }
    // the CEO works at the Paris headquarters
    const home = index === 0 ? 0 : this.establishmentPicker.pick(rng);
    const homeEntity = Number(this.establishments[home]!.legalEntityId) - 1;
    const country = this.legalEntities[homeEntity]!.countryCode;

    const poolKey = this.poolPicker(country).pick(rng);
    const pool: NamePool = NAME_POOLS[poolKey];
    const g = rng.next();
    const gender = g < 0.47 ? "female" : g < 0.94 ? "male" : "neutral";
    const given = rng.pick(gender === "female" ? pool.female : gender === "male" ? pool.male : pool.neutral);
    const family = rng.pick(pool.family);

    const age = rng.int(19, 66);
    const birthDay = T - age * 365 - rng.int(0, 364);
    const birth = this.days.monthDay(birthDay);

    const stints = this.drawTimeline(kind, founder, home, rng);
    const employeeCreatedDay = Math.max(this.founded, stints[0]!.start - rng.int(10, 45));
    const employeeStamp = this.stamp(employeeCreatedDay, rng);

    const email = rng.chance(0.03) ? null : this.uniqueEmail(given, family);
    this.employees.push({
      id,
      remoteId: `W${String(index + 1).padStart(6, "0")}`,
      givenName: given,
      familyName: family,
      employeeNumber: String(index + 1).padStart(5, "0"),
      email,
      phoneNumber: rng.chance(0.8) ? this.phoneNumber(country, home, rng) : null,
      birthDay: { day: birth.day, month: birth.month },
      portraitId: id,
      ...employeeStamp,
    });

    // careers: seniority grows along the positions, the department mostly stays
    // department heads were hired senior
    let step = founder ? 2 : rng.int(0, 1);
    let dept = this.departmentPicker.pick(rng);
    let lastPositionIndex = -1;
    let lastFamily: Family = this.departments[dept]!.family;

    stints.forEach((stint) => {
      const entity = Number(this.establishments[stint.establishment]!.legalEntityId) - 1;
      const templateIndex = this.chooseTemplate(entity, stint.start, stint.end, founder, rng);
      const template = TEMPLATES[templateIndex]!;
      const employmentId = String(this.employments.length + 1);
      const employmentCreatedDay = Math.max(employeeCreatedDay, stint.start - rng.int(5, 40));
      const employment: Employment = {
        id: employmentId,
        remoteId: rng.chance(0.9) ? flat`CTR-${this.days.year(stint.start)}-${employmentId.padStart(5, "0")}` : null,
        employeeId: id,
        startDate: this.date(stint.start),
        endDate: stint.end === null ? null : this.date(stint.end),
        templateId: this.templates[templateIndex]!.id,
        documentId: rng.chance(0.6) ? String(this.nextFileId++) : null,
        ...this.stamp(employmentCreatedDay, rng),
      };
      this.employments.push(employment);

      const isCurrent = stint.start <= T && (stint.end === null || stint.end >= T);
      // founders keep their department as their position of today, with nothing planned after it
      let limit: number;
      if (stint.end !== null) limit = stint.end;
      else if (stint.start > T) limit = stint.start + 365;
      else limit = !founder && rng.chance(0.1) ? T + 90 : T;
      const starts = this.positionStarts(stint.start, limit, rng);

      const entityEstablishments = this.establishmentsOfEntity.get(entity)!;
      let establishment = stint.establishment;
      starts.forEach((startsOn, p) => {
        if (p > 0 && entityEstablishments.length > 1 && rng.chance(0.12)) establishment = rng.pick(entityEstablishments);
        if (lastPositionIndex >= 0) {
          if (rng.chance(0.35)) dept = this.departmentPicker.pick(rng);
          if (rng.chance(0.55)) step = Math.min(step + 1, 3);
        }
        const isFounderSeat = founder && isCurrent && p === starts.length - 1;
        if (isFounderSeat) dept = founderDept;
        const info = this.departments[dept]!;
        lastFamily = info.family;
        const positionIndex = this.positions.length;
        this.positions.push(
          this.buildPosition(rng, {
            id: String(positionIndex + 1),
            employmentId,
            employeeId: id,
            startsOn,
            establishment,
            entity,
            info,
            step,
            audience: template.audience,
            createdDay: Math.max(employmentCreatedDay, startsOn - rng.int(0, 30)),
          }),
        );
        this.positionDept.push(dept);
        const nextStart = starts[p + 1];
        if (isCurrent && startsOn <= T && (nextStart === undefined || nextStart > T)) {
          this.currentDept[index] = dept;
          this.currentPosition[index] = positionIndex;
        }
        const endsOn = nextStart !== undefined ? nextStart - 1 : stint.end;
        if (rng.chance(0.3)) {
          this.addAttribute(rng, id, "jobPosition.workArrangement", this.workArrangement(rng), {
            jobPositionId: this.positions[positionIndex]!.id,
            applicability: { start: this.date(startsOn), end: endsOn === null ? null : this.date(endsOn) },
            createdDay: startsOn,
          });
        }
        lastPositionIndex = positionIndex;
      });

      if (template.audience !== "external" && rng.chance(0.85)) {
        const currency = this.legalEntities[entity]!.currencyCode;
        const base = { 0: 42_000, 1: 48_000, 2: 85_000 }[entity] ?? 50_000;
        this.addAttribute(rng, id, "employment.annualSalary", { amount: Math.round((base * (1 + step * 0.35) * (0.8 + rng.next() * 0.5)) / 100) * 100, currency }, {
          employmentId,
          applicability: { start: employment.startDate, end: employment.endDate },
          createdDay: employmentCreatedDay,
        });
      }
      if (template.audience !== "external" && rng.chance(0.55)) this.addProbation(rng, employmentId, stint, employmentCreatedDay);
    });

    this.addEmployeeAttributes(rng, id, pool, lastFamily, stints, employeeCreatedDay, country, home, kind);
    this.addPersonalRecord(rng, index, pool, gender, birthDay, country, email === null ? null : given, family, employeeStamp);
  }

  /** first position on the employment's start, later ones strictly later (two days apart at least), all <= limit */
  private positionStarts(start: number, limit: number, rng: Random): number[] {
    const span = limit - start;
    const most = Math.min(4, 1 + Math.floor(span / 200));
    const count = rng.int(1, most);
    const offsets: number[] = [];
    for (let k = 1; k < count; k++) offsets.push(rng.int(2, Math.max(2, span)));
    offsets.sort((a, b) => a - b);
    const starts = [start];
    for (const offset of offsets) {
      if (offset > span) continue;
      if (start + offset >= starts[starts.length - 1]! + 2) starts.push(start + offset);
    }
    return starts;
  }

  private buildPosition(
    rng: Random,
    p: {
      id: string;
      employmentId: string;
      employeeId: string;
      startsOn: number;
      establishment: number;
      entity: number;
      info: DeptInfo;
      step: number;
      audience: "employee" | "student" | "external";
      createdDay: number;
    },
  ): JobPosition {
    const professionIndex = FAMILY_ORDER.indexOf(p.info.family);
    let title: string;
    let titleFr: string;
    let qualificationId: string;
    let category: number;
    if (p.audience === "student") {
      title = `${FAMILIES[p.info.family].profession} Intern`;
      titleFr = `Stagiaire ${FAMILIES[p.info.family].fr}`;
      qualificationId = String(FAMILY_ORDER.length * 3 + 1);
      category = CATEGORY.intern;
    } else {
      const [en, fr, rank] = p.info.ladder[Math.min(p.step, p.info.ladder.length - 1)]!;
      title = en;
      titleFr = fr;
      qualificationId = String(professionIndex * 3 + rank);
      if (p.audience === "external") category = CATEGORY.contractor;
      else if (p.entity === 0) category = rank >= 2 ? CATEGORY.cadre : CATEGORY.etam;
      else if (p.entity === 1) category = CATEGORY.salaried;
      else category = rank >= 2 ? CATEGORY.exempt : CATEGORY.nonExempt;
    }
    let workingTime: string | null = null;
    if (p.entity === 0) {
      const r = rng.next();
      workingTime = r < 0.8 ? WORKING_TIME_ARRANGEMENTS.fullTime35h : r < 0.9 ? WORKING_TIME_ARRANGEMENTS.partTime80 : null;
    }
    return {
      id: p.id,
      remoteId: rng.chance(0.85) ? `JP-${p.id.padStart(6, "0")}` : null,
      employmentId: p.employmentId,
      employeeId: p.employeeId,
      startsOn: this.date(p.startsOn),
      businessEstablishmentId: this.establishments[p.establishment]!.id,
      jobTitle: title,
      jobQualificationId: this.qualifications[Number(qualificationId) - 1]!.id,
      managerId: null,
      occupationCategoryId: this.categories[category - 1]!.id,
      workingTimeArrangementId: workingTime,
      departmentId: p.info.record.id,
      documentId: rng.chance(0.2) ? String(this.nextFileId++) : null,
      notes: rng.chance(0.1) ? rng.pick(POSITION_NOTES) : null,
      t9n: this.jobTitleTranslations(title, titleFr),
      ...this.stamp(p.createdDay, rng),
    };
  }

  /**
   * Positions with the same title share one translations object: hundreds of thousands of
   * positions at 100 000 employees, a few dozen titles. Frozen, so that an in-place edit fails
   * loudly instead of retitling everybody; replace the object to change one position.
   */
  private jobTitleTranslations(en: string, fr: string): JobPosition["t9n"] {
    let byFrench = this.titleTranslations.get(en);
    if (!byFrench) {
      byFrench = new Map();
      this.titleTranslations.set(en, byFrench);
    }
    let t9n = byFrench.get(fr);
    if (!t9n) {
      t9n = Object.freeze({ jobTitle: Object.freeze({ "en-GB": en, "fr-FR": fr }) }) as JobPosition["t9n"];
      byFrench.set(fr, t9n);
    }
    return t9n;
  }

  private workArrangement(rng: Random): { mode: string; officeDaysPerWeek: number } {
    const r = rng.next();
    if (r < 0.35) return { mode: "onsite", officeDaysPerWeek: 5 };
    if (r < 0.85) return { mode: "hybrid", officeDaysPerWeek: rng.int(1, 4) };
    return { mode: "remote", officeDaysPerWeek: 0 };
  }

  private addAttribute(
    rng: Random,
    employeeId: string,
    definitionId: string,
    value: unknown,
    origin: {
      employmentId?: string;
      jobPositionId?: string;
      applicability: EmployeeAttribute["applicability"];
      createdDay: number;
    },
  ): void {
    this.attributes.push({
      id: String(this.attributes.length + 1),
      definitionId,
      employeeId,
      employmentId: origin.employmentId ?? null,
      jobPositionId: origin.jobPositionId ?? null,
      applicability: origin.applicability,
      value,
      ...this.stamp(origin.createdDay, rng),
    });
  }

  private addEmployeeAttributes(
    rng: Random,
    id: string,
    pool: NamePool,
    family: Family,
    stints: Stint[],
    createdDay: number,
    country: string,
    home: number,
    kind: EmployeeKind,
  ): void {
    const forever = FOREVER;
    if (rng.chance(0.7)) {
      this.addAttribute(rng, id, "employee.shirtSize", rng.pick(SHIRT_SIZES), { applicability: rng.chance(0.5) ? null : forever, createdDay });
    }
    if (rng.chance(0.55)) {
      const contactGiven = rng.pick(rng.chance(0.5) ? pool.female : pool.male);
      this.addAttribute(
        rng,
        id,
        "employee.emergencyContact",
        { name: flat`${contactGiven} ${rng.pick(pool.family)}`, relationship: rng.pick(RELATIONSHIPS), phoneNumber: this.phoneNumber(country, home, rng) },
        { applicability: forever, createdDay },
      );
    }
    if (rng.chance(0.8)) {
      const labelId = this.costCentreLabelIds[FAMILIES[family].costCentre - 1] ?? this.costCentreLabelIds[0]!;
      this.addAttribute(rng, id, "employee.costCenter", labelId, { applicability: null, createdDay });
    }
    if (rng.chance(0.35)) {
      this.addAttribute(rng, id, "employee.childrenCount", rng.int(0, 4), { applicability: forever, createdDay });
    }
    if (rng.chance(0.2)) {
      this.addAttribute(rng, id, "employee.commuteDistanceKm", Math.round(rng.next() * 600) / 10, { applicability: null, createdDay });
    }
    if (rng.chance(0.1)) {
      this.addAttribute(rng, id, "employee.badgeNumber", `B-${String(rng.int(0, 999_999)).padStart(6, "0")}`, { applicability: null, createdDay });
    }
    // company cars come and go: time-bounded values, an older car ended the day before the new one
    const last = stints[stints.length - 1]!;
    if (kind === "active" && last.start < this.today - 60 && rng.chance(0.12)) {
      const span = this.today - last.start;
      let carStart = last.start + rng.int(0, Math.max(0, span - 30));
      if (span > 400 && rng.chance(0.4)) {
        const earlierStart = last.start + rng.int(0, Math.floor(span / 3));
        carStart = Math.max(carStart, earlierStart + 60);
        this.addAttribute(rng, id, "employee.companyCar", this.car(rng, country), {
          applicability: { start: this.date(earlierStart), end: this.date(carStart - 1) },
          createdDay: earlierStart,
        });
      }
      this.addAttribute(rng, id, "employee.companyCar", this.car(rng, country), {
        applicability: { start: this.date(carStart), end: last.end === null ? null : this.date(last.end) },
        createdDay: carStart,
      });
    }
  }

  private car(rng: Random, country: string): { model: string; licensePlate: string; fiscalHorsePower?: number } {
    const letters = () => String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25));
    const model = rng.pick(CAR_MODELS);
    if (country === "FRA") {
      return { model, licensePlate: flat`${letters()}-${String(rng.int(1, 999)).padStart(3, "0")}-${letters()}`, fiscalHorsePower: rng.int(4, 11) };
    }
    if (country === "GBR") return { model, licensePlate: flat`${letters()}${rng.int(10, 74)} ${letters()}${String.fromCharCode(65 + rng.int(0, 25))}` };
    return { model, licensePlate: flat`${rng.int(1, 9)}${letters()}${String.fromCharCode(65 + rng.int(0, 25))}${rng.int(100, 999)}` };
  }

  private addProbation(rng: Random, employmentId: string, stint: Stint, createdDay: number): void {
    let initial = stint.start + rng.pick(PROBATION_DAYS);
    if (stint.end !== null) initial = Math.min(initial, stint.end);
    let extended: number | null = null;
    if (rng.chance(0.25)) {
      extended = initial + rng.int(30, 90);
      if (stint.end !== null) extended = Math.min(extended, stint.end);
      if (extended <= initial) extended = null;
    }
    this.probationaryPeriods.push({
      id: String(this.probationaryPeriods.length + 1),
      employmentId,
      initialEndsOn: this.date(initial),
      extendedEndsOn: extended === null ? null : this.date(extended),
      ...this.stamp(createdDay, rng),
    });
  }

  private addPersonalRecord(
    rng: Random,
    index: number,
    pool: NamePool,
    gender: "female" | "male" | "neutral",
    birthDay: number,
    country: string,
    emailGiven: string | null,
    family: string,
    stamps: Stamped,
  ): void {
    let legalGender: EmployeePersonalRecord["legalGender"];
    let title: EmployeePersonalRecord["title"];
    const r = rng.next();
    if (gender === "neutral") {
      legalGender = r < 0.4 ? "diverse" : r < 0.7 ? "unknown" : r < 0.85 ? "female" : "male";
      title = "unknown";
    } else {
      legalGender = r < 0.95 ? gender : r < 0.98 ? "unknown" : "diverse";
      title = legalGender === "female" ? (rng.chance(0.85) ? "miss" : "unknown") : legalGender === "male" ? (rng.chance(0.9) ? "mister" : "unknown") : "unknown";
    }
    const birthDate = rng.chance(0.04) ? null : this.date(birthDay);
    const { month } = this.days.monthDay(birthDay);
    const year = this.days.year(birthDay);

    let insuranceNumber: EmployeePersonalRecord["insuranceNumber"];
    let bankAccount: EmployeePersonalRecord["bankAccount"];
    if (country === "FRA") {
      const sex = legalGender === "female" ? 2 : legalGender === "male" ? 1 : rng.chance(0.5) ? 1 : 2;
      insuranceNumber = { format: "frenchSSN", value: frenchSsn(rng, { sex, birthYear: year, birthMonth: month, bornInFrance: pool.nationality === "FRA" || rng.chance(0.3) }) };
      const bank = rng.pick(BANKS.FRA);
      bankAccount = { format: "iban", bankName: bank.name, accountIdentifier: frenchIban(rng, bank.code), bankIdentifier: rng.chance(0.9) ? bank.bic : null };
    } else if (country === "GBR") {
      insuranceNumber = { format: "other", value: britishNino(rng) };
      const bank = rng.pick(BANKS.GBR);
      bankAccount = { format: "iban", bankName: bank.name, accountIdentifier: britishIban(rng, bank.code), bankIdentifier: rng.chance(0.9) ? bank.bic : null };
    } else {
      insuranceNumber = { format: "other", value: usSsn(rng) };
      // US accounts have no IBAN: account number and ABA routing number
      bankAccount = { format: "other", bankName: rng.pick(BANKS.USA).name, accountIdentifier: usAccountNumber(rng), bankIdentifier: abaRoutingNumber(rng) };
    }

    const n = rng.next();
    const nationalitiesCountryCodes = n < 0.06 ? [] : n < 0.3 ? [country] : [pool.nationality];
    const id = String(index + 1);
    this.personalRecords.push({
      id,
      employeeId: id,
      title,
      legalGender,
      birthDate,
      insuranceNumber,
      nationalitiesCountryCodes,
      bankAccount,
      phoneNumber: rng.chance(0.75) ? this.phoneNumber(country, 0, rng) : null,
      email:
        emailGiven !== null && rng.chance(0.6)
          ? flat`${emailPart(emailGiven)}.${emailPart(family)}${rng.int(1, 99)}@${rng.pick(PERSONAL_MAIL_DOMAINS)}`
          : null,
      ...stamps,
    });
  }

  // ---------------------------------------------------------------- hierarchy

  /**
   * Heads: the founder of a department (employee i heads the i-th active department) or else its
   * first current member. Each person has at most one position today, so nobody heads two
   * departments. The manager of a position is the head of its department, or, for the head
   * themself (or a department without a head), the nearest head further up: managers always
   * sit strictly higher in the tree, so the hierarchy cannot loop.
   */
  private assignManagers(): void {
    const heads = new Int32Array(this.departments.length).fill(-1);
    this.founders.forEach((dept, employee) => {
      if (this.currentDept[employee] === dept) heads[dept] = employee;
    });
    for (let employee = 0; employee < this.currentDept.length; employee++) {
      const dept = this.currentDept[employee]!;
      if (dept >= 0 && heads[dept] === -1) heads[dept] = employee;
    }
    heads.forEach((employee, dept) => {
      if (employee < 0) return;
      const info = this.departments[dept]!;
      info.record.managerId = String(employee + 1);
      const seat = this.positions[this.currentPosition[employee]!]!;
      seat.jobTitle = info.headTitle[0];
      seat.t9n = this.jobTitleTranslations(info.headTitle[0], info.headTitle[1]);
      const professionIndex = FAMILY_ORDER.indexOf(info.family);
      seat.jobQualificationId = String(professionIndex * 3 + 3);
      if (info.record.level <= 2) seat.occupationCategoryId = String(CATEGORY.leadership);
    });

    for (let p = 0; p < this.positions.length; p++) {
      const position = this.positions[p]!;
      const self = Number(position.employeeId) - 1;
      let dept = this.positionDept[p]!;
      let manager: number | null = null;
      while (dept >= 0) {
        const head = heads[dept]!;
        if (head >= 0 && head !== self) {
          manager = head;
          break;
        }
        dept = this.departments[dept]!.parent;
      }
      position.managerId = manager === null ? null : String(manager + 1);
    }
  }

  // ---------------------------------------------------------------- webhooks

  /** professions of the job qualifications: one per job family, and internships */
  private buildProfessions(): Profession[] {
    const professions: Profession[] = FAMILY_ORDER.map((family, p) => ({
      id: String(p + 1),
      title: FAMILIES[family].profession,
      isArchived: false,
      t9n: { title: { "fr-FR": FAMILIES[family].fr.charAt(0).toUpperCase() + FAMILIES[family].fr.slice(1) } },
    }));
    professions.push({ id: String(FAMILY_ORDER.length + 1), title: "Internships", isArchived: false, t9n: { title: { "fr-FR": "Stages" } } });
    return professions;
  }

  /**
   * An `employee.created` event per employee (event id = employee id) at the employee's creation,
   * and the attempts of the generated deliveries.
   */
  private buildEvents(deliveries: readonly WebhookDelivery[]): Pick<Company, "events" | "webhookDeliveryAttempts" | "professions"> {
    const events: DirectoryEvent[] = this.employees.map((e) => ({
      id: e.id,
      topic: "employee.created",
      occurredAt: e.createdAt,
      employeeId: e.id,
    }));
    const attempts: WebhookDeliveryAttempt[] = [];
    for (const d of deliveries) {
      const event = events[Number(d.eventId) - 1];
      const start = Date.parse(event?.occurredAt ?? this.timestampOf(this.today * DAY_SECONDS));
      for (let n = 0; n < d.attemptsCount; n++) {
        const ok = d.status === "delivered" && n === d.attemptsCount - 1;
        attempts.push({
          id: String(attempts.length + 1),
          webhookDeliveryId: d.id,
          isSuccessful: ok,
          responseStatusCode: ok ? 202 : n % 2 === 0 ? 503 : null,
          errorResponseBody: ok ? "" : n % 2 === 0 ? "Service Unavailable" : "",
          signature: createHash("sha256").update(`${d.id}:${n}`).digest("hex"),
          createdAt: new Date(start + 60_000 * 2 ** n).toISOString(),
        });
      }
    }
    return { events, webhookDeliveryAttempts: attempts, professions: this.buildProfessions() };
  }

  private buildDeliveries(endpoints: WebhookEndpoint[]): WebhookDelivery[] {
    if (endpoints.length === 0) return [];
    const rng = this.root.fork(SALT_WEBHOOKS);
    const tomorrow = (this.today + 1) * DAY_SECONDS;
    const kinds: Array<Pick<WebhookDelivery, "status" | "attemptsCount" | "nextAttemptAt" | "eventType">> = [
      { status: "delivered", attemptsCount: 1, nextAttemptAt: null, eventType: "employee.created" },
      { status: "undelivered", attemptsCount: 2, nextAttemptAt: this.timestampOf(tomorrow + rng.int(0, 6 * 3600)), eventType: "employee.created" },
      { status: "failed", attemptsCount: 5, nextAttemptAt: null, eventType: "employee.created" },
    ];
    return kinds.map((kind, index) => ({
      id: String(index + 1),
      webhookEndpointId: endpoints[index % endpoints.length]!.id,
      eventId: String(index + 1),
      ...kind,
    }));
  }
}

const PHONE_SEPARATORS = [" ", " ", ".", "-"] as const;
/** by establishment index: New York, Chicago, Denver, San Francisco */
const US_AREA_CODES: Readonly<Record<number, readonly string[]>> = { 4: ["212", "646"], 5: ["312", "773"], 6: ["303", "720"], 7: ["415", "628"] };
/** shared by every timeless attribute; frozen so that an in-place edit fails loudly instead of changing them all */
const FOREVER = Object.freeze({ start: null, end: null });
const SHIRT_SIZES = ["XS", "S", "M", "L", "XL", "XXL"] as const;
const RELATIONSHIPS = ["partner", "parent", "sibling", "child", "friend"] as const;
const PROBATION_DAYS = [30, 60, 90, 120, 180] as const;
const PERSONAL_MAIL_DOMAINS = ["mail.example", "courriel.example", "post.example"] as const;
const CAR_MODELS = ["Renault Mégane E-Tech", "Peugeot e-208", "Tesla Model 3", "Škoda Enyaq", "Volkswagen ID.4", "Citroën ë-C4", "Kia Niro EV"] as const;
const POSITION_NOTES = [
  "Promoted after the annual review.",
  "Transfer requested by the employee.",
  "Interim assignment while the team lead is on parental leave.",
  "Relocation package approved; see the signed amendment.",
  "Mobilité interne validée en comité carrières.",
  "Part-time arrangement agreed for one year (80 %).",
] as const;
