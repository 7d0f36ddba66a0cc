import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describe, expect, test } from "vitest";
import { AUTH, TODAY, addDays, useLegacy } from "./legacy-helpers.js";
import * as S from "../../contract/legacy-shapes.js";

/**
 * The legacy API against its reference: every route, the parameters real sync clients send, the
 * documented defaults, the documented field types (shapes in contract/legacy-shapes.ts), and
 * read-modify-write. Each `test` is one check.
 */

const api = useLegacy();

async function ok(path: string): Promise<any> {
  const res = await api.get(path);
  if (res.status !== 200) throw new globalThis.Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The first few mismatches of a value, as `path: message` lines (empty when it conforms). */
function mismatches(schema: TSchema, value: unknown, max = 5): string[] {
  const out: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    out.push(`${error.path || "/"}: ${error.message}`);
    if (out.length >= max) break;
  }
  return out;
}

function conforms(schema: TSchema, value: unknown): void {
  expect(mismatches(schema, value)).toEqual([]);
}

const TE = "/api/v3/timeentries";
const SINCE = `${addDays(TODAY, -10)}T08:00:00`;
const SYNC = `${TE}?layer=notequal,1&modifiedAt=since,${SINCE}&orderby=id,asc&paging=0,1000`;

describe("time entries", () => {
  test("the sync client's request answers entries of the reference's shape", async () => {
    conforms(S.countedList(S.TimeEntry), await ok(SYNC));
  });

  test("layer=notequal,1 leaves theoretical entries out", async () => {
    const { items } = (await ok(SYNC)).data;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e: any) => e.layer !== 1)).toBe(true);
  });

  test("theoretical entries (layer 1) exist and are listed by default", async () => {
    const all = (await ok(`${TE}?ownerId=5&paging=0,10000`)).data.items;
    expect(all.some((e: any) => e.layer === 1)).toBe(true);
    expect(all.some((e: any) => e.layer === 0)).toBe(true);
    const theoretical = (await ok(`${TE}?ownerId=5&layer=1&paging=0,10000`)).data.items;
    expect(theoretical.length).toBe(all.filter((e: any) => e.layer === 1).length);
  });

  test("modifiedAt=since keeps the entries modified at or after the moment", async () => {
    const { items } = (await ok(SYNC)).data;
    expect(items.every((e: any) => e.modifiedAt >= SINCE)).toBe(true);
    const before = (await ok(`${TE}?ownerId=5&layer=notequal,1&paging=0,10000`)).data.items;
    expect(before.some((e: any) => e.modifiedAt < SINCE)).toBe(true);
  });

  test("orderby=id,asc orders by id", async () => {
    const ids = (await ok(SYNC)).data.items.map((e: any) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  test("orderby=id,desc orders by id downwards", async () => {
    const ids = (await ok(`${TE}?ownerId=5,6&orderby=id,desc&paging=0,1000`)).data.items.map((e: any) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  test("orderBy (another case) is the same parameter", async () => {
    const a = (await ok(`${TE}?ownerId=5&orderBy=modifiedAt,desc&paging=0,50`)).data.items.map((e: any) => e.modifiedAt);
    expect(a).toEqual([...a].sort().reverse());
  });

  test("without ownerId every owner's entries are listed", async () => {
    const { items, count } = (await ok(`${TE}?layer=notequal,1&startsAt=between,${TODAY},${TODAY}&paging=0,10000`)).data;
    expect(new Set(items.map((e: any) => e.ownerId)).size).toBeGreaterThan(50);
    expect(count).toBe(items.length);
  });

  test("owner.legalEntityId keeps the entries of that legal entity's people", async () => {
    const { items } = (await ok(`${TE}?owner.legalEntityId=2&startsAt=between,${TODAY},${TODAY}&paging=0,10000`)).data;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e: any) => e.owner.legalEntityId === 2)).toBe(true);
  });

  test("paging up to 10 000 items a request is accepted", async () => {
    const { items, count } = (await ok(`${TE}?layer=notequal,1&paging=0,10000`)).data;
    expect(items.length).toBe(Math.min(10_000, count));
  });

  test("paging beyond 10 000 items is a 400", async () => {
    const res = await api.get(`${TE}?paging=0,10001`);
    expect(res.status).toBe(400);
    conforms(S.Error, res.body);
  });

  test("paging=<offset>,<limit> takes a slice; count stays the total", async () => {
    const whole = (await ok(`${TE}?ownerId=7&paging=0,1000`)).data;
    const page = (await ok(`${TE}?ownerId=7&paging=20,10`)).data;
    expect(page.count).toBe(whole.count);
    expect(page.items.map((e: any) => e.id)).toEqual(whole.items.slice(20, 30).map((e: any) => e.id));
  });

  test("fields selects the item fields", async () => {
    const { items } = (await ok(`${TE}?ownerId=5&fields=id,startsAt,modifiedAt&paging=0,5`)).data;
    expect(items.map((e: any) => Object.keys(e).sort())).toEqual(items.map(() => ["id", "modifiedAt", "startsAt"]));
  });

  test("fields=collection.count answers the count alone", async () => {
    const body = await ok(`${TE}?ownerId=5&fields=collection.count`);
    expect(body).toEqual({ data: { count: expect.any(Number) } });
    expect(body.data.count).toBe((await ok(`${TE}?ownerId=5&paging=0,10000`)).data.count);
  });

  test("fields takes nested selections", async () => {
    const { items } = (await ok(`${TE}?ownerId=5&fields=id,owner[id,mail],collection.count&paging=0,3`)).data;
    expect(items[0]).toEqual({ id: expect.any(Number), owner: { id: 5, mail: expect.any(String) } });
  });

  test.each([
    ["since", `since,${addDays(TODAY, -2)}`, (s: string) => s >= addDays(TODAY, -2)],
    ["until", `until,${addDays(TODAY, -70)}`, (s: string) => s <= `${addDays(TODAY, -70)}T23:59:59`],
    ["between", `between,${addDays(TODAY, -7)},${addDays(TODAY, -6)}`, (s: string) => s >= addDays(TODAY, -7) && s <= `${addDays(TODAY, -6)}T23:59:59`],
    ["a day", addDays(TODAY, -3), (s: string) => s.startsWith(addDays(TODAY, -3))],
  ])("startsAt=%s filters by the start", async (_name, value, keep) => {
    const { items } = (await ok(`${TE}?ownerId=5,6&startsAt=${value}&paging=0,1000`)).data;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e: any) => keep(e.startsAt))).toBe(true);
  });

  test("an entry's endsAt is its start plus its duration", async () => {
    const { items } = (await ok(`${TE}?ownerId=5&paging=0,200`)).data;
    for (const e of items) {
      const [h, m, s] = e.duration.startsWith("1.") ? [24, 0, 0] : e.duration.split(":").map(Number);
      const end = new Date(Date.parse(`${e.startsAt}Z`) + ((h * 60 + m) * 60 + s) * 1000).toISOString().slice(0, 19);
      expect(e.endsAt).toBe(end);
    }
  });

  test("a single read answers the reference's shape", async () => {
    const first = (await ok(`${TE}?ownerId=5&paging=0,1`)).data.items[0];
    conforms(S.single(S.TimeEntry), await ok(`${TE}/${first.id}`));
  });

  test("an entry sent back as read is accepted (read-only fields ignored), and moves modifiedAt and the modifier", async () => {
    const open = (await ok(`${TE}?ownerId=9,10,11,12&layer=0&startsAt=between,${TODAY},${TODAY}&paging=0,100`)).data.items;
    let written: any = null;
    for (const e of open) {
      const res = await api.put(`${TE}/${e.id}`, e);
      if (res.status === 200) {
        written = { before: e, after: res.body.data };
        break;
      }
      // rules may refuse an entry as it is (an inactive axis section); never a read-only field
      expect(res.body.message).not.toMatch(/read-only|Unknown field/);
    }
    expect(written).not.toBeNull();
    conforms(S.TimeEntry, written.after);
    expect(written.after.modifiedAt > written.before.modifiedAt).toBe(true);
    // theoretical entries (layer 1) of days still to come carry their own later modifiedAt
    const since = (await ok(`${TE}?ownerId=${written.before.ownerId}&layer=0&modifiedAt=since,${written.after.modifiedAt}`)).data.items;
    expect(since.map((e: any) => e.id)).toEqual([written.before.id]);
  });

  test("the timesheets list answers the reference's shape", async () => {
    const body = await ok("/api/v3/timmitimesheets?ownerId=5,6");
    conforms(S.countedList(S.Timesheet), body);
    const ids = new Set(body.data.items.map((t: any) => t.id));
    const entries = (await ok(`${TE}?ownerId=5,6&layer=0&paging=0,10000`)).data.items;
    expect(entries.every((e: any) => ids.has(e.timesheetId))).toBe(true);
  });
});

