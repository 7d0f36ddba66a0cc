import { byId, compareStrings, dayBefore, employeeStatusOf, groupSorted, pickApplicable, statusOf } from "../data/records.js";
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
import type { CurrentContext, Derived, Lookup } from "./resource.js";
import type { Caller } from "./tokens.js";

/**
 * What the current API computes rather than stores (model.ts keeps only stored data): statuses as
 * of `company.today`, job-position `endsOn` and `updatedAttributes`, the employment's legal entity,
 * and each employee's applicable employment and job position. Computed once per company
 * generation, so that a list page never recomputes a career.
 */

/** The status enum shared by employees, employments and job positions. */
export const STATUSES = ["active", "upcoming", "deactivated"] as const;

/** The attributes whose change `updatedAttributes` reports, in the order of the interface's enum. */
export const UPDATED_ATTRIBUTES = [
  "remoteId",
  "jobTitle",
  "jobQualification",
  "occupationCategory",
  "workingTimeArrangement",
  "department",
] as const;

const COMPARED: Record<(typeof UPDATED_ATTRIBUTES)[number], (p: JobPosition) => unknown> = {
  remoteId: (p) => p.remoteId,
  jobTitle: (p) => p.jobTitle,
  jobQualification: (p) => p.jobQualificationId,
  occupationCategory: (p) => p.occupationCategoryId,
  workingTimeArrangement: (p) => p.workingTimeArrangementId,
  department: (p) => p.departmentId,
};

export function buildLookup(company: Company): Lookup {
  const employments = byId(company.employments);
  const employmentsByEmployee = groupSorted(company.employments, (e) => e.employeeId, (a, b) =>
    compareStrings(a.startDate, b.startDate) || compareIds(a.id, b.id),
  );
  const jobPositionsByEmployment = groupSorted(company.jobPositions, (p) => p.employmentId, (a, b) =>
    compareStrings(a.startsOn, b.startsOn) || compareIds(a.id, b.id),
  );
  const jobPositionsByEmployee = groupSorted(company.jobPositions, (p) => p.employeeId, (a, b) =>
    compareStrings(a.startsOn, b.startsOn) ||
    compareStrings(employments.get(a.employmentId)?.startDate ?? "", employments.get(b.employmentId)?.startDate ?? "") ||
    compareIds(a.id, b.id),
  );
  return {
    employees: byId(company.employees),
    employments,
    jobPositions: byId(company.jobPositions),
    legalEntities: byId(company.legalEntities),
    businessEstablishments: byId(company.businessEstablishments),
    departments: byId(company.departments),
    employmentTemplates: byId(company.employmentTemplates),
    occupationCategories: byId(company.occupationCategories),
    jobQualifications: byId(company.jobQualifications),
    employmentsByEmployee,
    jobPositionsByEmployment,
    jobPositionsByEmployee,
  };
}

export function computeDerived(company: Company, lookup: Lookup): Derived {
  const today = company.today;
  const employment = new Map<Id, { status: EmployeeStatus; legalEntityId: Id | null }>();
  const jobPosition = new Map<Id, { status: EmployeeStatus; endsOn: IsoDate | null; updatedAttributes: string[] }>();
  const employee = new Map<
    Id,
    { status: EmployeeStatus; applicableEmploymentId: Id | null; applicableJobPositionId: Id | null; establishmentId: Id | null }
  >();

  for (const e of company.employments) {
    const positions = lookup.jobPositionsByEmployment.get(e.id) ?? [];
    const first = positions[0];
    const legalEntityId = first ? (lookup.businessEstablishments.get(first.businessEstablishmentId)?.legalEntityId ?? null) : null;
    employment.set(e.id, { status: statusOf(e.startDate, e.endDate, today), legalEntityId });
    positions.forEach((p, i) => {
      const next = positions[i + 1];
      const endsOn = next ? dayBefore(next.startsOn) : e.endDate;
      jobPosition.set(p.id, { status: statusOf(p.startsOn, endsOn, today), endsOn, updatedAttributes: [] });
    });
  }

  // The very first position of a career reports no change: there is nothing it changed from.
  for (const career of lookup.jobPositionsByEmployee.values()) {
    for (let i = 1; i < career.length; i++) {
      const previous = career[i - 1]!;
      const current = career[i]!;
      jobPosition.get(current.id)!.updatedAttributes = UPDATED_ATTRIBUTES.filter(
        (name) => COMPARED[name](current) !== COMPARED[name](previous),
      );
    }
  }

  for (const person of company.employees) {
    const employments = lookup.employmentsByEmployee.get(person.id) ?? [];
    const applicableEmployment = pickApplicable(employments, (e) => employment.get(e.id)!.status);
    const positions = applicableEmployment ? (lookup.jobPositionsByEmployment.get(applicableEmployment.id) ?? []) : [];
    const applicableJobPosition = pickApplicable(positions, (p) => jobPosition.get(p.id)!.status);
    const status = employeeStatusOf(employments.map((e) => employment.get(e.id)!.status));
    employee.set(person.id, {
      status,
      applicableEmploymentId: applicableEmployment?.id ?? null,
      applicableJobPositionId: applicableJobPosition?.id ?? null,
      establishmentId: applicableJobPosition?.businessEstablishmentId ?? null,
    });
  }

  return { employee, employment, jobPosition };
}

/** Ids in their natural order: decimal ids numerically, before any other id, which compare as strings. */
export function compareIds(a: Id, b: Id): number {
  const an = isDecimal(a);
  const bn = isDecimal(b);
  if (an && bn) return a.length - b.length || compareStrings(a, b);
  if (an !== bn) return an ? -1 : 1;
  return compareStrings(a, b);
}

function isDecimal(id: string): boolean {
  if (id.length === 0 || id.length > 15 || (id.length > 1 && id[0] === "0")) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The visibility rule of docs/interface.md#visibility: a caller restricted to some establishments sees an
 * employee, and the employee's employments, job positions and other data, only when the
 * establishment of the employee's applicable job position is one of them.
 */
export function employeeVisible(employeeId: Id, caller: Caller, ctx: CurrentContext): boolean {
  const visible = caller.visibleEstablishmentIds;
  if (visible === null) return true;
  const establishmentId = ctx.derived.employee.get(employeeId)?.establishmentId;
  return establishmentId !== null && establishmentId !== undefined && visible.has(establishmentId);
}

/*
 * The company is normally fixed for the life of the service, but the legacy API writes to the same
 * records (PUT /api/v3/users). A writer calls `markCompanyChanged` so that derived values, sorted
 * orders and filter indexes are rebuilt on the next current-API request.
 */
const generations = new WeakMap<Company, number>();

export function markCompanyChanged(company: Company): void {
  generations.set(company, companyGeneration(company) + 1);
}

export function companyGeneration(company: Company): number {
  return generations.get(company) ?? 0;
}
