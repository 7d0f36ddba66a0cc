import { beforeAll, describe, expect, it } from "vitest";
import { generateCompany } from "../../directory/data/generate.js";
import { ibanValid, luhnValid, mod97 } from "../../directory/data/identifiers.js";
import type { Company, Employment, JobPosition } from "../../directory/data/model.js";

const TODAY = "2025-06-15";
type Status = "active" | "upcoming" | "deactivated";

/** docs/interface.md#conventions: active = covers today, upcoming = starts later, deactivated = ended */
function rangeStatus(start: string, end: string | null, today: string): Status {
  if (start > today) return "upcoming";
  if (end !== null && end < today) return "deactivated";
  return "active";
}

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** job-position endsOn as docs/interface.md#job-position derives it: the day before the next position, else the employment's end */
function positionEnds(company: Company): Map<string, string | null> {
  const employmentById = new Map(company.employments.map((e) => [e.id, e]));
  const byEmployment = groupBy(company.jobPositions, (p) => p.employmentId);
  const ends = new Map<string, string | null>();
  for (const [employmentId, positions] of byEmployment) {
    const sorted = [...positions].sort((a, b) => (a.startsOn < b.startsOn ? -1 : 1));
    sorted.forEach((p, i) => {
      const next = sorted[i + 1];
      ends.set(p.id, next ? dayBefore(next.startsOn) : employmentById.get(employmentId)!.endDate);
    });
  }
  return ends;
}

function employeeStatuses(company: Company): Map<string, Status> {
  const result = new Map<string, Status>();
  for (const [employeeId, employments] of groupBy(company.employments, (e) => e.employeeId)) {
    const statuses = employments.map((e) => rangeStatus(e.startDate, e.endDate, company.today));
    result.set(employeeId, statuses.includes("active") ? "active" : statuses.includes("upcoming") ? "upcoming" : "deactivated");
  }
  return result;
}

