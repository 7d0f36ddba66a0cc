import { beforeAll, describe, expect, test } from "vitest";
import type { Company, Employment } from "../../directory/data/model.js";
import { Expect } from "./current-helpers.js";
import { TODAY, useLegacy } from "./legacy-helpers.js";

const BASE = "/directory/api/4.0/work-contracts";

const api = useLegacy();
let company: Company;
let expected: Expect;

beforeAll(async () => {
  company = api.directory.company;
  expected = new Expect(company);
});

/** An employee whose employments have exactly these statuses, in chronological order. */
function employeeWith(statuses: string[]): string {
  const found = company.employees.find((e) => {
    const list = expected.employmentsOf.get(e.id) ?? [];
    return list.map((x) => expected.employmentStatus(x)).join(",") === statuses.join(",");
  });
  if (!found) throw new Error(`the demo has no employee with employments ${statuses.join(", ")}`);
  return found.id;
}

async function contractsOf(ownerId: string): Promise<any[]> {
  return (await api.get(`${BASE}?ownerId=${ownerId}`)).body.items;
}

const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

describe("GET /directory/api/4.0/work-contracts/{id}", () => {
  test("a work contract is its employment: same id, owner, template, dates and remote id", async () => {
    const e = company.employments.find((x) => x.endDate !== null && x.remoteId !== null)!;
    const res = await api.get(`${BASE}/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: Number(e.id),
      ownerId: Number(e.employeeId),
      externalId: e.remoteId,
      typeId: Number(e.templateId),
      startsOn: e.startDate,
      endsOn: e.endDate,
    });
  });

  test("establishmentId is the establishment of the employment's first job position", async () => {
    const e = company.employments.find((x) => new Set((expected.positionsOf.get(x.id) ?? []).map((p) => p.businessEstablishmentId)).size > 1)
      ?? company.employments[0]!;
    const first = expected.positionsOf.get(e.id)![0]!;
    expect((await api.get(`${BASE}/${e.id}`)).body.establishmentId).toBe(Number(first.businessEstablishmentId));
  });

  test("an extended probationary period gives both trial lengths and end dates", async () => {
    const p = company.probationaryPeriods.find((x) => x.extendedEndsOn !== null)!;
    const e = company.employments.find((x) => x.id === p.employmentId)!;
    const body = (await api.get(`${BASE}/${e.id}`)).body;
    expect(body).toMatchObject({
      trialPeriodDays: days(e.startDate, p.initialEndsOn),
      renewedTrialPeriodDays: days(e.startDate, p.extendedEndsOn!),
      trialPeriodEndDate: p.initialEndsOn,
      trialPeriodEndDate2: p.extendedEndsOn,
    });
    expect(body.renewedTrialPeriodDays).toBeGreaterThan(body.trialPeriodDays);
  });

  test("a probationary period that was not extended has no renewed values", async () => {
    const p = company.probationaryPeriods.find((x) => x.extendedEndsOn === null)!;
    const body = (await api.get(`${BASE}/${p.employmentId}`)).body;
    expect(body.trialPeriodEndDate).toBe(p.initialEndsOn);
    expect(body.renewedTrialPeriodDays).toBeNull();
    expect(body.trialPeriodEndDate2).toBeNull();
  });

  test("an employment without probationary period has no trial period", async () => {
    const e = company.employments.find((x) => !company.probationaryPeriods.some((p) => p.employmentId === x.id))!;
    expect((await api.get(`${BASE}/${e.id}`)).body).toMatchObject({ trialPeriodDays: null, renewedTrialPeriodDays: null, trialPeriodEndDate: null, trialPeriodEndDate2: null });
  });

  test("createdAt and lastModifiedAt carry no offset; author and last modifier are users", async () => {
    const e = company.employments[10]!;
    const body = (await api.get(`${BASE}/${e.id}`)).body;
    expect(body.createdAt).toBe(e.createdAt.slice(0, 19));
    expect(body.lastModifiedAt).toBe(e.lastUpdatedAt.slice(0, 19));
    expect(company.employees.some((x) => Number(x.id) === body.authorId)).toBe(true);
    expect(company.employees.some((x) => Number(x.id) === body.lastModifierId)).toBe(true);
  });

  test("only a fixed-term contract has a temporary-contract ground, only an ended one a termination reason", async () => {
    const { items } = (await api.get(`${BASE}?limit=1000`)).body;
    for (const c of items) {
      const e = company.employments.find((x) => Number(x.id) === c.id)!;
      const template = company.employmentTemplates.find((t) => t.id === e.templateId)!;
      expect(c.temporaryContractGroundId !== null).toBe(template.term === "fixed");
      expect(c.terminationReasonId !== null).toBe(e.endDate !== null && e.endDate < TODAY);
    }
  });

  test("an unknown work contract is a 404", async () => {
    const res = await api.get(`${BASE}/999999`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: expect.stringContaining("999999") });
  });

  test("an id that is not an integer is a 400", async () => {
    expect((await api.get(`${BASE}/abc`)).status).toBe(400);
  });
});

describe("the applicable work contract", () => {
  test("with past, current and upcoming contracts, the current one applies", async () => {
    const owner = employeeWith(["deactivated", "active", "upcoming"]);
    const contracts = await contractsOf(owner);
    expect(contracts.map((c) => c.isApplicable)).toEqual([false, true, false]);
  });

  test("with only past contracts, the last one applies", async () => {
    const owner = company.employees.find((e) => {
      const list = expected.employmentsOf.get(e.id) ?? [];
      return list.length > 1 && list.every((x) => expected.employmentStatus(x) === "deactivated");
    })!.id;
    const contracts = await contractsOf(owner);
    expect(contracts.length).toBeGreaterThan(1);
    const last = [...contracts].sort((a, b) => a.startsOn.localeCompare(b.startsOn)).at(-1);
    expect(contracts.filter((c) => c.isApplicable)).toEqual([last]);
  });

  test("with only an upcoming contract, it applies", async () => {
    const contracts = await contractsOf(employeeWith(["upcoming"]));
    expect(contracts.map((c) => c.isApplicable)).toEqual([true]);
  });

  test("with past contracts and an upcoming one, the upcoming one applies", async () => {
    const owner = company.employees.find((e) => {
      const s = (expected.employmentsOf.get(e.id) ?? []).map((x) => expected.employmentStatus(x));
      return s.includes("upcoming") && s.includes("deactivated") && !s.includes("active");
    })!.id;
    const contracts = await contractsOf(owner);
    const applicable = contracts.filter((c) => c.isApplicable);
    expect(applicable).toHaveLength(1);
    expect(applicable[0].startsOn > TODAY).toBe(true);
  });

  test("every employee has exactly one applicable contract", async () => {
    const res = await api.get(`${BASE}?isApplicable=true&limit=1000&fields.root=count`);
    const owners = res.body.items.map((c: any) => c.ownerId);
    expect(new Set(owners).size).toBe(owners.length);
    expect(res.body.count).toBe(new Set(company.employments.map((e) => e.employeeId)).size);
  });
});

describe("archived work contracts", () => {
  /** whether each of the owner's contracts is archived: the contract does not say, the list's isArchived filter does */
  async function archivedOf(ownerId: string): Promise<boolean[]> {
    const archived = new Set((await api.get(`${BASE}?ownerId=${ownerId}&isArchived=true`)).body.items.map((c: any) => c.id));
    return (await contractsOf(ownerId)).map((c) => archived.has(c.id));
  }

  test("the ended contracts of a deactivated employee are archived", async () => {
    expect(await archivedOf(employeeWith(["deactivated"]))).toEqual([true]);
  });

  test("an ended contract of a current employee is not archived", async () => {
    expect(await archivedOf(employeeWith(["deactivated", "active"]))).toEqual([false, false]);
  });

  test("a contract writes no isArchived, which the interface does not list among its fields", async () => {
    const [single, listed] = [(await api.get(`${BASE}/1`)).body, (await api.get(`${BASE}?limit=1000`)).body.items];
    expect(single).not.toHaveProperty("isArchived");
    expect(listed.some((c: any) => "isArchived" in c)).toBe(false);
  });
});

describe("GET /directory/api/4.0/work-contracts", () => {
  const sortedIds = () => company.employments.map((e) => Number(e.id)).sort((a, b) => a - b);

  test("the first page holds 100 contracts by id and no count", async () => {
    const res = await api.get(BASE);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["items"]);
    expect(res.body.items.map((c: any) => c.id)).toEqual(sortedIds().slice(0, 100));
  });

  test("fields.root=count adds the total count", async () => {
    const res = await api.get(`${BASE}?limit=5&fields.root=count`);
    expect(res.body.count).toBe(company.employments.length);
    expect(res.body.items).toHaveLength(5);
  });

  test("page and limit select a page, pages starting at 1", async () => {
    const res = await api.get(`${BASE}?page=3&limit=50`);
    expect(res.body.items.map((c: any) => c.id)).toEqual(sortedIds().slice(100, 150));
  });

  test("the pages together hold every contract once", async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const { items } = (await api.get(`${BASE}?page=${page}&limit=150`)).body;
      if (items.length === 0) break;
      seen.push(...items.map((c: any) => c.id));
    }
    expect(seen).toEqual(sortedIds());
  });

  test("a page after the last is empty", async () => {
    expect((await api.get(`${BASE}?page=100&limit=1000`)).body.items).toEqual([]);
  });

  test("limit 0 answers no items but still counts", async () => {
    const res = await api.get(`${BASE}?limit=0&fields.root=count`);
    expect(res.body).toEqual({ items: [], count: company.employments.length });
  });

  test("ownerId filters by employee, a list of ids", async () => {
    const owners = ["10", "14"];
    const res = await api.get(`${BASE}?ownerId=${owners.join(",")}`);
    const want = company.employments.filter((e) => owners.includes(e.employeeId)).map((e) => Number(e.id)).sort((a, b) => a - b);
    expect(res.body.items.map((c: any) => c.id)).toEqual(want);
  });

  test("isApplicable=false answers the contracts that do not apply", async () => {
    const res = await api.get(`${BASE}?isApplicable=false&limit=1000`);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((c: any) => c.isApplicable === false)).toBe(true);
  });

  test("isArchived filters archived and active contracts", async () => {
    const archived = (await api.get(`${BASE}?isArchived=true&limit=1000&fields.root=count`)).body;
    const active = (await api.get(`${BASE}?isArchived=false&limit=1000&fields.root=count`)).body;
    const ids = (body: any) => body.items.map((c: any) => c.id);
    expect(ids(archived).filter((id: number) => ids(active).includes(id))).toEqual([]);
    expect(archived.count + active.count).toBe(company.employments.length);
    expect(archived.count).toBeGreaterThan(0);
  });

  test("typeId filters by template", async () => {
    const res = await api.get(`${BASE}?typeId=2,3&limit=1000`);
    const want = company.employments.filter((e: Employment) => ["2", "3"].includes(e.templateId)).length;
    expect(res.body.items.length).toBe(want);
    expect(res.body.items.every((c: any) => c.typeId === 2 || c.typeId === 3)).toBe(true);
  });

  test("establishmentId filters by the first job position's establishment", async () => {
    const res = await api.get(`${BASE}?establishmentId=4&limit=1000`);
    const want = company.employments.filter((e) => expected.positionsOf.get(e.id)?.[0]?.businessEstablishmentId === "4").length;
    expect(want).toBeGreaterThan(0);
    expect(res.body.items.length).toBe(want);
    expect(res.body.items.every((c: any) => c.establishmentId === 4)).toBe(true);
  });

  test("filters combine", async () => {
    const res = await api.get(`${BASE}?establishmentId=1&isApplicable=true&isArchived=false&limit=1000`);
    expect(res.body.items.every((c: any) => c.establishmentId === 1 && c.isApplicable)).toBe(true);
  });

  test.each([
    ["page 0", "page=0"],
    ["a page that is no integer", "page=two"],
    ["a limit above 1000", "limit=1001"],
    ["a negative limit", "limit=-1"],
    ["fields.root other than count", "fields.root=total"],
    ["an ownerId of 0", "ownerId=0"],
    ["an ownerId that is no integer", "ownerId=1,x"],
    ["more than 100 owner ids", `ownerId=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`],
    ["isApplicable that is no boolean", "isApplicable=yes"],
    ["isArchived that is no boolean", "isArchived=1"],
    ["a typeId below 1", "typeId=0"],
    ["an establishmentId that is no integer", "establishmentId=a"],
    ["an unknown parameter", "owner=1"],
    ["a repeated parameter", "limit=1&limit=2"],
  ])("%s is a 400", async (_name, query) => {
    const res = await api.get(`${BASE}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.any(String) });
  });
});
