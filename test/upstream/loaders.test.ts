import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useUpstreamFixture } from "./fixture.js";
import {
  LoaderRegistry,
  UpstreamError,
  adaptiveLoader,
  groupedLoader,
  keyedLoader,
  loadEvery,
  listByIdsLoader,
  singleReadLoader,
  type Ref,
} from "../../subgraphs/shared/upstream/index.js";

interface Employee {
  id: string;
}
interface Employment {
  id: string;
  employee: Ref;
}

describe("per-request loaders", () => {
  const fx = useUpstreamFixture({ employees: 400 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
    await fx.upstream.session().current.page("/employees", { limit: 1 }); // token out of the counts
  });
  afterEach(() => fx.directory.faults.clear());

  it("a list-by-ids loader fed 300 ids in one tick makes 3 calls and answers in key order", async () => {
    fx.reset();
    const loader = listByIdsLoader<Employee>(fx.upstream.session(), "/employees");
    const wanted = [...ids.slice(0, 300)].reverse();
    const got = await Promise.all(wanted.map((id) => loader.load(id)));
    expect(got.map((e) => e?.id)).toEqual(wanted);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 3 });
  });

  it("unknown ids are null, in place, without extra calls", async () => {
    fx.reset();
    const loader = listByIdsLoader<Employee>(fx.upstream.session(), "/employees");
    const got = await loader.loadMany([ids[0]!, "999999", ids[1]!, ""]);
    expect(got).toEqual([expect.objectContaining({ id: ids[0] }), null, expect.objectContaining({ id: ids[1] }), null]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 1 });
  });

  it("a failed list call fails its keys with the UpstreamError", async () => {
    const session = fx.upstream.session();
    const loader = listByIdsLoader<Employee>(session, "/employees");
    fx.directory.faults.set({ errorRate: 1, errorStatus: 500 });
    const got = await loader.loadMany(ids.slice(0, 3));
    expect(got).toHaveLength(3);
    for (const value of got) expect(value).toBeInstanceOf(UpstreamError);
    expect((got[0] as UpstreamError).code).toBe("UPSTREAM_UNAVAILABLE");
  });

  it("single reads answer per key: a 404 is null and the others are served", async () => {
    fx.reset();
    const loader = singleReadLoader<Employee>(fx.upstream.session(), (id) => `/employees/${encodeURIComponent(id)}`);
    const got = await loader.loadMany([ids[5]!, "999999", ids[6]!]);
    expect(got).toEqual([expect.objectContaining({ id: ids[5] }), null, expect.objectContaining({ id: ids[6] })]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees/{id}": 3 });
  });

  it("single reads run with bounded concurrency", async () => {
    const loader = singleReadLoader<Employee>(fx.upstream.session(), (id) => `/employees/${id}`, { concurrency: 2 });
    fx.directory.faults.set({ latencyMs: 60 });
    const started = Date.now();
    await Promise.all(ids.slice(0, 8).map((id) => loader.load(id)));
    // 8 reads of 60 ms, 2 at a time: at least 4 rounds
    expect(Date.now() - started).toBeGreaterThanOrEqual(230);
  });

  it("single reads of the legacy API unwrap the answer", async () => {
    fx.reset();
    const loader = singleReadLoader<{ id: number }>(fx.upstream.session(), (id) => `/api/v3/users/${id}`, {
      api: "legacy",
      unwrap: (body: { data: { id: number } }) => body.data,
    });
    const got = await loader.loadMany([ids[0]!, "999999"]);
    expect(got).toEqual([expect.objectContaining({ id: Number(ids[0]) }), null]);
    expect(fx.stats().byRoute).toEqual({ "GET /api/v3/users/{id}": 2 });
  });

  it("an adaptive loader without a single read reads the whole collection once per request", async () => {
    fx.reset();
    const session = fx.upstream.session();
    const entities = fx.directory.company.legalEntities.map((e) => e.id);
    const loader = adaptiveLoader<{ id: string }>(session, { list: "/legal-entities" });
    const first = await loader.loadMany(entities);
    const again = await adaptiveLoader<{ id: string }>(session, { list: "/legal-entities" }).load("999999");
    expect(first.map((e) => (e as { id: string }).id)).toEqual(entities);
    expect(again).toBeNull();
    // a second loader of the same request reads again: share loaders through session.loaders
    expect(fx.stats().byRoute["GET /service-api/legal-entities"]).toBe(2);
  });

  it("a grouped loader makes one list call per 100 parents and groups children by parent", async () => {
    fx.reset();
    const loader = groupedLoader<Employment>(fx.upstream.session(), "/employments", "employee.id", (e) => e.employee.id);
    const parents = ids.slice(0, 150);
    const groups = await Promise.all(parents.map((id) => loader.load(id)));
    const expected = parents.map((id) => fx.directory.company.employments.filter((e) => e.employeeId === id).map((e) => e.id).sort());
    expect(groups.map((g) => g.map((e) => e.id).sort())).toEqual(expected);
    expect(fx.stats().byRoute["GET /service-api/employments"]).toBeGreaterThanOrEqual(2);
    // more pages only when a chunk's children exceed 100
    const pagesOf = (n: number) => Math.max(1, Math.ceil(n / 100));
    const pages = pagesOf(expected.slice(0, 100).flat().length) + pagesOf(expected.slice(100).flat().length);
    expect(fx.stats().byRoute["GET /service-api/employments"]).toBe(pages);
  });

  it("a parent without children gets an empty list", async () => {
    const loader = groupedLoader<Employment>(fx.upstream.session(), "/employments", "employee.id", (e) => e.employee.id);
    expect(await loader.load("999999")).toEqual([]);
  });

  it("a list expected in flight answers the keys it holds; the others are read after it, in one call", async () => {
    fx.reset();
    const session = fx.upstream.session();
    const loader = listByIdsLoader<Employee>(session, "/employees");
    const list = session.current.page<Employee>("/employees", { limit: 10 }).then((e) => e.items);
    loader.expectAll(list);
    const held = (await list).map((e) => e.id);
    const got = await Promise.all([loader.load(held[0]!), loader.load(held[5]!), loader.load(ids[200]!)]);
    expect(got.map((e) => e?.id)).toEqual([held[0], held[5], ids[200]]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 2 });
  });

  it("a list expected in flight that fails answers nothing: its keys are read on their own", async () => {
    fx.reset();
    const session = fx.upstream.session();
    const loader = listByIdsLoader<Employee>(session, "/employees");
    loader.expectAll(Promise.reject(new Error("the list failed")));
    expect((await loader.load(ids[3]!))?.id).toBe(ids[3]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 1 });
  });

  it("a warmed adaptive loader answers a single id from the first page, not from a single read", async () => {
    fx.reset();
    const loader = adaptiveLoader<Employee>(fx.upstream.session(), { list: "/employees", single: (id) => `/employees/${id}` });
    loader.warm();
    expect((await loader.load(ids[7]!))?.id).toBe(ids[7]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 1 });
  });

  it("the loader registry keeps one loader per key for its request only", () => {
    const session = fx.upstream.session();
    const a = session.loaders.get("employees", () => listByIdsLoader<Employee>(session, "/employees"));
    const b = session.loaders.get("employees", () => listByIdsLoader<Employee>(session, "/employees"));
    expect(a).toBe(b);
    const other = fx.upstream.session();
    expect(other.loaders.get("employees", () => listByIdsLoader<Employee>(other, "/employees"))).not.toBe(a);
    expect(session.loaders).toBeInstanceOf(LoaderRegistry);
  });
});