/** each employee's job position as of today */
function currentPositions(company: Company): Map<string, JobPosition> {
  const ends = positionEnds(company);
  const current = new Map<string, JobPosition>();
  for (const p of company.jobPositions) {
    if (rangeStatus(p.startsOn, ends.get(p.id)!, company.today) === "active") {
      expect(current.has(p.employeeId), `employee ${p.employeeId} holds two positions today`).toBe(false);
      current.set(p.employeeId, p);
    }
  }
  return current;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function ids(items: ReadonlyArray<{ id: string }>): Set<string> {
  return new Set(items.map((i) => i.id));
}

/** every reference of every record points at a record that exists */
function referenceProblems(c: Company): string[] {
  const problems: string[] = [];
  const check = (kind: string, id: string | null, set: Set<string>, from: string) => {
    if (id !== null && !set.has(id)) problems.push(`${from} -> missing ${kind} ${id}`);
  };
  const le = ids(c.legalEntities);
  const est = ids(c.businessEstablishments);
  const dept = ids(c.departments);
  const tpl = ids(c.employmentTemplates);
  const cat = ids(c.occupationCategories);
  const qual = ids(c.jobQualifications);
  const tax = ids(c.taxonomies);
  const emp = ids(c.employees);
  const empl = ids(c.employments);
  const pos = ids(c.jobPositions);
  const def = ids(c.attributeDefinitions);
  const hooks = ids(c.webhookEndpoints);
  for (const e of c.businessEstablishments) check("legal entity", e.legalEntityId, le, `establishment ${e.id}`);
  for (const d of c.departments) {
    check("department", d.parentId, dept, `department ${d.id}`);
    check("employee", d.managerId, emp, `department ${d.id}`);
  }
  for (const t of c.employmentTemplates) for (const id of t.legalEntityIds) check("legal entity", id, le, `template ${t.id}`);
  for (const o of c.occupationCategories) for (const id of o.businessEstablishmentIds ?? []) check("establishment", id, est, `category ${o.id}`);
  for (const l of c.taxonomyLabels) check("taxonomy", l.taxonomyId, tax, `label ${l.id}`);
  for (const e of c.employments) {
    check("employee", e.employeeId, emp, `employment ${e.id}`);
    check("template", e.templateId, tpl, `employment ${e.id}`);
  }
  const employmentById = new Map(c.employments.map((e) => [e.id, e]));
  for (const p of c.jobPositions) {
    const from = `position ${p.id}`;
    check("employment", p.employmentId, empl, from);
    check("employee", p.employeeId, emp, from);
    check("employee", p.managerId, emp, from);
    check("establishment", p.businessEstablishmentId, est, from);
    check("department", p.departmentId, dept, from);
    check("qualification", p.jobQualificationId, qual, from);
    check("category", p.occupationCategoryId, cat, from);
    if (employmentById.get(p.employmentId)?.employeeId !== p.employeeId) problems.push(`${from}: employee differs from its employment's`);
  }
  for (const d of c.attributeDefinitions) check("taxonomy", d.taxonomyId, tax, `definition ${d.id}`);
  for (const a of c.employeeAttributes) {
    const from = `attribute ${a.id}`;
    check("definition", a.definitionId, def, from);
    check("employee", a.employeeId, emp, from);
    check("employment", a.employmentId, empl, from);
    check("position", a.jobPositionId, pos, from);
  }
  for (const r of c.personalRecords) check("employee", r.employeeId, emp, `personal record ${r.id}`);
  for (const p of c.probationaryPeriods) check("employment", p.employmentId, empl, `probationary period ${p.id}`);
  for (const d of c.webhookDeliveries) check("webhook endpoint", d.webhookEndpointId, hooks, `delivery ${d.id}`);
  return problems;
}

describe("generateCompany at the default size", () => {
  let company: Company;
  beforeAll(() => {
    company = generateCompany({ today: TODAY });
  });

  describe("determinism and options", () => {
    it("generates the same company for the same options", () => {
      expect(generateCompany({ today: TODAY })).toEqual(company);
    });

    it("generates a different company for a different seed", () => {
      const other = generateCompany({ today: TODAY, seed: 2 });
      expect(other.employees.map((e) => `${e.givenName} ${e.familyName}`)).not.toEqual(company.employees.map((e) => `${e.givenName} ${e.familyName}`));
    });

    it("uses seed 1, 300 employees and today's UTC date by default", () => {
      const defaults = generateCompany();
      expect(defaults.today).toBe(new Date().toISOString().slice(0, 10));
      expect(defaults.employees).toHaveLength(300);
      expect(generateCompany({ seed: 1, today: TODAY })).toEqual(company);
    });

    it("keeps the first employees when the company is made larger", () => {
      const larger = generateCompany({ today: TODAY, employees: 600 });
      expect(larger.employees.slice(0, 300).map((e) => e.familyName)).toEqual(company.employees.map((e) => e.familyName));
    });

    it("dates everything relative to today, so statuses stay varied on any day", () => {
      const later = generateCompany({ today: "2031-01-20" });
      const statuses = new Set(employeeStatuses(later).values());
      expect(statuses).toEqual(new Set(["active", "upcoming", "deactivated"]));
    });
  });

  describe("ids and time stamps", () => {
    const numericCollections = [
      "legalEntities", "businessEstablishments", "departments", "employmentTemplates", "occupationCategories",
      "jobQualifications", "taxonomies", "taxonomyLabels", "employees", "employments", "jobPositions",
      "employeeAttributes", "personalRecords", "probationaryPeriods", "webhookEndpoints", "webhookDeliveries",
    ] as const;

    it.each(numericCollections)("numbers %s 1, 2, 3... in array order", (key) => {
      const items = company[key] as ReadonlyArray<{ id: string }>;
      expect(items.length).toBeGreaterThan(0);
      expect(items.map((i) => i.id)).toEqual(items.map((_, index) => String(index + 1)));
    });

    it("names attribute definitions with dotted ids in sorted order", () => {
      const defIds = company.attributeDefinitions.map((d) => d.id);
      for (const id of defIds) expect(id).toMatch(/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/);
      expect(defIds).toEqual([...defIds].sort());
    });

    it("stamps records in UTC with lastUpdatedAt never before createdAt nor after yesterday", () => {
      const stamped = [
        ...company.legalEntities, ...company.businessEstablishments, ...company.departments, ...company.employees,
        ...company.employments, ...company.jobPositions, ...company.employeeAttributes, ...company.personalRecords,
        ...company.probationaryPeriods, ...company.taxonomyLabels, ...company.attributeDefinitions,
      ];
      for (const r of stamped) {
        expect(r.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(r.lastUpdatedAt >= r.createdAt, `${r.createdAt} > ${r.lastUpdatedAt}`).toBe(true);
        expect(r.lastUpdatedAt < `${TODAY}T00:00:00.000Z`).toBe(true);
      }
    });
  });

  describe("statuses", () => {
    it("has active, upcoming and deactivated employees", () => {
      const counts = new Map<Status, number>();
      for (const s of employeeStatuses(company).values()) counts.set(s, (counts.get(s) ?? 0) + 1);
      expect(counts.get("active")).toBeGreaterThan(150);
      expect(counts.get("upcoming")).toBeGreaterThan(5);
      expect(counts.get("deactivated")).toBeGreaterThan(5);
    });

    it("has active, upcoming and deactivated employments", () => {
      const statuses = new Set(company.employments.map((e) => rangeStatus(e.startDate, e.endDate, TODAY)));
      expect(statuses).toEqual(new Set(["active", "upcoming", "deactivated"]));
    });

    it("has active, upcoming and deactivated job positions, including upcoming ones inside an active employment", () => {
      const ends = positionEnds(company);
      const employmentById = new Map(company.employments.map((e) => [e.id, e]));
      const statuses = new Set(company.jobPositions.map((p) => rangeStatus(p.startsOn, ends.get(p.id)!, TODAY)));
      expect(statuses).toEqual(new Set(["active", "upcoming", "deactivated"]));
      const plannedMoves = company.jobPositions.filter((p) => {
        const e = employmentById.get(p.employmentId)!;
        return p.startsOn > TODAY && rangeStatus(e.startDate, e.endDate, TODAY) === "active";
      });
      expect(plannedMoves.length).toBeGreaterThan(0);
    });
  });

  describe("referential integrity and timelines", () => {
    it("points every reference at an existing record", () => {
      expect(referenceProblems(company)).toEqual([]);
    });

    it("gives every employee 1 to 3 ordered, non-overlapping employments", () => {
      const byEmployee = groupBy(company.employments, (e) => e.employeeId);
      expect(byEmployee.size).toBe(company.employees.length);
      for (const [employeeId, list] of byEmployee) {
        expect(list.length, `employee ${employeeId}`).toBeGreaterThanOrEqual(1);
        expect(list.length, `employee ${employeeId}`).toBeLessThanOrEqual(3);
        for (let i = 0; i < list.length; i++) {
          const e = list[i]!;
          if (e.endDate !== null) expect(e.endDate >= e.startDate).toBe(true);
          const next = list[i + 1];
          if (next) {
            expect(e.endDate, `employment ${e.id} is open-ended but followed by ${next.id}`).not.toBeNull();
            expect(e.endDate! < next.startDate, `employments ${e.id} and ${next.id} overlap`).toBe(true);
          }
        }
      }
      expect([...byEmployee.values()].some((list) => list.length === 3)).toBe(true);
    });

    it("keeps 1 to 4 job positions inside each employment, each starting after the previous one", () => {
      const byEmployment = groupBy(company.jobPositions, (p) => p.employmentId);
      for (const e of company.employments) {
        const list = byEmployment.get(e.id) ?? [];
        expect(list.length, `employment ${e.id}`).toBeGreaterThanOrEqual(1);
        expect(list.length, `employment ${e.id}`).toBeLessThanOrEqual(4);
        expect(list[0]!.startsOn).toBe(e.startDate);
        list.forEach((p, i) => {
          if (e.endDate !== null) expect(p.startsOn <= e.endDate, `position ${p.id} after its employment`).toBe(true);
          if (i > 0) expect(p.startsOn > list[i - 1]!.startsOn, `position ${p.id} not after the previous one`).toBe(true);
        });
      }
      expect([...byEmployment.values()].some((list) => list.length === 4)).toBe(true);
    });

    it("keeps the positions of one employment in one legal entity that its template allows", () => {
      const establishmentEntity = new Map(company.businessEstablishments.map((b) => [b.id, b.legalEntityId]));
      const templates = new Map(company.employmentTemplates.map((t) => [t.id, t]));
      const employmentById = new Map<string, Employment>(company.employments.map((e) => [e.id, e]));
      for (const [employmentId, list] of groupBy(company.jobPositions, (p) => p.employmentId)) {
        const entities = new Set(list.map((p) => establishmentEntity.get(p.businessEstablishmentId)));
        expect(entities.size, `employment ${employmentId}`).toBe(1);
        const template = templates.get(employmentById.get(employmentId)!.templateId)!;
        expect(template.legalEntityIds).toContain([...entities][0]);
      }
    });

    it("offers each position an occupation category valid in its establishment", () => {
      const categories = new Map(company.occupationCategories.map((c) => [c.id, c]));
      for (const p of company.jobPositions) {
        const allowed = categories.get(p.occupationCategoryId)!.businessEstablishmentIds;
        if (allowed !== null) expect(allowed, `position ${p.id}`).toContain(p.businessEstablishmentId);
      }
    });
  });

  describe("organisation", () => {
    it("has three active legal entities in three countries and currencies, each with exactly one headquarters", () => {
      const active = company.legalEntities.filter((l) => !l.isArchived);
      expect(active).toHaveLength(3);
      expect(new Set(active.map((l) => l.countryCode)).size).toBe(3);
      expect(new Set(active.map((l) => l.currencyCode)).size).toBe(3);
      for (const entity of active) {
        const hqs = company.businessEstablishments.filter((b) => b.legalEntityId === entity.id && b.isHeadquarters);
        expect(hqs, `legal entity ${entity.id}`).toHaveLength(1);
        expect(hqs[0]!.isArchived).toBe(false);
      }
      const french = company.legalEntities.find((l) => l.countryCode === "FRA")!;
      expect(french.taxIdentificationNumber.format).toBe("franceSIREN");
      expect(luhnValid(french.taxIdentificationNumber.value)).toBe(true);
      expect(french.industryCode).toEqual({ format: "franceAPE", value: expect.stringMatching(/^\d{4}[A-Z]$/) });
    });

    it("archives only a legal entity without establishments and an establishment nobody was ever attached to", () => {
      const archivedEntities = company.legalEntities.filter((l) => l.isArchived);
      expect(archivedEntities.length).toBeGreaterThan(0);
      for (const l of archivedEntities) {
        expect(l.lastArchivedAt).not.toBeNull();
        expect(company.businessEstablishments.filter((b) => b.legalEntityId === l.id)).toEqual([]);
      }
      const archived = new Set(company.businessEstablishments.filter((b) => b.isArchived).map((b) => b.id));
      expect(archived.size).toBeGreaterThan(0);
      expect(company.jobPositions.filter((p) => archived.has(p.businessEstablishmentId))).toEqual([]);
    });

    it("has eight active establishments in eight IANA time zones with French SIRETs", () => {
      const active = company.businessEstablishments.filter((b) => !b.isArchived);
      expect(active).toHaveLength(8);
      expect(new Set(active.map((b) => b.timezoneId)).size).toBe(8);
      for (const b of active) expect(b.timezoneId).toMatch(/^[A-Z][A-Za-z_]+\/[A-Za-z_]+$/);
      for (const b of active.filter((b) => b.address.countryCode === "FRA")) {
        expect(b.taxIdentificationNumber.format).toBe("franceSIRET");
        expect(luhnValid(b.taxIdentificationNumber.value)).toBe(true);
      }
    });

    it("makes establishment 1 an active site where many people work today", () => {
      const first = company.businessEstablishments[0]!;
      expect(first.isArchived).toBe(false);
      const here = [...currentPositions(company).values()].filter((p) => p.businessEstablishmentId === "1");
      expect(here.length).toBeGreaterThanOrEqual(50);
    });

    it("builds a department tree 4 to 9 levels deep with at most 99 children per parent and 20 to 40 departments", () => {
      const byId = new Map(company.departments.map((d) => [d.id, d]));
      expect(company.departments.length).toBeGreaterThanOrEqual(20);
      expect(company.departments.length).toBeLessThanOrEqual(40);
      for (const d of company.departments) {
        const parent = d.parentId === null ? null : byId.get(d.parentId)!;
        expect(d.level).toBe(parent ? parent.level + 1 : 1);
        if (parent) expect(Number(parent.id)).toBeLessThan(Number(d.id));
      }
      const depth = Math.max(...company.departments.map((d) => d.level));
      expect(depth).toBeGreaterThanOrEqual(4);
      expect(depth).toBeLessThanOrEqual(9);
      for (const children of groupBy(company.departments.filter((d) => d.parentId), (d) => d.parentId!).values()) {
        expect(children.length).toBeLessThanOrEqual(99);
      }
      expect(company.departments.filter((d) => d.parentId === null)).toHaveLength(1);
    });

    it("heads each department with someone who works in it today, and leaves archived departments empty", () => {
      const current = currentPositions(company);
      for (const d of company.departments) {
        if (d.isArchived) {
          expect(d.managerId).toBeNull();
          expect(company.jobPositions.filter((p) => p.departmentId === d.id)).toEqual([]);
        } else {
          expect(d.managerId, `department ${d.id}`).not.toBeNull();
          expect(current.get(d.managerId!)?.departmentId, `manager of department ${d.id}`).toBe(d.id);
        }
      }
    });

    it("has several departments with at least five people today", () => {
      const sizes = groupBy([...currentPositions(company).values()], (p) => p.departmentId);
      expect([...sizes.values()].filter((list) => list.length >= 5).length).toBeGreaterThanOrEqual(5);
    });

    it("gives each position today the head of its department as manager, or the next head up for the head", () => {
      const byId = new Map(company.departments.map((d) => [d.id, d]));
      for (const p of currentPositions(company).values()) {
        let dept = byId.get(p.departmentId);
        while (dept && (dept.managerId === null || dept.managerId === p.employeeId)) dept = dept.parentId ? byId.get(dept.parentId) : undefined;
        expect(p.managerId, `position ${p.id}`).toBe(dept ? dept.managerId : null);
      }
    });

    it("forms a management chain without loops that ends at the single top manager", () => {
      const managerOf = new Map([...currentPositions(company).values()].map((p) => [p.employeeId, p.managerId]));
      const tops = [...managerOf].filter(([, m]) => m === null).map(([e]) => e);
      expect(tops).toEqual([company.departments.find((d) => d.parentId === null)!.managerId]);
      for (const start of managerOf.keys()) {
        const seen = new Set<string>();
        let at: string | null | undefined = start;
        while (at) {
          expect(seen.has(at), `loop through employee ${at}`).toBe(false);
          seen.add(at);
          at = managerOf.get(at);
        }
      }
      for (const p of company.jobPositions) expect(p.managerId).not.toBe(p.employeeId);
    });
  });

  describe("people", () => {
    it("uses names with accents, hyphens, apostrophes and spaces", () => {
      const names = company.employees.flatMap((e) => [e.givenName, e.familyName]);
      expect(names.some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
      expect(names.some((n) => n.includes("-"))).toBe(true);
      expect(names.some((n) => n.includes("'"))).toBe(true);
      expect(names.some((n) => n.includes(" "))).toBe(true);
      expect(new Set(company.employees.map((e) => e.familyName)).size).toBeGreaterThan(60);
    });

    it("derives unique ASCII e-mail addresses from names, and leaves some employees without one", () => {
      const emails = company.employees.map((e) => e.email).filter((e): e is string => e !== null);
      expect(emails.length).toBeLessThan(company.employees.length);
      expect(new Set(emails).size).toBe(emails.length);
      for (const email of emails) expect(email).toMatch(/^[a-z0-9-]+\.[a-z0-9-]+\d*@[a-z0-9.-]+$/);
      const zoe = company.employees.find((e) => e.email !== null && /[^\x00-\x7f]/.test(e.givenName + e.familyName))!;
      expect(zoe).toBeDefined();
    });

    it("gives exactly one personal record per employee with every title and legal gender", () => {
      expect(company.personalRecords.map((r) => r.employeeId)).toEqual(company.employees.map((e) => e.id));
      expect(new Set(company.personalRecords.map((r) => r.title))).toEqual(new Set(["unknown", "mister", "miss"]));
      expect(new Set(company.personalRecords.map((r) => r.legalGender))).toEqual(new Set(["unknown", "male", "female", "diverse"]));
    });

    it("writes personal records in the documented formats", () => {
      const phone = /^\+?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4,6}$/;
      const byId = new Map(company.employees.map((e) => [e.id, e]));
      for (const r of company.personalRecords) {
        expect(r.nationalitiesCountryCodes.length).toBeLessThanOrEqual(1);
        for (const code of r.nationalitiesCountryCodes) expect(code).toMatch(/^[A-Z]{3}$/);
        if (r.phoneNumber !== null) expect(r.phoneNumber).toMatch(phone);
        if (r.email !== null) expect(r.email.length).toBeGreaterThanOrEqual(3);
        if (r.bankAccount.format === "iban") expect(ibanValid(r.bankAccount.accountIdentifier), r.bankAccount.accountIdentifier).toBe(true);
        if (r.insuranceNumber.format === "frenchSSN") {
          const nir = r.insuranceNumber.value;
          expect(nir).toMatch(/^[12]\d{14}$/);
          expect(97 - mod97(nir.slice(0, 13))).toBe(Number(nir.slice(13)));
        }
        if (r.birthDate !== null) {
          const e = byId.get(r.employeeId)!;
          expect(Number(r.birthDate.slice(5, 7))).toBe(e.birthDay.month);
          expect(Number(r.birthDate.slice(8, 10))).toBe(e.birthDay.day);
        }
      }
      for (const e of company.employees) if (e.phoneNumber !== null) expect(e.phoneNumber).toMatch(phone);
      const formats = new Set(company.personalRecords.map((r) => r.insuranceNumber.format));
      expect(formats).toContain("frenchSSN");
      expect(formats).toContain("other");
      expect(company.personalRecords.some((r) => r.nationalitiesCountryCodes.length === 0)).toBe(true);
    });

    it("leaves the remote id of some job positions null", () => {
      const remoteIds = company.jobPositions.map((p) => p.remoteId);
      expect(remoteIds).toContain(null);
      expect(remoteIds.filter((r) => r !== null).length).toBeGreaterThan(remoteIds.length / 2);
    });

    it("extends some probationary periods, and starts none before its employment", () => {
      const employmentById = new Map(company.employments.map((e) => [e.id, e]));
      const extended = company.probationaryPeriods.filter((p) => p.extendedEndsOn !== null);
      expect(extended.length).toBeGreaterThan(0);
      expect(extended.length).toBeLessThan(company.probationaryPeriods.length);
      for (const p of company.probationaryPeriods) {
        const e = employmentById.get(p.employmentId)!;
        expect(p.initialEndsOn > e.startDate).toBe(true);
        if (p.extendedEndsOn !== null) expect(p.extendedEndsOn > p.initialEndsOn).toBe(true);
      }
    });
  });

  describe("reference data and extensions", () => {
    it("has permanent and fixed-term templates with translated titles", () => {
      expect(new Set(company.employmentTemplates.map((t) => t.term))).toEqual(new Set(["permanent", "fixed"]));
      for (const t of company.employmentTemplates) expect(Object.keys(t.t9n.title ?? {}).length).toBeGreaterThan(0);
    });

    it("has occupation categories valid everywhere and others limited to a non-empty list of establishments", () => {
      expect(company.occupationCategories.some((c) => c.businessEstablishmentIds === null)).toBe(true);
      const limited = company.occupationCategories.filter((c) => c.businessEstablishmentIds !== null);
      expect(limited.length).toBeGreaterThan(0);
      for (const c of limited) expect(c.businessEstablishmentIds!.length).toBeGreaterThan(0);
    });

    it("ranks job qualifications within professions", () => {
      for (const q of company.jobQualifications) expect(q.rank).toBeGreaterThanOrEqual(0);
      expect(new Set(company.jobQualifications.map((q) => q.professionId)).size).toBeGreaterThan(3);
    });

    it("has translated taxonomies with archived and live labels", () => {
      for (const t of company.taxonomies) expect(Object.keys(t.t9n.name ?? {}).length).toBeGreaterThan(0);
      const archived = company.taxonomyLabels.filter((l) => l.isArchived);
      expect(archived.length).toBeGreaterThan(0);
      for (const l of archived) expect(l.lastArchivedAt).not.toBeNull();
      for (const l of company.taxonomyLabels.filter((l) => !l.isArchived)) expect(l.lastArchivedAt).toBeNull();
    });

    it("defines object, string and number attributes and one linked to a taxonomy", () => {
      const types = new Set(company.attributeDefinitions.map((d) => d.schema.type));
      expect(types).toContain("object");
      expect(types).toContain("string");
      expect(types).toContain("number");
      for (const d of company.attributeDefinitions.filter((d) => d.schema.type === "object")) {
        expect(Object.keys(d.schema.properties as object).length).toBeGreaterThan(0);
      }
      const linked = company.attributeDefinitions.filter((d) => d.taxonomyId !== null);
      expect(linked.length).toBeGreaterThan(0);
      const labels = new Map(company.taxonomyLabels.map((l) => [l.id, l]));
      for (const def of linked) {
        const values = company.employeeAttributes.filter((a) => a.definitionId === def.id);
        expect(values.length).toBeGreaterThan(0);
        for (const a of values) expect(labels.get(a.value as string)?.taxonomyId).toBe(def.taxonomyId);
      }
    });

    it("has attributes from employments and positions whose window follows them, time-bounded ones, and timeless ones", () => {
      const employmentById = new Map(company.employments.map((e) => [e.id, e]));
      const ends = positionEnds(company);
      const positionById = new Map(company.jobPositions.map((p) => [p.id, p]));
      const fromEmployments = company.employeeAttributes.filter((a) => a.employmentId !== null);
      const fromPositions = company.employeeAttributes.filter((a) => a.jobPositionId !== null);
      expect(fromEmployments.length).toBeGreaterThan(0);
      expect(fromPositions.length).toBeGreaterThan(0);
      for (const a of fromEmployments) {
        const e = employmentById.get(a.employmentId!)!;
        expect(a.employeeId).toBe(e.employeeId);
        expect(a.applicability).toEqual({ start: e.startDate, end: e.endDate });
      }
      for (const a of fromPositions) {
        const p = positionById.get(a.jobPositionId!)!;
        expect(a.employeeId).toBe(p.employeeId);
        expect(a.applicability).toEqual({ start: p.startsOn, end: ends.get(p.id) });
      }
      const others = company.employeeAttributes.filter((a) => a.employmentId === null && a.jobPositionId === null);
      expect(others.some((a) => a.applicability === null)).toBe(true);
      expect(others.some((a) => a.applicability !== null && a.applicability.start === null && a.applicability.end === null)).toBe(true);
      expect(others.some((a) => a.applicability?.start != null && a.applicability.end != null)).toBe(true);
      expect(company.attributeDefinitions.some((d) => d.isArchived && d.lastArchivedAt !== null)).toBe(true);
    });

    it("registers two default webhook endpoints, one inactive, with delivered, undelivered and failed deliveries", () => {
      expect(company.webhookEndpoints).toHaveLength(2);
      expect(company.webhookEndpoints.map((e) => e.isActive).sort()).toEqual([false, true]);
      for (const e of company.webhookEndpoints) expect(e.url).toMatch(/^http:\/\/127\.0\.0\.1:9\//);
      expect(new Set(company.webhookDeliveries.map((d) => d.status))).toEqual(new Set(["delivered", "undelivered", "failed"]));
      for (const d of company.webhookDeliveries) {
        expect(d.nextAttemptAt === null).toBe(d.status !== "undelivered");
        expect(d.attemptsCount).toBeGreaterThan(0);
      }
    });
  });
});

describe("generateCompany options", () => {
  it("registers the webhook endpoints it is given and delivers to them", () => {
    const endpoints = [{ id: "hook-a", url: "http://127.0.0.1:45678/hook", isActive: true }];
    const company = generateCompany({ today: TODAY, employees: 5, webhookEndpoints: endpoints });
    expect(company.webhookEndpoints).toMatchObject(endpoints);
    // what the configuration leaves out is filled in, as the endpoints' reads show it
    expect(company.webhookEndpoints[0]).toMatchObject({ name: "Endpoint hook-a", topics: ["employee.created", "employee.updated"] });
    expect(company.webhookDeliveries.every((d) => d.webhookEndpointId === "hook-a")).toBe(true);
  });

  it("has no deliveries when no endpoint is registered", () => {
    expect(generateCompany({ today: TODAY, employees: 5, webhookEndpoints: [] }).webhookDeliveries).toEqual([]);
  });

  it.each([0, 1, 7, 45])("keeps every reference valid with %i employees", (employees) => {
    const company = generateCompany({ today: TODAY, employees });
    expect(company.employees).toHaveLength(employees);
    expect(referenceProblems(company)).toEqual([]);
  });

  it("keeps larger companies' department tree bounded", () => {
    const company = generateCompany({ today: TODAY, employees: 20_000 });
    expect(company.departments.length).toBeLessThanOrEqual(160);
    expect(Math.max(...company.departments.map((d) => d.level))).toBeLessThanOrEqual(9);
    expect(referenceProblems(company)).toEqual([]);
  });

  it.each([
    [{ employees: -1 }, /employees must be an integer/],
    [{ employees: 2.5 }, /employees must be an integer/],
    [{ employees: 2_000_000 }, /employees must be an integer from 0 to/],
    [{ seed: Number.NaN }, /seed must be an integer/],
    [{ today: "2025-02-30" }, /not a calendar date/],
    [{ today: "15/06/2025" }, /expected a date as YYYY-MM-DD/],
    [{ webhookEndpoints: [{ id: "", url: "http://127.0.0.1:9/", isActive: true }] }, /id must be a non-empty string/],
    [{ webhookEndpoints: [{ id: "1", url: "not a url", isActive: true }] }, /url must be an absolute URL/],
    [{ webhookEndpoints: [{ id: "1", url: "ftp://127.0.0.1/", isActive: true }] }, /url must be http or https/],
    [{ webhookEndpoints: [{ id: "1", url: "http://a.example/", isActive: true }, { id: "1", url: "http://b.example/", isActive: false }] }, /used twice/],
  ])("rejects bad options %j", (options, message) => {
    expect(() => generateCompany(options)).toThrow(message);
  });
});
