import { GraphQLError } from "graphql";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  arrayConnection,
  childConnectionLoader,
  cursorScope,
  encodeCursor,
  pageSize,
  restConnection,
  type ConnectionArgs,
  type ConnectionResult,
} from "../../subgraphs/shared/graphql/index.js";
import { UpstreamError, type Ref } from "../../subgraphs/shared/upstream/index.js";
import { useUpstreamFixture, type Fixture } from "../upstream/fixture.js";

interface Employee {
  id: string;
}
interface Employment {
  id: string;
  employee: Ref;
}

/** an unsigned cursor, as a client could make one up */
const unsigned = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
/** a cursor this fixture's upstream signed, for `path` and `query` */
const signed = (fx: Fixture, value: object, path = "/employees", query = {}) =>
  encodeCursor(value as never, { signer: fx.upstream.cursors, scope: cursorScope(path, query) });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("restConnection", () => {
  const fx = useUpstreamFixture({ employees: 250 });
  /** every employee id in the list's own order */
  let all: string[];
  const calls = () => fx.stats().byRoute["GET /service-api/employees"] ?? 0;
  const page = (args: ConnectionArgs, totalCount = false, query = {}) =>
    restConnection<Employee>(fx.upstream.session(), "/employees", query, args, { totalCount });
  const ids = (c: ConnectionResult<Employee>) => c.nodes.map((n) => n.id);

  beforeAll(async () => {
    all = (await fx.upstream.session().current.all<Employee>("/employees")).map((e) => e.id);
  });
  afterEach(() => fx.reset());

  it("the first page costs one call and says there is more", async () => {
    fx.reset();
    const c = await page({ first: 10 });
    expect(ids(c)).toEqual(all.slice(0, 10));
    expect(c.edges.map((e) => e.node.id)).toEqual(all.slice(0, 10));
    expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: c.edges[0]!.cursor, endCursor: c.edges[9]!.cursor });
    expect(c.totalCount).toBeNull();
    expect(calls()).toBe(1);
  });

  it("first defaults to 25", async () => {
    expect(ids(await page({}))).toEqual(all.slice(0, 25));
  });

  it("after an edge in the middle of a REST page resumes right behind it in one call", async () => {
    const firstPage = await page({ first: 10 });
    fx.reset();
    const c = await page({ first: 10, after: firstPage.edges[4]!.cursor });
    expect(ids(c)).toEqual(all.slice(5, 15));
    expect(c.pageInfo.hasPreviousPage).toBe(true);
    expect(calls()).toBe(1);
  });

  it("after the last edge of a REST page costs one call, even for a larger first", async () => {
    const firstPage = await page({ first: 5 });
    fx.reset();
    const c = await page({ first: 50, after: firstPage.pageInfo.endCursor });
    expect(ids(c)).toEqual(all.slice(5, 55));
    expect(calls()).toBe(1);
  });

  it("a page that straddles two REST pages of 100 costs two calls", async () => {
    const hundred = await page({ first: 100 });
    fx.reset();
    const c = await page({ first: 20, after: hundred.edges[89]!.cursor });
    expect(ids(c)).toEqual(all.slice(90, 110));
    expect(calls()).toBe(2);
  });

  it("paging through the whole list by endCursor yields every item once, in order, one call per page", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    fx.reset();
    for (;;) {
      const c: ConnectionResult<Employee> = await page({ first: 30, after });
      pages++;
      seen.push(...ids(c));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 30));
    expect(calls()).toBe(pages);
  });

  it("the page that reaches the end of the list has no next page, also when it ends exactly there", async () => {
    const some = all.slice(0, 10);
    const exact = await page({ first: 10 }, false, { id: some });
    expect(ids(exact)).toEqual(some);
    expect(exact.pageInfo.hasNextPage).toBe(false);
    const head = await page({ first: 5 }, false, { id: some });
    const tail = await page({ first: 5, after: head.pageInfo.endCursor }, false, { id: some });
    expect(ids(tail)).toEqual(some.slice(5));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it("a first larger than what remains answers the rest without a next page", async () => {
    const some = all.slice(0, 7);
    const head = await page({ first: 5 }, false, { id: some });
    const rest = await page({ first: 100, after: head.edges[4]!.cursor }, false, { id: some });
    expect(ids(rest)).toEqual(some.slice(5));
    expect(rest.pageInfo.hasNextPage).toBe(false);
  });

  it("after the very last item there is nothing and no next page", async () => {
    const some = all.slice(0, 4);
    const whole = await page({ first: 4 }, false, { id: some });
    const after = await page({ first: 3, after: whole.pageInfo.endCursor }, false, { id: some });
    expect(after.edges).toEqual([]);
    expect(after.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });
  });

  it("first: 0 answers no edges but the totalCount and whether there are items, in one call", async () => {
    fx.reset();
    const c = await page({ first: 0 }, true);
    expect(c.edges).toEqual([]);
    expect(c.totalCount).toBe(all.length);
    expect(c.pageInfo.hasNextPage).toBe(true);
    expect(calls()).toBe(1);
  });

  it("first: 0 tells whether there are items also without totalCount", async () => {
    expect((await page({ first: 0 })).pageInfo.hasNextPage).toBe(true);
    expect((await page({ first: 0 }, false, { id: ["999999"] })).pageInfo.hasNextPage).toBe(false);
  });

  it("first: 0 after the last item says there is no next page", async () => {
    const some = all.slice(0, 3);
    const whole = await page({ first: 3 }, false, { id: some });
    const c = await page({ first: 0, after: whole.edges[2]!.cursor }, false, { id: some });
    expect(c.pageInfo.hasNextPage).toBe(false);
    const inside = await page({ first: 0, after: whole.edges[1]!.cursor }, false, { id: some });
    expect(inside.pageInfo.hasNextPage).toBe(true);
  });

  it("first: 0 that says more follow has an endCursor to continue from: the list's start, or the after it was asked with", async () => {
    const empty = await page({ first: 0 });
    expect(empty.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: null });
    expect(empty.pageInfo.endCursor).toEqual(expect.any(String));
    const resumed = await page({ first: 3, after: empty.pageInfo.endCursor });
    expect(ids(resumed)).toEqual(all.slice(0, 3));
    expect(resumed.pageInfo.hasPreviousPage).toBe(false);
    const inside = await page({ first: 0, after: resumed.pageInfo.endCursor });
    expect(inside.pageInfo).toMatchObject({ hasNextPage: true, endCursor: resumed.pageInfo.endCursor });
    expect(ids(await page({ first: 2, after: inside.pageInfo.endCursor }))).toEqual(all.slice(3, 5));
    // nothing follows: no cursor is needed, and none is given
    const none = await page({ first: 0 }, false, { id: ["999999"] });
    expect(none.pageInfo).toMatchObject({ hasNextPage: false, endCursor: null });
  });

  it("totalCount is asked of the upstream only when wanted", async () => {
    expect((await page({ first: 2 }, true)).totalCount).toBe(all.length);
    expect((await page({ first: 2 }, false)).totalCount).toBeNull();
    const first = await page({ first: 2 });
    expect((await page({ first: 2, after: first.pageInfo.endCursor }, true)).totalCount).toBe(all.length);
  });

  it.each([
    ["not base64 JSON", "%%%"],
    ["unsigned", { p: null, s: 1 }, false],
    ["JSON of another shape", { x: 1 }],
    ["a skip beyond a REST page", { p: null, s: 101 }],
    ["a negative offset", { o: -1 }],
    ["a fractional offset", { o: 1.5 }],
    ["an offset beyond any list served", { o: 1e9 }],
    ["signed for another list", { p: null, s: 1 }, true, "/employments"],
    ["signed for another filter", { p: null, s: 1 }, true, "/employees", { "applicableJobPosition.department.id": "5" }],
  ] as Array<[string, string | object, boolean?, string?, Record<string, string>?]>)("a cursor that is %s is BAD_USER_INPUT before any call", async (_, value, sign = true, path = "/employees", query: Record<string, string> = {}) => {
    const after = typeof value === "string" ? value : sign ? signed(fx, value, path, query) : unsigned(value);
    fx.reset();
    const err = await rejection(page({ first: 5, after }));
    expect(err).toBeInstanceOf(GraphQLError);
    expect((err as GraphQLError).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "after" });
    expect(fx.stats().total).toBe(0);
  });

  it("a forged REST page cursor is refused by the upstream as BAD_USER_INPUT", async () => {
    const err = await rejection(page({ first: 5, after: signed(fx, { p: "forged", s: 0 }) }));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).code).toBe("BAD_USER_INPUT");
    expect((err as UpstreamError).status).toBe(400);
  });

  it.each([-1, 101, 2.5])("first: %s is BAD_USER_INPUT", async (first) => {
    const err = await rejection(page({ first }));
    expect((err as GraphQLError).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "first" });
    expect(() => pageSize(first)).toThrow(GraphQLError);
  });

  it("an offset cursor of a list served whole resumes through the REST list in one call", async () => {
    const served = arrayConnection(all.slice(0, 10), { first: 3 }, { signer: fx.upstream.cursors, scope: cursorScope("/employees", {}) });
    fx.reset();
    const c = await page({ first: 5, after: served.pageInfo.endCursor }, true);
    expect(ids(c)).toEqual(all.slice(3, 8));
    expect(c.totalCount).toBe(all.length);
    expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(calls()).toBe(1);
    // the edges it answers carry REST cursors again: the next page is one call too
    fx.reset();
    expect(ids(await page({ first: 5, after: c.pageInfo.endCursor }))).toEqual(all.slice(8, 13));
    expect(calls()).toBe(1);
  });

  it("a deep offset cursor walks the REST pages before it", async () => {
    fx.reset();
    const c = await page({ first: 5, after: signed(fx, { o: 149 }) });
    expect(ids(c)).toEqual(all.slice(150, 155));
    expect(calls()).toBe(2);
    const beyond = await page({ first: 5, after: signed(fx, { o: all.length + 10 }) });
    expect(beyond.edges).toEqual([]);
    expect(beyond.pageInfo.hasNextPage).toBe(false);
  });
});

