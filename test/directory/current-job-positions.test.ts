import { beforeAll, describe, expect, it } from "vitest";
import type { JobPosition } from "../../directory/data/model.js";
import { Expect, directoryToken, get, getAll, ids } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

const directory = useDirectory({ employees: 300, today: "2026-06-15" });
let x: Expect;
let token: string;
let limited: string;
/** each employee's positions across employments, in career order */
let careers: Map<string, JobPosition[]>;

beforeAll(async () => {
  x = new Expect(directory.company);
  token = await directoryToken(directory.url);
  limited = await directoryToken(directory.url, "demo-limited");
  careers = new Map();
  for (const p of directory.company.jobPositions) careers.set(p.employeeId, [...(careers.get(p.employeeId) ?? []), p]);
  for (const list of careers.values()) {
    list.sort((a, b) => cmp(a.startsOn, b.startsOn) || cmp(x.byId.employment.get(a.employmentId)!.startDate, x.byId.employment.get(b.employmentId)!.startDate));
  }
});

const all = () => directory.company.jobPositions;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const cmpEnd = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : cmp(a, b));
const expectedIds = (predicate: (p: JobPosition) => boolean) => all().filter(predicate).map((p) => p.id);

async function listIds(query: string, as = token): Promise<string[]> {
  const { items } = await getAll(directory.url, as, `/service-api/job-positions?limit=100&${query}`);
  return ids(items);
}

function updatedAttributes(p: JobPosition): string[] {
  const career = careers.get(p.employeeId)!;
  const previous = career[career.indexOf(p) - 1];
  if (!previous) return [];
  const changed: string[] = [];
  if (p.remoteId !== previous.remoteId) changed.push("remoteId");
  if (p.jobTitle !== previous.jobTitle) changed.push("jobTitle");
  if (p.jobQualificationId !== previous.jobQualificationId) changed.push("jobQualification");
  if (p.occupationCategoryId !== previous.occupationCategoryId) changed.push("occupationCategory");
  if (p.workingTimeArrangementId !== previous.workingTimeArrangementId) changed.push("workingTimeArrangement");
  if (p.departmentId !== previous.departmentId) changed.push("department");
  return changed;
}