const USERS = "/api/v3/users";

describe("users", () => {
  test("the list without id answers users of the reference's shape", async () => {
    conforms(S.list(S.User), await ok(`${USERS}?fields=${S.USER_FIELDS.join(",")}`));
  });

  test("a single read answers the reference's shape", async () => {
    conforms(S.single(S.User), await ok(`${USERS}/12?fields=${S.USER_FIELDS.join(",")}`));
  });

  test("former employees are left out by default", async () => {
    const items = (await ok(`${USERS}?fields=id,dtContractEnd`)).data.items;
    expect(items.every((u: any) => u.dtContractEnd === null || u.dtContractEnd.slice(0, 10) >= TODAY)).toBe(true);
  });

  test("formerEmployees=true includes them", async () => {
    const items = (await ok(`${USERS}?fields=id,dtContractEnd&formerEmployees=true`)).data.items;
    expect(items.some((u: any) => u.dtContractEnd !== null && u.dtContractEnd.slice(0, 10) < TODAY)).toBe(true);
    expect(items).toHaveLength(300);
  });

  test("dtContractEnd=notequal,null lists those with an end, former ones included", async () => {
    const items = (await ok(`${USERS}?fields=id,dtContractEnd&dtContractEnd=notequal,null`)).data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((u: any) => u.dtContractEnd !== null)).toBe(true);
    expect(items.some((u: any) => u.dtContractEnd.slice(0, 10) < TODAY)).toBe(true);
  });

  test("dtContractStart=since,<date> filters on the contract start", async () => {
    const since = addDays(TODAY, -365);
    const items = (await ok(`${USERS}?fields=id,dtContractStart&dtContractStart=since,${since}`)).data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((u: any) => u.dtContractStart >= since)).toBe(true);
  });

  test("modifiedAt=since,<date-time> keeps the users modified since", async () => {
    const all = (await ok(`${USERS}?fields=id,modifiedAt&formerEmployees=true`)).data.items;
    const pivot = all.map((u: any) => u.modifiedAt).sort()[Math.floor(all.length / 2)];
    const items = (await ok(`${USERS}?fields=id,modifiedAt&formerEmployees=true&modifiedAt=since,${pivot}`)).data.items;
    expect(items.length).toBe(all.filter((u: any) => u.modifiedAt >= pivot).length);
  });

  test("mail is a strict equality, like,<text> a partial match", async () => {
    const someone = (await ok(`${USERS}/12?fields=mail`)).data;
    expect((await ok(`${USERS}?mail=${encodeURIComponent(someone.mail)}`)).data.items.map((u: any) => u.id)).toEqual([12]);
    const part = someone.mail.slice(0, 4);
    const items = (await ok(`${USERS}?fields=id,mail&mail=like,${encodeURIComponent(part)}`)).data.items;
    expect(items.map((u: any) => u.id)).toContain(12);
    expect(items.every((u: any) => u.mail.toLowerCase().includes(part.toLowerCase()))).toBe(true);
  });

  test("login is a strict equality", async () => {
    const { login } = (await ok(`${USERS}/12?fields=login`)).data;
    expect((await ok(`${USERS}?login=${encodeURIComponent(login)}`)).data.items.map((u: any) => u.id)).toEqual([12]);
  });

  test("paging=<offset>,<limit> takes a slice", async () => {
    const all = (await ok(USERS)).data.items;
    expect((await ok(`${USERS}?paging=10,5`)).data.items).toEqual(all.slice(10, 15));
  });

  test("paging beyond 1000 items is a 400", async () => {
    expect((await api.get(`${USERS}?paging=0,1001`)).status).toBe(400);
  });

  test("orderBy=lastName,asc orders by last name", async () => {
    const names = (await ok(`${USERS}?fields=lastName&orderBy=lastName,asc`)).data.items.map((u: any) => u.lastName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test("fields takes nested selections (manager[id,name])", async () => {
    const items = (await ok(`${USERS}?fields=id,manager[id,name]`)).data.items;
    const managed = items.find((u: any) => u.manager !== null);
    expect(managed.manager).toEqual({ id: expect.any(Number), name: expect.any(String) });
  });

  test("mail is a string for every user", async () => {
    const items = (await ok(`${USERS}?fields=mail&formerEmployees=true`)).data.items;
    expect(items.every((u: any) => typeof u.mail === "string")).toBe(true);
  });

  test("every demo user read whole and written back unchanged is accepted: 0 refusals", async () => {
    const items = (await ok(`${USERS}?fields=${S.USER_FIELDS.join(",")}&formerEmployees=true`)).data.items;
    const refused: string[] = [];
    for (const user of items) {
      const res = await api.put(`${USERS}/${user.id}?fields=${S.USER_FIELDS.join(",")}`, user);
      if (res.status !== 200) refused.push(`${user.id}: ${res.body.message}`);
    }
    expect(refused).toEqual([]);
    expect(items).toHaveLength(300);
  });
});

describe("departments", () => {
  test("past their sunset (September 2026) every route answers 410 with the legacy error body", async () => {
    for (const path of ["/api/v3/departments", "/api/v3/departments/2", "/api/v3/departments/tree"]) {
      const res = await api.get(path);
      expect(res.status, path).toBe(410);
      conforms(S.Error, res.body);
    }
  });
});

describe("axis sections", () => {
  test("/api/v3/axissections (the reference guide's spelling) answers sections of the reference's shape", async () => {
    conforms(S.list(S.AxisSection), await ok("/api/v3/axissections"));
  });

  test("parentAxisSections.id keeps the children of any of the given sections", async () => {
    const items = (await ok("/api/v3/axissections?parentAxisSections.id=1,2")).data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((s: any) => [1, 2].includes(s.parentAxisSections[0]?.id))).toBe(true);
  });

  test("parentAxisSections.id=containsall,… keeps the sections with all of them as parents", async () => {
    const one = (await ok("/api/v3/axissections?parentAxisSections.id=containsall,1")).data.items;
    expect(one.length).toBeGreaterThan(0);
    expect((await ok("/api/v3/axissections?parentAxisSections.id=containsall,1,2")).data.items).toEqual([]);
  });

  test("a section sent back as read is accepted (read-only fields ignored, the string name read)", async () => {
    const section = (await ok("/api/v3/axissections/30")).data;
    const res = await api.put("/api/v3/axisSections/30", section);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(section);
  });
});

