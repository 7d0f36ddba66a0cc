import { beforeAll, describe, expect, it } from "vitest";
import type { Employment } from "../../directory/data/model.js";
import { Expect, directoryToken, get, getAll, ids } from "./current-helpers.js";
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

async function listIds(query: string, as = token): Promise<string[]> {
  const { items } = await getAll(directory.url, as, `/service-api/employments?limit=100&${query}`);
  return ids(items);
}

const all = () => directory.company.employments;
const expectedIds = (predicate: (e: Employment) => boolean) => all().filter(predicate).map((e) => e.id);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** null end dates sort after every date */
const cmpEnd = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : cmp(a, b));

describe("employment representation", () => {
  it("a single read returns the employment with its status and inferred legal entity", async () => {
    const e = all().find((c) => c.endDate !== null && c.documentId !== null)!;
    const { status, body } = await get(directory.url, token, `/service-api/employments/${e.id}`);
    expect(status).toBe(200);
    const u = (path: string) => `${directory.url}/service-api/${path}`;
    const legalEntity = x.legalEntityOf(e)!;
    expect(body).toEqual({
      id: e.id,
      type: "employment",
      url: u(`employments/${e.id}`),
      remoteId: e.remoteId,
      employee: { id: e.employeeId, type: "employee", url: u(`employees/${e.employeeId}`) },
      legalEntity: { id: legalEntity, type: "legal-entity", url: u(`legal-entities/${legalEntity}`) },
      status: x.employmentStatus(e),
      start: { date: e.startDate },
      end: { date: e.endDate },
      document: { id: e.documentId, type: "file", url: u(`files/${e.documentId}`) },
      template: { id: e.templateId, type: "employment-template", url: u(`employment-templates/${e.templateId}`) },
      createdAt: e.createdAt,
      lastUpdatedAt: e.lastUpdatedAt,
    });
  });

  it("an open-ended employment has end null", async () => {
    const e = all().find((c) => c.endDate === null)!;
    const { body } = await get(directory.url, token, `/service-api/employments/${e.id}`);
    expect(body.end).toBeNull();
  });

  it("every employment's status and legal entity follow the interface's rules", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/employments?limit=100");
    expect(items).toHaveLength(all().length);
    for (const item of items) {
      const e = x.byId.employment.get(item.id)!;
      expect({ id: item.id, status: item.status, legalEntity: item.legalEntity?.id ?? null }).toEqual({
        id: e.id,
        status: x.employmentStatus(e),
        legalEntity: x.legalEntityOf(e),
      });
    }
  });

  it("an unknown employment is a 404", async () => {
    expect((await get(directory.url, token, "/service-api/employments/nope")).status).toBe(404);
  });

  it("links point to the employment's job positions and probationary periods", async () => {
    const { body } = await get(directory.url, token, "/service-api/employments/5?include=links");
    expect(body.links).toEqual({
      jobPositions: { href: `${directory.url}/service-api/job-positions?employment.id=5` },
      probationaryPeriods: { href: `${directory.url}/service-api/probationary-periods?employment.id=5` },
    });
  });

  it("the probationary-periods link is null for a caller without that scope", async () => {
    const visible = all().find((e) => x.visibleToLimited(e.employeeId))!;
    const { body } = await get(directory.url, limited, `/service-api/employments/${visible.id}?include=links`);
    expect(body.links.probationaryPeriods).toBeNull();
    expect(body.links.jobPositions).not.toBeNull();
  });

  it("an employment list embeds the employees of its items", async () => {
    const { body } = await get(directory.url, token, "/service-api/employments?limit=10&include=embedded");
    const employees = [...new Set(body.items.map((i: any) => i.employee.id))].sort();
    expect(Object.keys(body.embedded)).toEqual(["employee"]);
    expect(Object.keys(body.embedded.employee).sort()).toEqual(employees);
  });

  it("embedded employees are left out for a caller without the employees scope", async () => {
    const scoped = await directoryToken(directory.url, "demo-client", "employments.readonly");
    const { body } = await get(directory.url, scoped, "/service-api/employments?limit=10&include=embedded");
    expect(body.items).toHaveLength(10);
    expect(body.embedded).toEqual({});
  });
});

