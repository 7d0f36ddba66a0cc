import { DayFormatter, parseIsoDate } from "../calendar.js";
import { type Family, type LadderStep } from "../catalog.js";
import type {
  BusinessEstablishment,
  Department,
  Employee,
  EmployeeAttribute,
  EmployeeAttributeDefinition,
  EmployeePersonalRecord,
  Employment,
  EmploymentTemplate,
  JobPosition,
  JobQualification,
  LegalEntity,
  OccupationCategory,
  ProbationaryPeriod,
  Stamped,
  Taxonomy,
  TaxonomyLabel,
  WebhookEndpoint,
} from "../model.js";
import { type PoolKey } from "../names.js";
import { Random } from "../random.js";

export const DEFAULT_EMPLOYEES = 300;
/** beyond this the process would run out of memory long before anyone could use the data */
export const MAX_EMPLOYEES = 1_000_000;
export const EMAIL_DOMAIN = "lumiere-systems.example";

export const DAY_SECONDS = 86_400;
/** the company was founded this many days before `today` */
export const FOUNDED_DAYS_AGO = 16 * 365;
/** nobody was hired during the company's first year */
export const FIRST_HIRE_AFTER = 365;

export const SALT_REFERENCE = 1;
export const SALT_WEBHOOKS = 2;
export const SALT_EMPLOYEE = 1000;

export const DEFAULT_WEBHOOK_ENDPOINTS: readonly WebhookEndpoint[] = [
  { id: "1", url: "http://127.0.0.1:9/webhooks/directory-events", isActive: true },
  { id: "2", url: "http://127.0.0.1:9/webhooks/legacy-payroll-sync", isActive: false },
];


export interface Settings {
  employees: number;
  today: string;
  seed: number;
  webhookEndpoints: WebhookEndpoint[];
}

/** weighted choice with a precomputed cumulative table: O(log n) per draw */
export class WeightedPicker<T> {
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
export interface DeptInfo {
  record: Department;
  family: Family;
  ladder: readonly LadderStep[];
  /** index of the parent in the departments array, -1 for the root */
  parent: number;
  headTitle: readonly [en: string, fr: string];
}

/** one employment of the timeline being drawn for an employee */
export interface Stint {
  start: number;
  end: number | null;
  /** index into the establishments array */
  establishment: number;
}

export type EmployeeKind = "active" | "upcoming" | "deactivated";



/**
 * What every phase of the generator reads and fills: the settings, the company's records as they
 * are drawn, the indexes the later phases need, and the time stamps every record carries.
 */
export abstract class GeneratorState {
  protected readonly days = new DayFormatter();
  protected readonly today: number;
  protected readonly founded: number;
  protected readonly root: Random;

  protected readonly legalEntities: LegalEntity[] = [];
  protected readonly establishments: BusinessEstablishment[] = [];
  protected readonly departments: DeptInfo[] = [];
  protected readonly templates: EmploymentTemplate[] = [];
  protected readonly categories: OccupationCategory[] = [];
  protected readonly qualifications: JobQualification[] = [];
  protected readonly taxonomies: Taxonomy[] = [];
  protected readonly labels: TaxonomyLabel[] = [];
  protected readonly definitions: EmployeeAttributeDefinition[] = [];

  protected readonly employees: Employee[] = [];
  protected readonly employments: Employment[] = [];
  protected readonly positions: JobPosition[] = [];
  protected readonly attributes: EmployeeAttribute[] = [];
  protected readonly personalRecords: EmployeePersonalRecord[] = [];
  protected readonly probationaryPeriods: ProbationaryPeriod[] = [];

  /** department index of every position, parallel to `positions` */
  protected readonly positionDept: number[] = [];
  /** department index of each employee's position as of today, -1 if none */
  protected currentDept!: Int32Array;
  /** index into `positions` of each employee's position as of today, -1 if none */
  protected currentPosition!: Int32Array;
  protected readonly emailCounts = new Map<string, number>();
  protected nextFileId = 1;
  /** English title -> French title -> shared translations */
  protected readonly titleTranslations = new Map<string, Map<string, JobPosition["t9n"]>>();

  protected establishmentPicker!: WeightedPicker<number>;
  protected departmentPicker!: WeightedPicker<number>;
  protected readonly poolPickers = new Map<string, WeightedPicker<PoolKey>>();
  /** active establishment indexes per legal-entity index */
  protected readonly establishmentsOfEntity = new Map<number, number[]>();
  /** department index of the founder of each department: employee i (0-based) heads founders[i] */
  protected founders: number[] = [];
  protected costCentreLabelIds: string[] = [];

  constructor(protected readonly settings: Settings) {
    this.today = parseIsoDate(settings.today);
    this.founded = this.today - FOUNDED_DAYS_AGO;
    this.root = new Random(settings.seed);
  }


  // ---------------------------------------------------------------- time stamps

  protected date(day: number): string {
    return this.days.date(day);
  }

  protected timestampOf(second: number): string {
    return this.days.timestamp(second);
  }

  /**
   * Created during office hours of `createdDay` (never later than yesterday, so that nothing is
   * stamped in the future of `today`), last updated then or on a later day up to yesterday.
   */
  protected stamp(createdDay: number, rng: Random): Stamped {
    const day = Math.min(Math.max(createdDay, this.founded), this.today - 1);
    const created = day * DAY_SECONDS + rng.int(7 * 3600, 19 * 3600);
    const latest = this.today * DAY_SECONDS - 1;
    const createdAt = this.timestampOf(created);
    if (rng.chance(0.35)) return { createdAt, lastUpdatedAt: createdAt };
    return { createdAt, lastUpdatedAt: this.timestampOf(created + Math.floor(rng.next() * (latest - created))) };
  }

  /** a stamp whose last update is the archiving moment */
  protected archivedStamp(createdDay: number, archivedDay: number, rng: Random): Stamped & { lastArchivedAt: string } {
    const created = this.stamp(createdDay, rng).createdAt;
    const archivedAt = this.timestampOf(Math.min(archivedDay, this.today - 1) * DAY_SECONDS + rng.int(8 * 3600, 18 * 3600));
    return { createdAt: created, lastUpdatedAt: archivedAt, lastArchivedAt: archivedAt };
  }
}