describe("job-position representation", () => {
  it("a single read returns the position with its computed status, end and changes", async () => {
    const p = all().find((c) => c.managerId !== null && c.workingTimeArrangementId !== null && updatedAttributes(c).length > 0)!;
    const { status, body } = await get(directory.url, token, `/service-api/job-positions/${p.id}`);
    expect(status).toBe(200);
    const u = (path: string) => `${directory.url}/service-api/${path}`;
    expect(body).toEqual({
      id: p.id,
      type: "job-position",
      url: u(`job-positions/${p.id}`),
      remoteId: p.remoteId,
      employment: { id: p.employmentId, type: "employment", url: u(`employments/${p.employmentId}`) },
      employee: { id: p.employeeId, type: "employee", url: u(`employees/${p.employeeId}`) },
      status: x.positionStatus(p),
      startsOn: p.startsOn,
      endsOn: x.positionEndsOn(p),
      businessEstablishment: { id: p.businessEstablishmentId, type: "business-establishment", url: u(`business-establishments/${p.businessEstablishmentId}`) },
      jobTitle: p.jobTitle,
      jobQualification: { id: p.jobQualificationId, type: "job-qualification", url: u(`job-qualifications/${p.jobQualificationId}`) },
      manager: { id: p.managerId, type: "employee", url: u(`employees/${p.managerId}`) },
      occupationCategory: { id: p.occupationCategoryId, type: "occupation-category", url: u(`occupation-categories/${p.occupationCategoryId}`) },
      workingTimeArrangement: { id: p.workingTimeArrangementId, type: "working-time-arrangement", url: "about:blank" },
      department: { id: p.departmentId, type: "department", url: u(`departments/${p.departmentId}`) },
      document: p.documentId === null ? null : { id: p.documentId, type: "document", url: u(`files/${p.documentId}`) },
      notes: p.notes,
      t9n: p.t9n,
      updatedAttributes: updatedAttributes(p),
      createdAt: p.createdAt,
      lastUpdatedAt: p.lastUpdatedAt,
    });
  });

  it("every position ends the day before the next one of its employment starts, else with the employment", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/job-positions?limit=100");
    expect(items).toHaveLength(all().length);
    for (const item of items) {
      const p = x.byId.position.get(item.id)!;
      expect({ id: item.id, endsOn: item.endsOn, status: item.status }).toEqual({ id: p.id, endsOn: x.positionEndsOn(p), status: x.positionStatus(p) });
    }
    // both branches of the rule occur in the data
    expect(items.some((i) => i.endsOn !== null && i.endsOn !== x.byId.employment.get(i.employment.id)!.endDate)).toBe(true);
    expect(items.some((i) => i.endsOn === null)).toBe(true);
  });

  it("updatedAttributes compares with the employee's previous position, even across employments; a first position reports none", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/job-positions?limit=100");
    for (const item of items) expect([item.id, item.updatedAttributes]).toEqual([item.id, updatedAttributes(x.byId.position.get(item.id)!)]);
    const acrossEmployments = all().find((p) => {
      const career = careers.get(p.employeeId)!;
      const previous = career[career.indexOf(p) - 1];
      return previous !== undefined && previous.employmentId !== p.employmentId;
    });
    expect(acrossEmployments).toBeDefined();
    const first = all().find((p) => careers.get(p.employeeId)![0] === p)!;
    expect(items.find((i) => i.id === first.id).updatedAttributes).toEqual([]);
  });

  it("an unknown job position is a 404", async () => {
    expect((await get(directory.url, token, "/service-api/job-positions/0")).status).toBe(404);
  });

  it("has no links: the production service documents none for job positions", async () => {
    const p = all()[3]!;
    const { body } = await get(directory.url, token, `/service-api/job-positions/${p.id}?include=links`);
    expect(body.links).toEqual({});
  });

  it("a job-position list embeds departments, job qualifications, employees and employments", async () => {
    const { body } = await get(directory.url, token, "/service-api/job-positions?limit=8&include=embedded");
    const distinct = (f: (i: any) => string) => [...new Set<string>(body.items.map(f))].sort();
    expect(Object.keys(body.embedded).sort()).toEqual(["department", "employee", "employment", "job-qualification"]);
    expect(Object.keys(body.embedded.department).sort()).toEqual(distinct((i) => i.department.id));
    expect(Object.keys(body.embedded["job-qualification"]).sort()).toEqual(distinct((i) => i.jobQualification.id));
    expect(Object.keys(body.embedded.employee).sort()).toEqual(distinct((i) => i.employee.id));
    expect(Object.keys(body.embedded.employment).sort()).toEqual(distinct((i) => i.employment.id));
  });

  it("an embedded department has the shape of docs/interface.md#department", async () => {
    const { body } = await get(directory.url, token, "/service-api/job-positions?limit=1&include=embedded");
    const departmentId = body.items[0].department.id;
    const department = directory.company.departments.find((d) => d.id === departmentId)!;
    expect(body.embedded.department[departmentId]).toMatchObject({
      id: department.id,
      type: "department",
      url: `${directory.url}/service-api/departments/${department.id}`,
      name: department.name,
      remoteId: department.remoteId,
      isArchived: department.isArchived,
      level: department.level,
      owningApplication: department.owningApplication,
    });
    expect(body.embedded.department[departmentId]).toHaveProperty("parent");
    expect(body.embedded.department[departmentId]).toHaveProperty("manager");
    // the specification's embedded form is partial: no description, no sort order
    expect(Object.keys(body.embedded.department[departmentId]).sort()).toEqual(
      ["id", "isArchived", "level", "manager", "name", "owningApplication", "parent", "remoteId", "type", "url"],
    );
  });

  it("embedded types the caller has no scope for are left out", async () => {
    const scoped = await directoryToken(directory.url, "demo-client", "job-positions.readonly");
    const { body } = await get(directory.url, scoped, "/service-api/job-positions?limit=5&include=embedded");
    expect(Object.keys(body.embedded)).not.toContain("employee");
    expect(Object.keys(body.embedded)).not.toContain("employment");
    expect(Object.keys(body.embedded)).not.toContain("department");
  });
});