describe("employment filters", () => {
  const cases: Array<[string, () => [string, (e: Employment) => boolean]]> = [
    ["id", () => ["id=2,4,6,999999", (e) => ["2", "4", "6"].includes(e.id)]],
    [
      "remoteId",
      () => {
        const remoteId = all().find((e) => e.remoteId !== null)!.remoteId!;
        return [`remoteId=${encodeURIComponent(remoteId)}`, (e) => e.remoteId === remoteId];
      },
    ],
    ["employee.id", () => ["employee.id=3,10,11", (e) => ["3", "10", "11"].includes(e.employeeId)]],
    ["template.id", () => ["template.id=1,4", (e) => ["1", "4"].includes(e.templateId)]],
    ["legalEntity.id", () => ["legalEntity.id=3", (e) => x.legalEntityOf(e) === "3"]],
    ["status", () => ["status=upcoming", (e) => x.employmentStatus(e) === "upcoming"]],
    [
      "start.date",
      () => {
        const date = all()[17]!.startDate;
        return [`start.date=${date}`, (e) => e.startDate === date];
      },
    ],
    [
      "end.date",
      () => {
        const date = all().find((e) => e.endDate !== null)!.endDate!;
        return [`end.date=${date}`, (e) => e.endDate === date];
      },
    ],
    ["end.date with the literal null", () => ["end.date=null", (e) => e.endDate === null]],
    ["start.date.between", () => ["start.date.between=2022-01-01--2023-12-31", (e) => e.startDate >= "2022-01-01" && e.startDate <= "2023-12-31"]],
    ["end.date.between", () => ["end.date.between=..--2025-12-31", (e) => e.endDate !== null && e.endDate <= "2025-12-31"]],
  ];

  it.each(cases)("the %s filter selects exactly the matching employments", async (_name, make) => {
    const [query, predicate] = make();
    const expected = expectedIds(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all().length);
    expect(await listIds(query)).toEqual(expected);
  });

  it("a date that does not exist is a 400", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employments?start.date=2025-02-30");
    expect(status).toBe(400);
    expect(body.errors["start.date"][0]).toContain("2025-02-30");
  });
});

describe("employment sorts", () => {
  const sortCases: Array<[string, (a: Employment, b: Employment) => number]> = [
    ["-id", (a, b) => Number(b.id) - Number(a.id)],
    ["start.date", (a, b) => cmp(a.startDate, b.startDate) || Number(a.id) - Number(b.id)],
    ["-start.date", (a, b) => cmp(b.startDate, a.startDate) || Number(a.id) - Number(b.id)],
    ["end.date", (a, b) => cmpEnd(a.endDate, b.endDate) || Number(a.id) - Number(b.id)],
    ["-end.date", (a, b) => cmpEnd(b.endDate, a.endDate) || Number(a.id) - Number(b.id)],
  ];

  it.each(sortCases)("sort=%s orders the whole list (open ends last ascending)", async (sort, order) => {
    expect(await listIds(`sort=${sort}`)).toEqual([...all()].sort(order).map((e) => e.id));
  });
});

describe("employment visibility", () => {
  it("demo-limited lists only the employments of the employees it may see", async () => {
    const expected = expectedIds((e) => x.visibleToLimited(e.employeeId));
    expect(expected.length).toBeGreaterThan(0);
    expect(await listIds("", limited)).toEqual(expected);
  });

  it("an employment of an employee demo-limited may not see is a 404 for it", async () => {
    const hidden = all().find((e) => !x.visibleToLimited(e.employeeId))!;
    expect((await get(directory.url, limited, `/service-api/employments/${hidden.id}`)).status).toBe(404);
  });

  it("an employee's past employment in another establishment is visible with the employee", async () => {
    // visibility follows the employee's applicable establishment, not the employment's own
    const e = all().find((c) => x.visibleToLimited(c.employeeId) && (x.positionsOf.get(c.id) ?? []).every((p) => p.businessEstablishmentId !== "1"));
    expect(e).toBeDefined();
    expect((await get(directory.url, limited, `/service-api/employments/${e!.id}`)).status).toBe(200);
  });
});
