import { beforeAll, describe, expect, it } from "vitest";
import type { Employee } from "../../directory/data/model.js";
import { byNumericId, Expect, directoryToken, foldText, get, getAll, ids } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

const directory = useDirectory({ employees: 300, today: "2026-06-15" });
let x: Expect;
let token: string;
let limited: string;

beforeAll(async () => {
  x = new Expect(directory.company);
  token = await directoryToken(directory.url);
  limited = await directoryToken(directory.url, "demo-limited");
});

const fold = foldText;
const words = (s: string) => fold(s).split(/[\s\-_,.]+/).filter(Boolean);

async function listIds(query: string, as = token): Promise<string[]> {
  const { items } = await getAll(directory.url, as, `/service-api/employees?limit=100&${query}`);
  return ids(items);
}

function expectedIds(predicate: (e: Employee) => boolean): string[] {
  return directory.company.employees.filter(predicate).map((e) => e.id);
}

describe("employee representation", () => {
  it("a single read returns the employee with its computed status and applicable employment and position", async () => {
    const e = directory.company.employees[41]!;
    const { status, body } = await get(directory.url, token, `/service-api/employees/${e.id}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      id: e.id,
      type: "employee",
      url: `${directory.url}/service-api/employees/${e.id}`,
      remoteId: e.remoteId,
      portrait: { id: e.portraitId, type: "portrait", url: `${directory.url}/service-api/portraits/${e.portraitId}` },
      givenName: e.givenName,
      familyName: e.familyName,
      employeeNumber: e.employeeNumber,
      status: x.employeeStatus(e.id),
      email: e.email,
      phoneNumber: e.phoneNumber,
      birthDay: e.birthDay,
      applicableEmployment: {
        id: x.applicableEmployment(e.id)!.id,
        type: "employment",
        url: `${directory.url}/service-api/employments/${x.applicableEmployment(e.id)!.id}`,
      },
      applicableJobPosition: {
        id: x.applicableJobPosition(e.id)!.id,
        type: "job-position",
        url: `${directory.url}/service-api/job-positions/${x.applicableJobPosition(e.id)!.id}`,
      },
      createdAt: e.createdAt,
      lastUpdatedAt: e.lastUpdatedAt,
    });
  });

  it("every employee's status, applicable employment and applicable job position follow the interface's rules", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/employees?limit=100");
    expect(items).toHaveLength(300);
    for (const item of items) {
      expect({ id: item.id, status: item.status, employment: item.applicableEmployment?.id, position: item.applicableJobPosition?.id }).toEqual({
        id: item.id,
        status: x.employeeStatus(item.id),
        employment: x.applicableEmployment(item.id)?.id,
        position: x.applicableJobPosition(item.id)?.id,
      });
    }
    // the demo data has every kind, so the rules above were all exercised
    expect(new Set(items.map((i) => i.status))).toEqual(new Set(["active", "upcoming", "deactivated"]));
  });

  it("an unknown employee is a 404 problem", async () => {
    const { status, body, headers } = await get(directory.url, token, "/service-api/employees/999999");
    expect(status).toBe(404);
    expect(headers.get("content-type")).toContain("application/problem+json");
    expect(body).toMatchObject({ status: 404, title: "Not Found" });
  });

  it("links are present only with include=links and point to the employee's lists", async () => {
    const without = await get(directory.url, token, "/service-api/employees/3");
    expect(without.body).not.toHaveProperty("links");
    const { body } = await get(directory.url, token, "/service-api/employees/3?include=links");
    expect(body.links).toEqual({
      portrait: { href: expect.stringMatching(new RegExp(`^${directory.url}/service-api/files/3\\?token=[\\w-]+$`)) },
      employments: { href: `${directory.url}/service-api/employments?employee.id=3` },
      jobPositions: { href: `${directory.url}/service-api/job-positions?employment.employee.id=3` },
      personalRecord: { href: `${directory.url}/service-api/employee-personal-records?employee.id=3` },
    });
  });

  it("the employments link lists exactly the employee's employments", async () => {
    const { body } = await get(directory.url, token, "/service-api/employees/3?include=links");
    const { items } = await getAll(directory.url, token, body.links.employments.href.slice(directory.url.length));
    expect(ids(items).sort(byNumericId)).toEqual(x.employmentsOf.get("3")!.map((e) => e.id).sort(byNumericId));
  });

  it("a link is null when the caller lacks the scope of its target", async () => {
    const visible = directory.company.employees.find((e) => x.visibleToLimited(e.id))!;
    const { body } = await get(directory.url, limited, `/service-api/employees/${visible.id}?include=links`);
    expect(body.links.personalRecord).toBeNull();
    expect(body.links.employments).not.toBeNull();
  });

  it("an employee list embeds the applicable employment and job position of each item", async () => {
    const { body } = await get(directory.url, token, "/service-api/employees?limit=5&include=embedded");
    const employments = body.items.map((i: any) => i.applicableEmployment.id).sort();
    const positions = body.items.map((i: any) => i.applicableJobPosition.id).sort();
    expect(Object.keys(body.embedded).sort()).toEqual(["employment", "job-position"]);
    expect(Object.keys(body.embedded.employment).sort()).toEqual(employments);
    expect(Object.keys(body.embedded["job-position"]).sort()).toEqual(positions);
    const [someId] = positions;
    expect(body.embedded["job-position"][someId]).toMatchObject({ id: someId, type: "job-position" });
  });

  it("a single read with include=embedded carries its own embedded member", async () => {
    const { body } = await get(directory.url, token, "/service-api/employees/4?include=embedded");
    expect(Object.keys(body.embedded.employment)).toEqual([x.applicableEmployment("4")!.id]);
  });
});

describe("employee filters", () => {
  // each case: the query, and the employees it must select (computed from the data, not the service)
  const cases: Array<[string, () => [string, (e: Employee) => boolean]]> = [
    ["id", () => ["id=3,1,250,99999", (e) => ["1", "3", "250"].includes(e.id)]],
    [
      "email",
      () => {
        const [a, b] = directory.company.employees.filter((e) => e.email !== null);
        return [`email=${encodeURIComponent(`${a!.email},${b!.email}`)}`, (e) => e.id === a!.id || e.id === b!.id];
      },
    ],
    ["email with the literal null", () => ["email=null", (e) => e.email === null]],
    ["status", () => ["status=upcoming,deactivated", (e) => x.employeeStatus(e.id) !== "active"]],
    [
      "applicableEmployment.legalEntity.id",
      () => ["applicableEmployment.legalEntity.id=2,3", (e) => ["2", "3"].includes(x.legalEntityOf(x.applicableEmployment(e.id)!) ?? "")],
    ],
    [
      "applicableEmployment.remoteId",
      () => {
        const remoteId = directory.company.employees.map((e) => x.applicableEmployment(e.id)?.remoteId).find((r) => r)!;
        return [`applicableEmployment.remoteId=${encodeURIComponent(remoteId)}`, (e) => x.applicableEmployment(e.id)?.remoteId === remoteId];
      },
    ],
    [
      "applicableEmployment.startsOn",
      () => {
        const date = x.applicableEmployment("12")!.startDate;
        return [`applicableEmployment.startsOn=${date}`, (e) => x.applicableEmployment(e.id)?.startDate === date];
      },
    ],
    [
      "applicableEmployment.startsOn.between",
      () => [
        "applicableEmployment.startsOn.between=2024-01-01--2025-06-30",
        (e) => {
          const d = x.applicableEmployment(e.id)?.startDate;
          return d !== undefined && d >= "2024-01-01" && d <= "2025-06-30";
        },
      ],
    ],
    [
      "applicableEmployment.startsOn.between with an open start",
      () => ["applicableEmployment.startsOn.between=..--2020-12-31", (e) => (x.applicableEmployment(e.id)?.startDate ?? "9") <= "2020-12-31"],
    ],
    [
      "applicableEmployment.endsOn",
      () => {
        const date = directory.company.employees.map((e) => x.applicableEmployment(e.id)?.endDate).find((d) => d)!;
        return [`applicableEmployment.endsOn=${date}`, (e) => x.applicableEmployment(e.id)?.endDate === date];
      },
    ],
    ["applicableEmployment.endsOn with the literal null", () => ["applicableEmployment.endsOn=null", (e) => x.applicableEmployment(e.id)?.endDate === null]],
    [
      "applicableEmployment.endsOn.between with an open end",
      () => [
        "applicableEmployment.endsOn.between=2026-06-15--..",
        (e) => {
          const d = x.applicableEmployment(e.id)?.endDate;
          return d !== null && d !== undefined && d >= "2026-06-15";
        },
      ],
    ],
    ["applicableEmployment.template.id", () => ["applicableEmployment.template.id=2,3", (e) => ["2", "3"].includes(x.applicableEmployment(e.id)?.templateId ?? "")]],
    [
      "applicableEmployment.template.term",
      () => [
        "applicableEmployment.template.term=fixed",
        (e) => directory.company.employmentTemplates.find((t) => t.id === x.applicableEmployment(e.id)?.templateId)?.term === "fixed",
      ],
    ],
    [
      "applicableJobPosition.remoteId",
      () => {
        const remoteId = directory.company.employees.map((e) => x.applicableJobPosition(e.id)?.remoteId).find((r) => r)!;
        return [`applicableJobPosition.remoteId=${encodeURIComponent(remoteId)}`, (e) => x.applicableJobPosition(e.id)?.remoteId === remoteId];
      },
    ],
    ["applicableJobPosition.remoteId with the literal null", () => ["applicableJobPosition.remoteId=null", (e) => x.applicableJobPosition(e.id)?.remoteId === null]],
    [
      "applicableJobPosition.businessEstablishment.id",
      () => ["applicableJobPosition.businessEstablishment.id=4,7", (e) => ["4", "7"].includes(x.applicableJobPosition(e.id)?.businessEstablishmentId ?? "")],
    ],
    [
      "applicableJobPosition.department.id",
      () => {
        const dept = x.applicableJobPosition("20")!.departmentId;
        return [`applicableJobPosition.department.id=${dept}`, (e) => x.applicableJobPosition(e.id)?.departmentId === dept];
      },
    ],
    [
      "applicableJobPosition.manager.id",
      () => {
        const manager = x.applicableJobPosition("30")!.managerId!;
        return [`applicableJobPosition.manager.id=${manager}`, (e) => x.applicableJobPosition(e.id)?.managerId === manager];
      },
    ],
    [
      "applicableJobPosition.jobQualification.id",
      () => {
        const q = x.applicableJobPosition("25")!.jobQualificationId;
        return [`applicableJobPosition.jobQualification.id=${q}`, (e) => x.applicableJobPosition(e.id)?.jobQualificationId === q];
      },
    ],
    [
      "applicableJobPosition.jobQualification.remoteId",
      () => {
        const q = x.applicableJobPosition("26")!.jobQualificationId;
        return [`applicableJobPosition.jobQualification.remoteId=${q}`, (e) => x.applicableJobPosition(e.id)?.jobQualificationId === q];
      },
    ],
    [
      "applicableJobPosition.occupationCategory.id",
      () => {
        const c = x.applicableJobPosition("27")!.occupationCategoryId;
        return [`applicableJobPosition.occupationCategory.id=${c}`, (e) => x.applicableJobPosition(e.id)?.occupationCategoryId === c];
      },
    ],
    [
      "applicableJobPosition.occupationCategory.remoteId",
      () => {
        const c = x.applicableJobPosition("28")!.occupationCategoryId;
        return [`applicableJobPosition.occupationCategory.remoteId=${c}`, (e) => x.applicableJobPosition(e.id)?.occupationCategoryId === c];
      },
    ],
    [
      "search on one word prefix",
      () => {
        const prefix = fold(directory.company.employees[0]!.familyName).slice(0, 2);
        return [`search=${encodeURIComponent(prefix)}`, (e) => words(`${e.givenName} ${e.familyName}`).some((w) => w.startsWith(prefix))];
      },
    ],
    [
      "two filters together",
      () => ["status=active&applicableJobPosition.businessEstablishment.id=1", (e) => x.employeeStatus(e.id) === "active" && x.applicableJobPosition(e.id)?.businessEstablishmentId === "1"],
    ],
  ];

  it.each(cases)("the %s filter selects exactly the matching employees", async (_name, make) => {
    const [query, predicate] = make();
    const expected = expectedIds(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(300);
    expect(await listIds(query)).toEqual(expected);
  });

  it("search ignores case and accents", async () => {
    const e = directory.company.employees.find((c) => fold(c.givenName) !== c.givenName.toLowerCase())!;
    expect(e).toBeDefined();
    const found = await listIds(`search=${encodeURIComponent(fold(e.givenName).toUpperCase())}`);
    expect(found).toContain(e.id);
  });

  it("search treats letters without accents of their own as their base letter (Đ as d)", async () => {
    const e = directory.company.employees.find((c) => /[ĐđØøŁł]/.test(`${c.givenName}${c.familyName}`))!;
    expect(e).toBeDefined();
    const raw = `${e.givenName} ${e.familyName}`.split(/[\s\-_,.]+/).find((w) => /[ĐđØøŁł]/.test(w))!;
    const plain = fold(raw); // e.g. "malgorzata" for "Małgorzata"
    expect(plain).toMatch(/^[a-z']+$/);
    expect(await listIds(`search=${encodeURIComponent(plain)}`)).toContain(e.id);
  });

  it("search needs every word to start a word of the given or family name", async () => {
    const e = directory.company.employees[0]!;
    const query = `${fold(e.familyName).slice(0, 3)}-${fold(e.givenName).slice(0, 2)}`;
    const expected = expectedIds((c) => {
      const w = words(`${c.givenName} ${c.familyName}`);
      return [fold(e.familyName).slice(0, 3), fold(e.givenName).slice(0, 2)].every((q) => w.some((x) => x.startsWith(q)));
    });
    expect(expected).toContain(e.id);
    expect(await listIds(`search=${encodeURIComponent(query)}`)).toEqual(expected);
  });

  it("search does not match inside a word", async () => {
    const inside = (c: Employee) => fold(c.familyName).slice(2, 6);
    const e = directory.company.employees.find(
      (c) => inside(c).length === 4 && /^\p{L}+$/u.test(inside(c)) && !words(`${c.givenName} ${c.familyName}`).some((w) => w.startsWith(inside(c))),
    )!;
    expect(e).toBeDefined();
    expect(await listIds(`search=${encodeURIComponent(inside(e))}&id=${e.id}`)).toEqual([]);
  });

  it("a search without any word is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees?search=-_.");
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty("search");
  });

  it("an email shorter than 3 characters is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees?email=ab");
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty("email");
  });

  it("an unknown status is a 400 naming the allowed values", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees?status=active,retired");
    expect(status).toBe(400);
    expect(body.errors.status[0]).toContain("retired");
    expect(body.errors.status[0]).toContain("deactivated");
  });

  it("an unknown template term is a 400", async () => {
    const { status } = await get(directory.url, token, "/service-api/employees?applicableEmployment.template.term=temporary");
    expect(status).toBe(400);
  });
});

describe("employee sorts", () => {
  const sortCases: Array<[string, (a: Employee, b: Employee) => number]> = [
    ["-id", (a, b) => Number(b.id) - Number(a.id)],
    ["familyName", (a, b) => cmp(fold(a.familyName), fold(b.familyName)) || cmp(a.familyName, b.familyName) || Number(a.id) - Number(b.id)],
    ["-familyName", (a, b) => cmp(fold(b.familyName), fold(a.familyName)) || cmp(b.familyName, a.familyName) || Number(a.id) - Number(b.id)],
    ["createdAt", (a, b) => cmp(a.createdAt, b.createdAt) || Number(a.id) - Number(b.id)],
    ["-createdAt", (a, b) => cmp(b.createdAt, a.createdAt) || Number(a.id) - Number(b.id)],
    ["familyName,-createdAt", (a, b) => cmp(fold(a.familyName), fold(b.familyName)) || cmp(a.familyName, b.familyName) || cmp(b.createdAt, a.createdAt) || Number(a.id) - Number(b.id)],
  ];

  it.each(sortCases)("sort=%s orders the whole list (ties broken by id)", async (sort, order) => {
    const expected = [...directory.company.employees].sort(order).map((e) => e.id);
    expect(await listIds(`sort=${sort}`)).toEqual(expected);
  });

  it("an unknown sort is a 400 naming the allowed sorts", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees?sort=givenName");
    expect(status).toBe(400);
    expect(body.errors.sort[0]).toContain("familyName");
  });

  it("sorting twice on the same field is a 400", async () => {
    const { status } = await get(directory.url, token, "/service-api/employees?sort=familyName,-familyName");
    expect(status).toBe(400);
  });
});

describe("employee visibility", () => {
  it("demo-limited lists only the employees whose applicable position is in its establishment", async () => {
    const expected = expectedIds((e) => x.visibleToLimited(e.id));
    expect(expected.length).toBeGreaterThan(0);
    expect(await listIds("include=totalCount", limited)).toEqual(expected);
  });

  it("demo-limited's totalCount counts only what it may see", async () => {
    const { body } = await get(directory.url, limited, "/service-api/employees?limit=1&include=totalCount");
    expect(body.totalCount).toBe(expectedIds((e) => x.visibleToLimited(e.id)).length);
  });

  it("an employee outside demo-limited's establishment is a 404 for it and a 200 for demo-client", async () => {
    const hidden = directory.company.employees.find((e) => !x.visibleToLimited(e.id))!;
    expect((await get(directory.url, limited, `/service-api/employees/${hidden.id}`)).status).toBe(404);
    expect((await get(directory.url, token, `/service-api/employees/${hidden.id}`)).status).toBe(200);
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