describe("arrayConnection", () => {
  const items = ["a", "b", "c", "d", "e"];
  const signer = { sign: () => "sig", verify: (_: string, signature: string) => signature === "sig" };
  const binding = { signer, scope: "letters" };

  it("pages through a list in hand with offset cursors", () => {
    const head = arrayConnection(items, { first: 2 }, binding);
    expect(head.nodes).toEqual(["a", "b"]);
    expect(head.totalCount).toBe(5);
    expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const mid = arrayConnection(items, { first: 2, after: head.pageInfo.endCursor }, binding);
    expect(mid.nodes).toEqual(["c", "d"]);
    const tail = arrayConnection(items, { first: 2, after: mid.pageInfo.endCursor }, binding);
    expect(tail.nodes).toEqual(["e"]);
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it("first: 0 ends at a cursor of the list's start, which the next page resumes from", () => {
    const empty = arrayConnection(items, { first: 0 }, binding);
    expect(empty.nodes).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(arrayConnection(items, { first: 2, after: empty.pageInfo.endCursor }, binding).nodes).toEqual(["a", "b"]);
    const head = arrayConnection(items, { first: 2 }, binding);
    const still = arrayConnection(items, { first: 0, after: head.pageInfo.endCursor }, binding);
    expect(still.pageInfo.endCursor).toBe(head.pageInfo.endCursor);
    expect(arrayConnection([], { first: 0 }, binding).pageInfo).toMatchObject({ hasNextPage: false, endCursor: null });
  });

  it("a REST cursor is not a cursor of a list in hand", () => {
    expect(() => arrayConnection(items, { after: encodeCursor({ p: null, s: 1 }, binding) }, binding)).toThrow(/not a cursor/);
  });

  it("a cursor of another list in hand is refused", () => {
    const other = arrayConnection(items, { first: 2 }, { signer, scope: "digits" });
    expect(() => arrayConnection(items, { after: other.pageInfo.endCursor }, binding)).toThrow(/another list/);
  });
});

describe("childConnectionLoader", () => {
  const fx = useUpstreamFixture({ employees: 150 });
  let employees: string[];
  /** employment ids per employee, in the list's order */
  let byEmployee: Map<string, string[]>;
  const calls = () => fx.stats().byRoute["GET /service-api/employments"] ?? 0;
  const loaderFor = () => childConnectionLoader<Employment>(fx.upstream.session(), "/employments", "employee.id", (e) => e.employee.id);
  const key = (parentId: string, args: ConnectionArgs = { first: 10 }, totalCount = true) => ({ parentId, args, totalCount });

  beforeAll(async () => {
    employees = fx.directory.company.employees.map((e) => e.id);
    byEmployee = new Map(employees.map((id) => [id, []]));
    for (const e of await fx.upstream.session().current.all<Employment>("/employments")) byEmployee.get(e.employee.id)!.push(e.id);
  });
  afterEach(() => fx.directory.faults.clear());

  it("a lone parent gets one REST page of its own", async () => {
    const parent = employees.find((id) => byEmployee.get(id)!.length >= 2)!;
    fx.reset();
    const c = await loaderFor().load(key(parent, { first: 1 }));
    expect(c.nodes.map((n) => n.id)).toEqual(byEmployee.get(parent)!.slice(0, 1));
    expect(c.totalCount).toBe(byEmployee.get(parent)!.length);
    expect(c.pageInfo.hasNextPage).toBe(true);
    expect(calls()).toBe(1);
  });

  it("many parents of one tick share one list call and each gets its own children", async () => {
    const parents = employees.slice(0, 40);
    fx.reset();
    const loader = loaderFor();
    const got = await Promise.all(parents.map((id) => loader.load(key(id))));
    expect(got.map((c) => c.nodes.map((n) => n.id))).toEqual(parents.map((id) => byEmployee.get(id)!.slice(0, 10)));
    expect(got.map((c) => c.totalCount)).toEqual(parents.map((id) => byEmployee.get(id)!.length));
    const children = parents.reduce((n, id) => n + byEmployee.get(id)!.length, 0);
    expect(calls()).toBe(Math.ceil(children / 100));
  });

  it("the number of calls does not grow with the number of parents", async () => {
    const count = async (parents: string[]) => {
      fx.reset();
      const loader = loaderFor();
      await Promise.all(parents.map((id) => loader.load(key(id, { first: 1 }))));
      return calls();
    };
    const few = await count(employees.slice(0, 5));
    const many = await count(employees.slice(0, 50));
    expect(few).toBe(1);
    expect(many).toBeLessThanOrEqual(2);
  });

  it("a parent asked after a cursor is served alone while the others stay batched", async () => {
    const parent = employees.find((id) => byEmployee.get(id)!.length >= 2)!;
    const head = await loaderFor().load(key(parent, { first: 1 }));
    fx.reset();
    const loader = loaderFor();
    const [resumed, a, b] = await Promise.all([
      loader.load(key(parent, { first: 10, after: head.pageInfo.endCursor })),
      loader.load(key(employees[0]!)),
      loader.load(key(employees[1]!)),
    ]);
    expect(resumed.nodes.map((n) => n.id)).toEqual(byEmployee.get(parent)!.slice(1));
    expect(a.nodes.map((n) => n.id)).toEqual(byEmployee.get(employees[0]!));
    expect(b.nodes.map((n) => n.id)).toEqual(byEmployee.get(employees[1]!));
    expect(calls()).toBe(2);
  });

  it("the offset cursor of a batched connection resumes that parent's children", async () => {
    const parent = employees.find((id) => byEmployee.get(id)!.length >= 2)!;
    const loader = loaderFor();
    const [head] = await Promise.all([loader.load(key(parent, { first: 1 })), loader.load(key(employees.find((id) => id !== parent)!))]);
    const rest = await loaderFor().load(key(parent, { first: 10, after: head.pageInfo.endCursor }));
    expect(rest.nodes.map((n) => n.id)).toEqual(byEmployee.get(parent)!.slice(1));
    expect(rest.pageInfo.hasNextPage).toBe(false);
  });

  it("a parent without children gets an empty connection", async () => {
    const loader = loaderFor();
    const [none, empty] = await Promise.all([loader.load(key("999999")), loader.load(key(employees[0]!))]);
    expect(none).toMatchObject({ nodes: [], totalCount: 0, pageInfo: { hasNextPage: false } });
    expect(empty.nodes.length).toBe(byEmployee.get(employees[0]!)!.length);
    expect((await loaderFor().load(key("999999"))).nodes).toEqual([]);
  });

  it("an empty parent id gets an empty connection without any call, a parent id with a comma an error", async () => {
    fx.reset();
    const loader = loaderFor();
    const [empty, comma] = await Promise.allSettled([loader.load(key("")), loader.load(key("1,2"))]);
    expect(empty).toMatchObject({ status: "fulfilled", value: { nodes: [], totalCount: 0 } });
    expect(comma).toMatchObject({ status: "rejected", reason: expect.any(RangeError) });
    expect(fx.stats().total).toBe(0);
  });

  it("a failed batched call fails each parent's connection with the UpstreamError", async () => {
    await fx.upstream.session().current.page("/employments", { limit: 1 }); // token cached before the fault
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const loader = loaderFor();
    const settled = await Promise.allSettled(employees.slice(0, 3).map((id) => loader.load(key(id))));
    for (const s of settled) expect(s).toMatchObject({ status: "rejected", reason: expect.any(UpstreamError) });
  });

  it("an item with several parents is listed under each of them once", async () => {
    // every employment is given two parents (its employee, twice, and the first employee)
    const loader = childConnectionLoader<Employment>(fx.upstream.session(), "/employments", "employee.id", (e) => [e.employee.id, e.employee.id, employees[0]!]);
    const parents = employees.slice(0, 3);
    const got = await Promise.all(parents.map((id) => loader.load(key(id, { first: 100 }))));
    const expectedFirst = [...new Set(parents.flatMap((id) => byEmployee.get(id)!))].sort();
    expect(got[0]!.nodes.map((n) => n.id).sort()).toEqual(expectedFirst);
    expect(got[1]!.nodes.map((n) => n.id)).toEqual(byEmployee.get(parents[1]!));
  });
});