const EST = "/organization/structure/api/establishments";

describe("establishments", () => {
  test("items carry their legal unit, of the reference's shape", async () => {
    conforms(S.items(S.Establishment), await ok(EST));
  });

  test.each(["prev,next,count", "count", "prev", "next"])("fields.root=%s is accepted and adds the cursors and count", async (value) => {
    const body = await ok(`${EST}?fields.root=${value}&limit=2`);
    expect(body).toMatchObject({ prev: null, next: expect.any(String), count: expect.any(Number) });
  });

  test("fields.root with another value is a 400", async () => {
    expect((await api.get(`${EST}?fields.root=total`)).status).toBe(400);
  });
});

describe("work contracts", () => {
  test("the list answers work contracts of the interface's shape", async () => {
    const body = await ok("/directory/api/4.0/work-contracts?fields.root=count&limit=50");
    conforms(S.items(S.WorkContract), body);
    expect(body.count).toBeGreaterThan(50);
  });

  test("a single read answers the interface's shape", async () => {
    conforms(S.WorkContract, await ok("/directory/api/4.0/work-contracts/1"));
  });

  test.each([
    ["hiring-types", "hiringTypeId"],
    ["termination-reasons", "terminationReasonId"],
    ["temporary-contract-grounds", "temporaryContractGroundId"],
  ])("the reference list work-contract-%s answers {items: [{id, name}]} holding every %s the contracts name", async (list, field) => {
    const body = await ok(`/directory/api/work-contract-${list}`);
    conforms(S.items(S.NamedItem), body);
    const ids = new Set(body.items.map((item: { id: number }) => item.id));
    const named = ((await ok("/directory/api/4.0/work-contracts?limit=1000")).items as any[]).map((c) => c[field]).filter((id) => id !== null);
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((id) => ids.has(id))).toBe(true);
    expect((await api.get(`/directory/api/work-contract-${list}?page=2`)).status).toBe(400);
  });
});

