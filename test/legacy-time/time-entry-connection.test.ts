import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { OPEN_WEEK, employees, entitiesQuery, legacyGet, range } from "./helpers.js";

/**
 * Time entries as connections: the root `timeEntries(filter: {ownerIds, …})` and
 * `Employee.timeEntryConnection`, compared with direct reads of the legacy list, with their
 * upstream calls counted; and the list `Employee.timeEntries`, whose 93-day cap gave way to a
 * bound on the entries it reads.
 */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});

const ENTRIES = `query($filter: TimeEntryFilter!, $first: Int, $after: String) {
  timeEntries(filter: $filter, first: $first, after: $after) {
    totalCount
    nodes { id startsAt isTheoretical owner { id } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;

const OWNERS = range(1, 100).map(String);

/** Every entry of the REST list for `params` (ownerId included), in its order. */
async function restEntries(params: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 10_000) {
    const body = await legacyGet(stack, `/api/v3/timeentries?${params}&paging=${offset},10000`);
    out.push(...body.data.items);
    if (out.length >= body.data.count) return out;
  }
}

describe("timeEntries", () => {
  it("walks more than 10 000 entries of many employees without gaps or duplicates, one call a page", async () => {
    // the fewest employees, in id order, whose entries pass the 10 000 one REST call returns at
    // most by a page: each one more would only add pages, of a list the directory reads whole for each
    const everything = await restEntries(`ownerId=${OWNERS.join(",")}&fields=ownerId`);
    const owners: string[] = [];
    for (let n = 0; n <= 10_100 && owners.length < OWNERS.length; ) {
      const id = OWNERS[owners.length]!;
      owners.push(id);
      n += everything.filter((e) => String(e.ownerId) === id).length;
    }
    const rest = await restEntries(`ownerId=${owners.join(",")}`);
    expect(rest.length).toBeGreaterThan(10_100);
    const ids: string[] = [];
    let after: string | null = null;
    for (let n = 0; n < 200; n++) {
      stack.resetStats();
      const res: any = await stack.gql(url, ENTRIES, { filter: { ownerIds: owners, includeTheoretical: true }, first: 100, after });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": 1 });
      const connection = res.data.timeEntries;
      expect(connection.totalCount).toBe(rest.length);
      ids.push(...connection.nodes.map((node: any) => node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(ids).toEqual(rest.map((e) => String(e.id)));
  });

  it("answers each filter as the REST list does: whole days, local date-times, modifiedSince, theoretical time", async () => {
    const owners = ["3", "4", "5"];
    const base = `ownerId=${owners.join(",")}`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ startsOn: OPEN_WEEK }, `${base}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}&layer=notequal,1`],
      [{ startsOn: OPEN_WEEK, includeTheoretical: true }, `${base}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`],
      [{ startsAt: { from: "2026-06-09T12:00:00", to: "2026-06-11T09:30:00" } }, `${base}&startsAt=between,2026-06-09T12:00:00,2026-06-11T09:30:00&layer=notequal,1`],
      [{ startsAt: { from: "2026-06-12T00:00:00" } }, `${base}&startsAt=since,2026-06-12T00:00:00&layer=notequal,1`],
      [{ startsOn: { to: "2026-04-01" } }, `${base}&startsAt=until,2026-04-01&layer=notequal,1`],
      [{ modifiedSince: "2026-06-01T00:00:00" }, `${base}&modifiedAt=since,2026-06-01T00:00:00&layer=notequal,1`],
    ];
    for (const [filter, params] of cases) {
      const rest = await restEntries(params);
      expect(rest.length).toBeGreaterThan(0);
      for (const first of [10, 100]) {
        stack.resetStats();
        const res = await stack.gql(url, ENTRIES, { filter: { ownerIds: owners, ...filter }, first });
        expect(res.errors).toBeUndefined();
        expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": 1 });
        expect(res.data.timeEntries.totalCount).toBe(rest.length);
        expect(res.data.timeEntries.nodes.map((n: any) => n.id)).toEqual(rest.slice(0, first).map((e) => String(e.id)));
        expect(res.data.timeEntries.pageInfo.hasNextPage).toBe(rest.length > first);
      }
    }
  });

  it.each([
    ["an empty owner list", { ownerIds: [] }, /ownerIds/],
    ["101 owners", { ownerIds: range(1, 101).map(String) }, /at most 100/],
    ["an owner id that is not an integer", { ownerIds: ["1", "e-12"] }, /ownerIds/],
    ["a reversed day range", { ownerIds: ["1"], startsOn: { from: "2026-06-14", to: "2026-06-08" } }, /startsOn/],
    ["a reversed date-time range", { ownerIds: ["1"], startsAt: { from: "2026-06-14T10:00:00", to: "2026-06-14T09:00:00" } }, /startsAt/],
    ["a date-time with an offset", { ownerIds: ["1"], startsAt: { from: "2026-06-14T10:00:00+02:00" } }, /without offset/],
    ["a date-time in UTC", { ownerIds: ["1"], modifiedSince: "2026-06-14T10:00:00Z" }, /modifiedSince/],
    ["a date-time on no calendar day", { ownerIds: ["1"], startsAt: { to: "2026-02-30T08:00:00" } }, /2026-02-30/],
    ["a date on no calendar day", { ownerIds: ["1"], startsOn: { from: "2026-02-30" } }, /2026-02-30/],
    ["days and date-times together", { ownerIds: ["1"], startsOn: OPEN_WEEK, startsAt: { from: "2026-06-09T00:00:00" } }, /together/],
  ])("refuses %s as BAD_USER_INPUT before any call", async (_name, filter, message) => {
    stack.resetStats();
    const res = await stack.gql(url, ENTRIES, { filter, first: 10 });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toMatch(message);
    expect(stack.stats().total).toBe(0);
  });

  it("refuses a cursor of other owners or a forged one before any call", async () => {
    const page = await stack.gql(url, ENTRIES, { filter: { ownerIds: ["1"] }, first: 5 });
    for (const after of [page.data.timeEntries.pageInfo.endCursor, `${page.data.timeEntries.pageInfo.endCursor.split(".")[0]}.x`]) {
      stack.resetStats();
      const res = await stack.gql(url, ENTRIES, { filter: { ownerIds: ["2"] }, first: 5, after });
      expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(stack.stats().total).toBe(0);
    }
  });
});

const CONNECTION = `timeEntryConnection(filter: $filter, first: $first) { totalCount nodes { id } pageInfo { hasNextPage endCursor } }`;
const CONNECTION_VARS = ", $filter: EmployeeTimeEntryFilter, $first: Int";

describe("Employee.timeEntryConnection", () => {
  it("of 100 employees costs the calls of their shared read (one per 100 employees and 1000 entries), the same at first: 10 and first: 100", async () => {
    const filter = { startsOn: OPEN_WEEK };
    const params = `startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}&layer=notequal,1`;
    const all = await restEntries(`ownerId=${OWNERS.join(",")}&${params}`);
    const expectedCalls = Math.max(1, Math.ceil(all.length / 1000));
    const query = entitiesQuery("Employee", CONNECTION, CONNECTION_VARS);
    for (const first of [10, 100]) {
      stack.resetStats();
      const res = await stack.gql(url, query, { r: employees(OWNERS), filter, first });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": expectedCalls });
      for (const [i, id] of OWNERS.entries()) {
        const own = all.filter((e) => String(e.ownerId) === id);
        const connection = res.data._entities[i].timeEntryConnection;
        expect(connection.totalCount).toBe(own.length);
        expect(connection.nodes.map((n: any) => n.id)).toEqual(own.slice(0, first).map((e) => String(e.id)));
        expect(connection.pageInfo.hasNextPage).toBe(own.length > first);
      }
    }
  });

  it("over every entry of many employees, serves each from the shared first page when it holds more than `first` of theirs and the others' own pages cost less than the pages left", async () => {
    // no range, theoretical time too: all the entries of the people with a long history, many pages
    const everything = await restEntries(`ownerId=${OWNERS.join(",")}`);
    const counts = new Map<string, number>();
    for (const e of everything) counts.set(String(e.ownerId), (counts.get(String(e.ownerId)) ?? 0) + 1);
    const owners = OWNERS.filter((id) => (counts.get(id) ?? 0) >= 100);
    expect(owners.length).toBeGreaterThan(20);
    const all = everything.filter((e) => owners.includes(String(e.ownerId)));
    const firstPage = all.slice(0, 1000);
    const wholeList = Math.ceil(all.length / 1000);
    const query = entitiesQuery("Employee", `timeEntryConnection(first: $first, filter: { includeTheoretical: true }) { nodes { id } pageInfo { hasNextPage endCursor } }`, ", $first: Int");
    const ways: boolean[] = [];
    for (const first of [1, 5, 30]) {
      const short = owners.filter((id) => firstPage.filter((e) => String(e.ownerId) === id).length < first + 1);
      // the cheaper of the pages left (then every list is whole) and a page for each short owner
      const partial = wholeList - 1 > short.length;
      ways.push(partial);
      stack.resetStats();
      const res = await stack.gql(url, query, { r: employees(owners), first });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute, `first: ${first}`).toEqual({ "GET /api/v3/timeentries": partial ? 1 + short.length : wholeList });
      for (const [i, id] of owners.entries()) {
        const own = all.filter((e) => String(e.ownerId) === id);
        const connection = res.data._entities[i].timeEntryConnection;
        expect(connection.nodes.map((n: any) => n.id), id).toEqual(own.slice(0, first).map((e) => String(e.id)));
        expect(connection.pageInfo.hasNextPage, id).toBe(own.length > first);
      }
      // a cursor of a page answered from the shared read resumes in one call, without gap
      const someone = owners.find((id) => !short.includes(id)) ?? owners[0]!;
      const AFTER = entitiesQuery("Employee", "timeEntryConnection(first: 5, after: $after, filter: { includeTheoretical: true }) { nodes { id } }", ", $after: String");
      stack.resetStats();
      const next = await stack.gql(url, AFTER, { r: employees([someone]), after: res.data._entities[owners.indexOf(someone)].timeEntryConnection.pageInfo.endCursor });
      expect(stack.stats().total).toBe(1);
      const own = all.filter((e) => String(e.ownerId) === someone);
      expect(next.data._entities[0].timeEntryConnection.nodes.map((n: any) => n.id)).toEqual(own.slice(first, first + 5).map((e) => String(e.id)));
    }
    // the demo data takes both ways: small pages from the shared start, a larger one from the whole list
    expect(ways).toContain(true);
    expect(ways).toContain(false);
  });

  it("over every entry of 100 employees with their totalCount, reads the whole list at once: a page for each would cost more", async () => {
    const all = await restEntries(`ownerId=${OWNERS.join(",")}&layer=notequal,1`);
    const query = entitiesQuery("Employee", `timeEntryConnection(first: 2) { totalCount nodes { id } }`);
    stack.resetStats();
    const res = await stack.gql(url, query, { r: employees(OWNERS) });
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": Math.ceil(all.length / 1000) });
    for (const [i, id] of OWNERS.entries()) {
      const own = all.filter((e) => String(e.ownerId) === id);
      expect(res.data._entities[i].timeEntryConnection.totalCount, id).toBe(own.length);
      expect(res.data._entities[i].timeEntryConnection.nodes.map((n: any) => n.id), id).toEqual(own.slice(0, 2).map((e) => String(e.id)));
    }
  });

  it("of one employee costs one call a page, and resumes a shared page's cursor without gap", async () => {
    const rest = await restEntries("ownerId=7&layer=notequal,1");
    expect(rest.length).toBeGreaterThan(30);
    const query = entitiesQuery("Employee", CONNECTION, CONNECTION_VARS);
    const shared = await stack.gql(url, query, { r: employees(["7", "8"]), first: 10 });
    expect(shared.errors).toBeUndefined();
    const AFTER = entitiesQuery("Employee", "timeEntryConnection(first: 25, after: $after) { nodes { id } pageInfo { hasNextPage } }", ", $after: String");
    stack.resetStats();
    const next = await stack.gql(url, AFTER, { r: employees(["7"]), after: shared.data._entities[0].timeEntryConnection.pageInfo.endCursor });
    expect(next.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": 1 });
    expect(next.data._entities[0].timeEntryConnection.nodes.map((n: any) => n.id)).toEqual(rest.slice(10, 35).map((e) => String(e.id)));
  });

  it("refuses days and date-times together, and a reversed range, before any call", async () => {
    const query = entitiesQuery("Employee", CONNECTION, CONNECTION_VARS);
    for (const filter of [{ startsOn: OPEN_WEEK, startsAt: { to: "2026-06-09T00:00:00" } }, { startsAt: { from: "2026-06-09T00:00:01", to: "2026-06-09T00:00:00" } }]) {
      stack.resetStats();
      const res = await stack.gql(url, query, { r: employees(["7"]), filter });
      expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(stack.stats().total).toBe(0);
    }
  });
});

const LIST = `timeEntries(from: $from, to: $to, includeTheoretical: $theory) { id }`;
const LIST_VARS = ", $from: Date!, $to: Date!, $theory: Boolean";

describe("Employee.timeEntries, bounded by entries instead of days", () => {
  it("reads a range longer than 93 days", async () => {
    const rest = await restEntries("ownerId=2&startsAt=between,2026-01-01,2026-06-30&layer=notequal,1");
    const res = await stack.gql(url, entitiesQuery("Employee", LIST, LIST_VARS), { r: employees(["2"]), from: "2026-01-01", to: "2026-06-30" });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].timeEntries.map((e: any) => e.id)).toEqual(rest.map((e) => String(e.id)));
  });

  it("refuses a range that holds more than 10 000 entries for the employees asked together, naming the connection, after one call", async () => {
    const count = (await legacyGet(stack, `/api/v3/timeentries?ownerId=${OWNERS.join(",")}&startsAt=between,2026-01-01,2026-06-30&paging=0,0`)).data.count;
    expect(count).toBeGreaterThan(10_000);
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Employee", LIST, LIST_VARS), { r: employees(OWNERS), from: "2026-01-01", to: "2026-06-30", theory: true });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toMatch(/timeEntryConnection/);
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries": 1 });
  });
});

describe("under a GRAPH_PREFIX, whose renamed types the operation's checks do not know", () => {
  const prefixed = useStack({ subgraphs: ["legacy-time"], prefix: "Dir" });

  it.each([
    ["a date-time with an offset", { ownerIds: ["1"], startsAt: { from: "2026-06-14T10:00:00+02:00" } }],
    ["a date-time on no calendar day", { ownerIds: ["1"], modifiedSince: "2026-02-30T10:00:00" }],
    ["a reversed range", { ownerIds: ["1"], startsAt: { from: "2026-06-14T10:00:00", to: "2026-06-14T09:00:00" } }],
    ["an empty owner list", { ownerIds: [] }],
  ])("the resolver still refuses %s before any call", async (_name, filter) => {
    prefixed.resetStats();
    const res = await prefixed.gql(prefixed.subgraphs["legacy-time"]!.url, `query($f: DirTimeEntryFilter!) { dirTimeEntries(filter: $f) { totalCount } }`, { f: filter });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(prefixed.stats().total).toBe(0);
  });
});