describe("job-position filters", () => {
  const cases: Array<[string, () => [string, (p: JobPosition) => boolean]]> = [
    ["id", () => ["id=1,5,9,0", (p) => ["1", "5", "9"].includes(p.id)]],
    [
      "remoteId",
      () => {
        const remoteId = all().find((p) => p.remoteId !== null)!.remoteId!;
        return [`remoteId=${encodeURIComponent(remoteId)}`, (p) => p.remoteId === remoteId];
      },
    ],
    ["remoteId with the literal null", () => ["remoteId=null", (p) => p.remoteId === null]],
    ["employment.id", () => ["employment.id=2,3,40", (p) => ["2", "3", "40"].includes(p.employmentId)]],
    ["employment.employee.id", () => ["employment.employee.id=5,6", (p) => ["5", "6"].includes(p.employeeId)]],
    ["businessEstablishment.id", () => ["businessEstablishment.id=2,5", (p) => ["2", "5"].includes(p.businessEstablishmentId)]],
    [
      "jobQualification.id",
      () => {
        const q = all()[10]!.jobQualificationId;
        return [`jobQualification.id=${q}`, (p) => p.jobQualificationId === q];
      },
    ],
    [
      "occupationCategory.id",
      () => {
        const c = all()[11]!.occupationCategoryId;
        return [`occupationCategory.id=${c}`, (p) => p.occupationCategoryId === c];
      },
    ],
    [
      "manager.id",
      () => {
        const m = all().find((p) => p.managerId !== null)!.managerId!;
        return [`manager.id=${m}`, (p) => p.managerId === m];
      },
    ],
    [
      "department.id",
      () => {
        const d = all()[12]!.departmentId;
        return [`department.id=${d}`, (p) => p.departmentId === d];
      },
    ],
    ["status", () => ["status=active,upcoming", (p) => x.positionStatus(p) !== "deactivated"]],
    [
      "startsOn",
      () => {
        const date = all()[20]!.startsOn;
        return [`startsOn=${date}`, (p) => p.startsOn === date];
      },
    ],
    [
      "endsOn",
      () => {
        const date = x.positionEndsOn(all().find((p) => x.positionEndsOn(p) !== null)!)!;
        return [`endsOn=${date}`, (p) => x.positionEndsOn(p) === date];
      },
    ],
    ["endsOn with the literal null", () => ["endsOn=null", (p) => x.positionEndsOn(p) === null]],
    ["startsOn.between", () => ["startsOn.between=2023-03-01--2024-02-29", (p) => p.startsOn >= "2023-03-01" && p.startsOn <= "2024-02-29"]],
    [
      "endsOn.between",
      () => [
        "endsOn.between=2025-01-01--..",
        (p) => {
          const end = x.positionEndsOn(p);
          return end !== null && end >= "2025-01-01";
        },
      ],
    ],
    ["updatedAttributes", () => ["updatedAttributes=department,occupationCategory", (p) => updatedAttributes(p).some((a) => a === "department" || a === "occupationCategory")]],
  ];

  it.each(cases)("the %s filter selects exactly the matching positions", async (_name, make) => {
    const [query, predicate] = make();
    const expected = expectedIds(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all().length);
    expect(await listIds(query)).toEqual(expected);
  });

  it("an unknown updated attribute is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/job-positions?updatedAttributes=manager");
    expect(status).toBe(400);
    expect(body.errors.updatedAttributes[0]).toContain("manager");
  });

  it("a range that ends before it starts is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/job-positions?startsOn.between=2025-01-02--2025-01-01");
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty(["startsOn.between"]);
  });
});

describe("job-position sorts", () => {
  const sortCases: Array<[string, (a: JobPosition, b: JobPosition) => number]> = [
    ["-id", (a, b) => Number(b.id) - Number(a.id)],
    ["startsOn", (a, b) => cmp(a.startsOn, b.startsOn) || Number(a.id) - Number(b.id)],
    ["-startsOn", (a, b) => cmp(b.startsOn, a.startsOn) || Number(a.id) - Number(b.id)],
    ["endsOn", (a, b) => cmpEnd(x.positionEndsOn(a), x.positionEndsOn(b)) || Number(a.id) - Number(b.id)],
    ["-endsOn", (a, b) => cmpEnd(x.positionEndsOn(b), x.positionEndsOn(a)) || Number(a.id) - Number(b.id)],
  ];

  it.each(sortCases)("sort=%s orders the whole list", async (sort, order) => {
    expect(await listIds(`sort=${sort}`)).toEqual([...all()].sort(order).map((p) => p.id));
  });
});

describe("job-position visibility", () => {
  it("demo-limited lists only the positions of the employees it may see", async () => {
    const expected = expectedIds((p) => x.visibleToLimited(p.employeeId));
    expect(expected.length).toBeGreaterThan(0);
    expect(await listIds("", limited)).toEqual(expected);
  });

  it("a position of an employee demo-limited may not see is a 404 for it", async () => {
    const hidden = all().find((p) => !x.visibleToLimited(p.employeeId))!;
    expect((await get(directory.url, limited, `/service-api/job-positions/${hidden.id}`)).status).toBe(404);
  });

  it("a manager filter does not reveal positions demo-limited may not see", async () => {
    const manager = all().find((p) => p.managerId !== null && !x.visibleToLimited(p.employeeId))!.managerId!;
    const expected = expectedIds((p) => p.managerId === manager && x.visibleToLimited(p.employeeId));
    expect(await listIds(`manager.id=${manager}`, limited)).toEqual(expected);
  });
});
