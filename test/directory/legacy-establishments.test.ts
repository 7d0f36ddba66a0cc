import { beforeAll, describe, expect, test } from "vitest";
import type { Company } from "../../directory/data/model.js";
import { Expect } from "./current-helpers.js";
import { useLegacy } from "./legacy-helpers.js";

const BASE = "/organization/structure/api/establishments";

const api = useLegacy();
let company: Company;

beforeAll(async () => {
  company = api.directory.company;
});

const ids = (items: any[]) => items.map((e) => e.id);
const unarchived = () => company.businessEstablishments.filter((b) => !b.isArchived).map((b) => Number(b.id));

describe("GET /organization/structure/api/establishments", () => {
  test("without parameters: every establishment that is not archived, by id, items only", async () => {
    const res = await api.get(BASE);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["items"]);
    expect(ids(res.body.items)).toEqual(unarchived());
    expect(company.businessEstablishments.some((b) => b.isArchived)).toBe(true);
  });

  test("an establishment carries the fields of its business establishment", async () => {
    const b = company.businessEstablishments[0]!;
    const admin = company.employees[0]!;
    const item = (await api.get(`${BASE}?id=${b.id}`)).body.items[0];
    expect(item).toEqual({
      id: Number(b.id),
      name: b.name,
      legalUnitId: Number(b.legalEntityId),
      code: b.remoteId,
      legalUnit: expect.objectContaining({ id: Number(b.legalEntityId), name: expect.any(String), country: expect.objectContaining({ currencyCode: expect.any(String) }) }),
      legalIdentificationNumber: b.taxIdentificationNumber.value,
      activityCode: b.industryCode.value,
      calendarId: expect.any(Number),
      address: { street: b.address.addressLines.join(", "), zipCode: b.address.postalCode, city: b.address.locality },
      timezoneId: b.timezoneId,
      usersCount: expect.any(Number),
      createdAt: b.createdAt.slice(0, 19),
      author: {
        id: Number(admin.id),
        firstName: admin.givenName,
        lastName: admin.familyName,
        fullname: `${admin.givenName} ${admin.familyName}`,
        url: `${api.directory.url}/api/v3/users/${admin.id}`,
      },
      isArchived: false,
    });
  });

  test("usersCount counts the employees active today whose applicable job position is there", async () => {
    const expected = new Expect(company);
    const { items } = (await api.get(`${BASE}?isArchived=true,false`)).body;
    for (const item of items) {
      const count = company.employees.filter(
        (e) => expected.employeeStatus(e.id) === "active" && expected.applicableJobPosition(e.id)?.businessEstablishmentId === String(item.id),
      ).length;
      expect(item.usersCount).toBe(count);
    }
    expect(items.reduce((sum: number, i: any) => sum + i.usersCount, 0)).toBeGreaterThan(0);
  });

  test("isArchived=true answers only archived establishments", async () => {
    const res = await api.get(`${BASE}?isArchived=true`);
    expect(res.body.items.length).toBeGreaterThan(0);
    expect(res.body.items.every((e: any) => e.isArchived)).toBe(true);
  });

  test("isArchived=true,false answers both", async () => {
    const res = await api.get(`${BASE}?isArchived=true,false`);
    expect(ids(res.body.items)).toEqual(company.businessEstablishments.map((b) => Number(b.id)));
  });

  test("isArchived=false is the default", async () => {
    expect(ids((await api.get(`${BASE}?isArchived=false`)).body.items)).toEqual(unarchived());
  });

  test("id filters by a list of ids", async () => {
    expect(ids((await api.get(`${BASE}?id=3,1`)).body.items)).toEqual([1, 3]);
  });

  test("legalUnitId filters by legal entity", async () => {
    const res = await api.get(`${BASE}?legalUnitId=2,3`);
    const want = company.businessEstablishments.filter((b) => !b.isArchived && ["2", "3"].includes(b.legalEntityId)).map((b) => Number(b.id));
    expect(want.length).toBeGreaterThan(0);
    expect(ids(res.body.items)).toEqual(want);
  });

  test("search matches names whose words start with every word of the query", async () => {
    const b = company.businessEstablishments.find((x) => !x.isArchived && x.name.split(/\s+/).length > 1)!;
    const words = b.name.split(/\s+/);
    const query = `${words[1]!.slice(0, 2)} ${words[0]!.slice(0, 3)}`.toLowerCase();
    const res = await api.get(`${BASE}?search=${encodeURIComponent(query)}`);
    expect(ids(res.body.items)).toContain(Number(b.id));
    expect((await api.get(`${BASE}?search=zzzz`)).body.items).toEqual([]);
  });

  test("search ignores case and accents, as the current API's does", async () => {
    const b = company.businessEstablishments.find((x) => !x.isArchived && /é/.test(x.name))!;
    const word = b.name.split(/[\s\-_,.()]+/).find((w) => w.includes("é"))!;
    const plain = word.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase();
    const res = await api.get(`${BASE}?search=${encodeURIComponent(plain)}`);
    expect(ids(res.body.items)).toContain(Number(b.id));
  });

  test("fields.root=count adds count and the prev and next cursors", async () => {
    const res = await api.get(`${BASE}?limit=3&fields.root=count`);
    expect(res.body).toMatchObject({ prev: null, next: expect.any(String), count: unarchived().length });
    expect(ids(res.body.items)).toEqual(unarchived().slice(0, 3));
  });

  test("following next visits every establishment once and ends with a null next", async () => {
    const seen: number[] = [];
    let page: string | null = null;
    let pages = 0;
    do {
      const res: any = await api.get(`${BASE}?limit=3&fields.root=count${page ? `&page=${page}` : ""}`);
      seen.push(...ids(res.body.items));
      page = res.body.next;
      pages++;
    } while (page !== null && pages < 10);
    expect(seen).toEqual(unarchived());
    expect(pages).toBe(Math.ceil(unarchived().length / 3));
  });

  test("prev of the second page leads back to the first", async () => {
    const first = (await api.get(`${BASE}?limit=3&fields.root=count`)).body;
    const second = (await api.get(`${BASE}?limit=3&fields.root=count&page=${first.next}`)).body;
    expect(second.prev).not.toBeNull();
    const back = (await api.get(`${BASE}?limit=3&fields.root=count&page=${second.prev}`)).body;
    expect(ids(back.items)).toEqual(ids(first.items));
  });

  test("a page index counts pages from 1, like the cursor of the same page", async () => {
    const byIndex = (await api.get(`${BASE}?limit=3&page=2`)).body;
    const first = (await api.get(`${BASE}?limit=3&fields.root=count`)).body;
    const byCursor = (await api.get(`${BASE}?limit=3&page=${first.next}`)).body;
    expect(ids(byIndex.items)).toEqual(unarchived().slice(3, 6));
    expect(ids(byCursor.items)).toEqual(ids(byIndex.items));
  });

  test("limit 0 answers no items and no cursors", async () => {
    const res = await api.get(`${BASE}?limit=0&fields.root=count`);
    expect(res.body).toEqual({ items: [], prev: null, next: null, count: unarchived().length });
  });

  test.each([
    ["a limit above 100", "limit=101"],
    ["page 0", "page=0"],
    ["a cursor that is not one", "page=bm90LWEtY3Vyc29y"],
    ["isArchived that is no boolean", "isArchived=maybe"],
    ["isArchived with three values", "isArchived=true,false,true"],
    ["an id below 1", "id=0"],
    ["a legalUnitId that is no integer", "legalUnitId=x"],
    ["fields.root other than count", "fields.root=all"],
    ["an unknown parameter", "name=Paris"],
  ])("%s is a 400", async (_name, query) => {
    const res = await api.get(`${BASE}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.any(String) });
  });
});
