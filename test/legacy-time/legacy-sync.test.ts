import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TODAY, startStack, type Stack } from "../helpers/stack.js";
import { LEGACY_AUTH, OPEN_WEEK, employees, entitiesQuery, legacyGet } from "./helpers.js";

/**
 * What a sync client needs from the graph: the root list of legacy users with the legacy list's
 * filters (former employees only when asked), and time entries by modification date without the
 * theoretical working time unless asked for.
 */

let stack: Stack;
let url: string;

beforeAll(async () => {
  stack = await startStack({ subgraphs: ["legacy-time"] });
  url = stack.subgraphs["legacy-time"]!.url;
});
afterAll(() => stack?.close());

const USERS = `query($filter: LegacyUserFilter, $first: Int, $after: String) {
  legacyUsers(filter: $filter, first: $first, after: $after) {
    nodes { id login mail contractEndsAt employee { id } }
    pageInfo { hasNextPage endCursor }
  }
}`;


describe("legacyUsers", () => {
  it("pages every current user by id in one call a page; former employees only when asked", async () => {
    const rest = (await legacyGet(stack, "/api/v3/users?fields=id,dtContractEnd&formerEmployees=true")).data.items as any[];
    const former = new Set(rest.filter((u) => u.dtContractEnd !== null && u.dtContractEnd.slice(0, 10) < TODAY).map((u) => String(u.id)));
    expect(former.size).toBeGreaterThan(0);

    stack.resetStats();
    const page = await stack.gql(url, USERS, { first: 100 });
    expect(page.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/users": 1 });
    const ids = page.data.legacyUsers.nodes.map((n: any) => n.id);
    expect(ids).toHaveLength(100);
    expect(ids.filter((id: string) => former.has(id))).toEqual([]);
    expect(page.data.legacyUsers.nodes[0]).toMatchObject({ employee: { id: ids[0] }, login: expect.any(String), mail: expect.any(String) });
    expect(page.data.legacyUsers.pageInfo.hasNextPage).toBe(true);

    const next = await stack.gql(url, USERS, { first: 100, after: page.data.legacyUsers.pageInfo.endCursor });
    expect(Number(next.data.legacyUsers.nodes[0].id)).toBeGreaterThan(Number(ids[99]));

    const all: string[] = [];
    let after: string | null = null;
    for (;;) {
      const res: any = await stack.gql(url, USERS, { first: 100, after, filter: { includeFormerEmployees: true } });
      all.push(...res.data.legacyUsers.nodes.map((n: any) => n.id));
      if (!res.data.legacyUsers.pageInfo.hasNextPage) break;
      after = res.data.legacyUsers.pageInfo.endCursor;
    }
    expect(all).toHaveLength(rest.length);
    expect([...former].every((id) => all.includes(id))).toBe(true);
  });

  it("filters by mail, login, contract dates and modification date as the legacy list does", async () => {
    const someone = (await legacyGet(stack, "/api/v3/users?id=12&fields=login,mail,dtContractStart,modifiedAt")).data.items[0];
    const byLogin = await stack.gql(url, USERS, { filter: { login: someone.login } });
    expect(byLogin.data.legacyUsers.nodes.map((n: any) => n.id)).toEqual(["12"]);
    const byMail = await stack.gql(url, USERS, { filter: { mailContains: someone.mail.slice(1, 6).toUpperCase() } });
    expect(byMail.data.legacyUsers.nodes.map((n: any) => n.id)).toContain("12");
    const day = someone.dtContractStart.slice(0, 10);
    const byStart = await stack.gql(url, USERS, { first: 100, filter: { contractStart: { from: day, to: day }, includeFormerEmployees: true } });
    expect(byStart.data.legacyUsers.nodes.map((n: any) => n.id)).toContain("12");
    const later = await stack.gql(url, USERS, { first: 100, filter: { modifiedSince: someone.modifiedAt, ids: ["12"] } });
    expect(later.data.legacyUsers.nodes.map((n: any) => n.id)).toEqual(["12"]);
  });

  it.each([
    ["a from after the to", { contractStart: { from: "2026-02-01", to: "2026-01-01" } }],
    ["an empty login", { login: " " }],
    ["mail and mailContains together", { mail: "a@b.c", mailContains: "a" }],
    ["more than 100 ids", { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) }],
    ["a contractEnd from after the to", { contractEnd: { from: "2026-02-01", to: "2026-01-01" } }],
    ["an exact mail written as the legacy partial match", { mail: "like,a" }],
    ["a mailContains over 255 characters", { mailContains: "a".repeat(256) }],
  ])("%s is BAD_USER_INPUT before any upstream call", async (_name, filter) => {
    stack.resetStats();
    const res = await stack.gql(url, USERS, { filter });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(stack.stats().total).toBe(0);
  });

  it("ids that cannot be legacy ids are BAD_USER_INPUT before any upstream call (the input checks' legacy id rule)", async () => {
    stack.resetStats();
    const res = await stack.gql(url, USERS, { filter: { ids: ["abc"] } });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toContain("must be a legacy id");
    expect(stack.stats().total).toBe(0);
  });

  it("an empty ids list matches nothing, without an upstream call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, USERS, { filter: { ids: [] } });
    expect(res.data.legacyUsers.nodes).toEqual([]);
    expect(stack.stats().total).toBe(0);
  });

  it("a cursor of another filter, or a forged offset, is BAD_USER_INPUT before any upstream call", async () => {
    const page = await stack.gql(url, USERS, { first: 2 });
    const cursor = page.data.legacyUsers.pageInfo.endCursor;
    stack.resetStats();
    const other = await stack.gql(url, USERS, { first: 2, after: cursor, filter: { includeFormerEmployees: true } });
    expect(other.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const forged = await stack.gql(url, USERS, { first: 2, after: Buffer.from("legacyUsers:5").toString("base64url") });
    expect(forged.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(stack.stats().total).toBe(0);
  });
});

const ENTRIES = `timeEntries(from: $from, to: $to, modifiedSince: $since, includeTheoretical: $theory) { id isTheoretical modifiedAt author { id } modifier { id } endsAt }`;
const ENTRY_VARS = ", $from: Date!, $to: Date!, $since: LocalDateTime, $theory: Boolean";

describe("Employee.timeEntries for a sync", () => {
  it("leaves theoretical entries out by default and shows them when asked", async () => {
    const query = entitiesQuery("Employee", ENTRIES, ENTRY_VARS);
    const plain = await stack.gql(url, query, { r: employees([5]), ...OPEN_WEEK });
    const withTheory = await stack.gql(url, query, { r: employees([5]), ...OPEN_WEEK, theory: true });
    const declared = plain.data._entities[0].timeEntries;
    const every = withTheory.data._entities[0].timeEntries;
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.every((e: any) => e.isTheoretical === false)).toBe(true);
    expect(every.filter((e: any) => e.isTheoretical).length).toBeGreaterThan(0);
    expect(every.length).toBeGreaterThan(declared.length);
  });

  it("modifiedSince returns only what changed since, a write included", async () => {
    const query = entitiesQuery("Employee", ENTRIES, ENTRY_VARS);
    const none = await stack.gql(url, query, { r: employees([6]), ...OPEN_WEEK, since: `${TODAY}T23:59:59` });
    expect(none.data._entities[0].timeEntries).toEqual([]);

    // an entry changed through the legacy API now shows up in an incremental read
    const candidates = (await legacyGet(stack, `/api/v3/timeentries?ownerId=6&layer=notequal,1&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items;
    let target: any = null;
    // the entry sent back as read, shorter: the first one the rules let through (an inactive section locks some)
    for (const entry of candidates) {
      const put = await fetch(`${stack.directory.url}/api/v3/timeentries/${entry.id}`, {
        method: "PUT",
        headers: { ...LEGACY_AUTH, "content-type": "application/json" },
        body: JSON.stringify({ ...entry, duration: "01:00:00" }),
      });
      if (put.status === 200) {
        target = entry;
        break;
      }
    }
    expect(target).not.toBeNull();
    const after = await stack.gql(url, query, { r: employees([6]), ...OPEN_WEEK, since: `${TODAY}T00:00:00` });
    expect(after.data._entities[0].timeEntries.map((e: any) => e.id)).toContain(String(target.id));
    const changed = after.data._entities[0].timeEntries.find((e: any) => e.id === String(target.id));
    expect(changed.modifier).toEqual({ id: "1" });
  });
});