describe("keyedLoader", () => {
  it("keys missing from the batch answer are null", async () => {
    const loader = keyedLoader<string, number>(async (keys) => new Map(keys.filter((k) => k !== "b").map((k) => [k, k.length])));
    expect(await loader.loadMany(["a", "b", "cc"])).toEqual([1, null, 2]);
  });

  it("a rejected batch rejects each of its keys with that error", async () => {
    const failure = new Error("boom");
    const loader = keyedLoader<string, number>(async () => {
      throw failure;
    });
    expect(await loader.loadMany(["a", "b"])).toEqual([failure, failure]);
  });

  it("maxBatchSize splits batches", async () => {
    const sizes: number[] = [];
    const loader = keyedLoader<number, number>(
      async (keys) => {
        sizes.push(keys.length);
        return new Map(keys.map((k) => [k, k]));
      },
      { maxBatchSize: 100 },
    );
    await Promise.all(Array.from({ length: 250 }, (_, i) => loader.load(i)));
    expect(sizes).toEqual([100, 100, 50]);
  });

  it("loadEvery answers the values in key order and rejects with the first failed key's error", async () => {
    const failure = new Error("boom");
    const loader = keyedLoader<string, number>(async (keys) => {
      if (keys.includes("bad")) throw failure;
      return new Map(keys.filter((k) => k !== "b").map((k) => [k, k.length]));
    });
    expect(await loadEvery(loader, ["a", "b", "cc"])).toEqual([1, null, 2]);
    await expect(loadEvery(loader, ["a", "bad"])).rejects.toBe(failure);
  });
});