describe("every route", () => {
  const routes = [
    `${USERS}`,
    `${USERS}/1`,
    "/directory/api/4.0/work-contracts",
    "/directory/api/4.0/work-contracts/1",
    "/directory/api/work-contract-hiring-types",
    EST,
    `${TE}?ownerId=5`,
    "/api/v3/timmitimesheets?ownerId=5",
    "/api/v3/axisSections",
    "/api/v3/axisSections/1",
  ];

  test.each(routes)("%s matches its path whatever its case", async (path) => {
    const [route, query] = path.split("?");
    const shouted = route!.toUpperCase() + (query ? `?${query}` : "");
    expect((await api.get(shouted)).status).toBe(200);
  });

  test.each(routes)("%s refuses a request without the API key", async (path) => {
    const res = await api.get(path, {});
    expect(res.status).toBe(401);
    conforms(S.Error, res.body);
  });

  test.each(routes)("%s accepts the API key header", async (path) => {
    expect((await api.get(path, AUTH)).status).toBe(200);
  });
});


describe("bad parameters are a 400 naming the parameter, with the legacy error body", () => {
  test.each([
    [`${TE}?orderby=colour,asc`, "orderby"],
    [`${TE}?orderby=id,sideways`, "orderby"],
    [`${TE}?fields=id,owner[id`, "fields"],
    [`${TE}?fields=collection.total`, "collection"],
    [`${TE}?layer=notequal,one`, "layer"],
    [`${TE}?modifiedAt=after,2026-06-01`, "modifiedAt"],
    [`${TE}?modifiedAt=since,2026-06-01T08:00:00Z`, "modifiedAt"],
    [`${TE}?owner.legalEntityId=0`, "owner.legalEntityId"],
    [`${USERS}?formerEmployees=maybe`, "formerEmployees"],
    [`${USERS}?dtContractEnd=between,2026-01-01`, "dtContractEnd"],
    [`${USERS}?mail=like,`, "mail"],
    [`${USERS}?orderBy=salary,asc`, "orderby"],
    [`${USERS}?fields=id,manager[id,,name]`, "fields"],
    [`${USERS}?fields=id,shoeSize`, "shoeSize"],
    ["/api/v3/axissections?parentAxisSections.id=containsall,", "parentAxisSections.id"],
    ["/api/v3/timmitimesheets?status=open", "status"],
  ])("%s is a 400 whose message names %s", async (path, named) => {
    const res = await api.get(path);
    expect(res.status).toBe(400);
    conforms(S.Error, res.body);
    expect(res.body.message).toContain(named);
  });
});

describe("time entries by id", () => {
  test("id lists the named entries, whoever owns them", async () => {
    const a = (await ok(`${TE}?ownerId=5&paging=0,2`)).data.items;
    const b = (await ok(`${TE}?ownerId=8&paging=0,1`)).data.items;
    const ids = [...a, ...b].map((e: any) => e.id);
    const { items } = (await ok(`${TE}?id=${ids.join(",")}&orderby=id,asc`)).data;
    expect(items.map((e: any) => e.id)).toEqual([...ids].sort((x, y) => x - y));
  });
});
