import { parseIsoDate } from "../data/calendar.js";
import { byId, compareStrings, dayBefore, employeeStatusOf, groupSorted, pickApplicable, statusOf } from "../data/records.js";
import { Random } from "../data/random.js";
import type {
  BusinessEstablishment,
  Company,
  Department,
  Employee,
  EmployeePersonalRecord,
  EmployeeStatus,
  Employment,
  EmploymentTemplate,
  Id,
  IsoDate,
  JobPosition,
  LegalEntity,
  ProbationaryPeriod,
} from "../data/model.js";

/**
 * The legacy API's read of the demo company: lookups by id and by parent, and what the legacy
 * resources derive from the records (statuses as of `today`, applicable employment and job
 * position). Built on the first legacy request, not at start-up; per-employee values are
 * computed when first asked for and remembered, since the records they depend on (careers) are
 * never written by the legacy API.
 */
export class CompanyView {
  readonly today: IsoDate;
  readonly todayDay: number;
  readonly employees: ReadonlyMap<Id, Employee>;
  readonly employments: ReadonlyMap<Id, Employment>;
  readonly legalEntities: ReadonlyMap<Id, LegalEntity>;
  readonly establishments: ReadonlyMap<Id, BusinessEstablishment>;
  readonly departments: ReadonlyMap<Id, Department>;
  readonly templates: ReadonlyMap<Id, EmploymentTemplate>;
  readonly occupationCategoryIds: ReadonlySet<Id>;
  /** by start date, then id */
  readonly employmentsByEmployee: ReadonlyMap<Id, readonly Employment[]>;
  /** by startsOn, then id */
  readonly jobPositionsByEmployment: ReadonlyMap<Id, readonly JobPosition[]>;
  readonly personalRecordByEmployee: ReadonlyMap<Id, EmployeePersonalRecord>;
  readonly probationByEmployment: ReadonlyMap<Id, ProbationaryPeriod>;
  /** the company's administrator, author of the organisation's set-up: the first employee */
  readonly administrator: Employee | null;

  private readonly applicable = new Map<Id, { employment: Employment | null; jobPosition: JobPosition | null }>();
  private membersCache: { reportsTo: Set<Id>; activeByEstablishment: Map<Id, number> } | null = null;

  constructor(readonly company: Company) {
    this.today = company.today;
    this.todayDay = parseIsoDate(company.today);
    this.employees = byId(company.employees);
    this.employments = byId(company.employments);
    this.legalEntities = byId(company.legalEntities);
    this.establishments = byId(company.businessEstablishments);
    this.departments = byId(company.departments);
    this.templates = byId(company.employmentTemplates);
    this.occupationCategoryIds = new Set(company.occupationCategories.map((c) => c.id));
    this.employmentsByEmployee = groupSorted(company.employments, (e) => e.employeeId, (a, b) =>
      compareStrings(a.startDate, b.startDate) || Number(a.id) - Number(b.id),
    );
    this.jobPositionsByEmployment = groupSorted(company.jobPositions, (p) => p.employmentId, (a, b) =>
      compareStrings(a.startsOn, b.startsOn) || Number(a.id) - Number(b.id),
    );
    this.personalRecordByEmployee = new Map(company.personalRecords.map((r) => [r.employeeId, r]));
    this.probationByEmployment = new Map(company.probationaryPeriods.map((p) => [p.employmentId, p]));
    this.administrator = company.employees[0] ?? null;
  }

  /**
   * The generator of one stream of what only the legacy API knows (`stream` names it: users,
   * work contracts, time entries...), drawn from the company's seed. The default seed 1 keys each
   * stream by its name alone, as before seeds reached the legacy API, so the default demo keeps
   * its data.
   */
  random(stream: number): Random {
    return new Random(Math.imul(this.company.seed - 1, 0x9e3779b1) ^ stream);
  }

  employee(id: number): Employee | undefined {
    return this.employees.get(String(id));
  }

  employmentStatus(e: Employment): EmployeeStatus {
    return statusOf(e.startDate, e.endDate, this.today);
  }

  employeeStatus(employeeId: Id): EmployeeStatus {
    return employeeStatusOf((this.employmentsByEmployee.get(employeeId) ?? []).map((e) => this.employmentStatus(e)));
  }

  /** The job positions of an employment with their derived end (the day before the next one starts). */
  positionsWithEnds(employment: Employment): Array<{ position: JobPosition; endsOn: IsoDate | null }> {
    const positions = this.jobPositionsByEmployment.get(employment.id) ?? [];
    return positions.map((position, i) => {
      const next = positions[i + 1];
      return { position, endsOn: next ? dayBefore(next.startsOn) : employment.endDate };
    });
  }

  /** The job position of an employment that applies today, by the applicable rule. */
  applicablePositionOf(employment: Employment): JobPosition | null {
    return pickApplicable(this.positionsWithEnds(employment), (p) => statusOf(p.position.startsOn, p.endsOn, this.today))?.position ?? null;
  }

  applicableEmployment(employeeId: Id): Employment | null {
    return this.applicableOf(employeeId).employment;
  }

  applicableJobPosition(employeeId: Id): JobPosition | null {
    return this.applicableOf(employeeId).jobPosition;
  }

  /** Whether `employment` is the employee's applicable one (docs/interface.md#applicable-employment-and-job-position). */
  isApplicable(employment: Employment): boolean {
    return this.applicableEmployment(employment.employeeId)?.id === employment.id;
  }

  /** Whether the employee is employed on a given day (any employment covering it). */
  employedOn(employeeId: Id, date: IsoDate): boolean {
    return (this.employmentsByEmployee.get(employeeId) ?? []).some(
      (e) => e.startDate <= date && (e.endDate === null || e.endDate >= date),
    );
  }

  /** Whether anyone's applicable job position names this employee as manager. */
  hasReports(employeeId: Id): boolean {
    return this.members().reportsTo.has(employeeId);
  }

  /** Active employees whose applicable job position is in the establishment. */
  activeCountAt(establishmentId: Id): number {
    return this.members().activeByEstablishment.get(establishmentId) ?? 0;
  }

  private members() {
    if (this.membersCache) return this.membersCache;
    const reportsTo = new Set<Id>();
    const activeByEstablishment = new Map<Id, number>();
    for (const person of this.company.employees) {
      const position = this.applicableJobPosition(person.id);
      if (!position) continue;
      if (this.employeeStatus(person.id) !== "active") continue;
      if (position.managerId !== null) reportsTo.add(position.managerId);
      activeByEstablishment.set(position.businessEstablishmentId, (activeByEstablishment.get(position.businessEstablishmentId) ?? 0) + 1);
    }
    this.membersCache = { reportsTo, activeByEstablishment };
    return this.membersCache;
  }

  private applicableOf(employeeId: Id) {
    let found = this.applicable.get(employeeId);
    if (!found) {
      const employments = this.employmentsByEmployee.get(employeeId) ?? [];
      const employment = pickApplicable(employments, (e) => this.employmentStatus(e));
      found = { employment, jobPosition: employment ? this.applicablePositionOf(employment) : null };
      this.applicable.set(employeeId, found);
    }
    return found;
  }
}

/** The `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function dateOfDay(day: number): IsoDate {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
