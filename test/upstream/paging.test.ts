import { beforeAll, describe, expect, it } from "vitest";
import { useUpstreamFixture } from "./fixture.js";
import { followPages, type Envelope } from "../../subgraphs/shared/upstream/index.js";

describe("lists of the current API", () => {
  const fx = useUpstreamFixture({ employees: 1000 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("the iterator reads a 1000-item list completely, 100 per page", async () => {
    await fx.upstream.session().current.page("/employees", { limit: 1 }); // token out of the count
    fx.reset();
    const session = fx.upstream.session();
    const seen: string[] = [];
    for await (const employee of session.current.iterate<{ id: string }>("/employees")) seen.push(employee.id);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 10 });
  });

  it("a page the directory aborts for its duration (408) is asked again with half the items, and the pages after it keep that size", async () => {
    // a client of its own: no version of the pages held from the tests before (a 304 is not aborted)
    const upstream = fx.client();
    await upstream.session().current.page("/employees", { limit: 1 }); // token out of the count
    // a page of more than 30 items runs over the directory's duration limit: 100 and 50 are aborted, 25 is not
    fx.directory.faults.set({ overrunItems: 30 });
    fx.reset();
    const calls: Array<number | null> = [];
    const attempts: number[] = [];
    const stop = upstream.onCall((call) => {
      calls.push(call.status);
      attempts.push(call.attempt);
    });
    try {
      const seen = await upstream.session().current.all<{ id: string }>("/employees");
      expect(new Set(seen.map((e) => e.id))).toEqual(new Set(ids));
      expect(seen).toHaveLength(1000);
    } finally {
      stop();
      fx.directory.faults.clear();
    }
    // never the same page sent again as it was: each 408 is followed by a smaller one
    expect(calls).toEqual([408, 408, ...Array<number>(40).fill(200)]);
    expect(attempts.every((a) => a === 1)).toBe(true);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 42 });
  });

  it("halving goes down to one item a page", async () => {
    // every page of two items or more is aborted: the three employees are read one a page
    fx.directory.faults.set({ overrunItems: 1 });
    fx.reset();
    try {
      const few = await fx.upstream.session().current.all<{ id: string }>("/employees", { id: ids.slice(0, 3) });
      expect(few.map((e) => e.id).sort()).toEqual(ids.slice(0, 3).sort());
    } finally {
      fx.directory.faults.clear();
    }
    // 100, 50, 25, 12, 6 and 3 aborted; then three pages of one
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees": 9 });
  });

  it("a page size given by the caller is kept", async () => {
    fx.reset();
    const all = await fx.upstream.session().current.all<{ id: string }>("/employees", { limit: 50, id: ids.slice(0, 100) });
    expect(all).toHaveLength(100);
    expect(fx.stats().byRoute["GET /service-api/employees"]).toBe(2);
  });

  it("250 ids are read in 3 list calls", async () => {
    fx.reset();
    const wanted = ids.slice(100, 350);
    const items = await fx.upstream.session().current.allByValues<{ id: string }>("/employees", "id", wanted);
    expect(new Set(items.map((e) => e.id))).toEqual(new Set(wanted));
    expect(fx.stats().byRoute["GET /service-api/employees"]).toBe(3);
  });

  it("the chunks are read concurrently, at most `concurrency` at once", async () => {
    const LATENCY = 400;
    /** how long the read took, and the most list calls in flight at once (from each attempt's end and duration) */
    const timed = async (concurrency: number) => {
      const upstream = fx.client({ concurrency });
      await upstream.session().current.page("/employees", { limit: 1 }); // token out of the timing
      const spans: Array<[number, number]> = [];
      upstream.onCall((e) => spans.push([performance.now() - e.durationMs, performance.now()]));
      fx.directory.faults.set({ latencyMs: LATENCY });
      const started = Date.now();
      await upstream.session().current.allByValues("/employees", "id", ids.slice(0, 250));
      fx.directory.faults.clear();
      const atOnce = Math.max(...spans.map(([start]) => spans.filter(([s, end]) => s <= start && start < end).length));
      return { ms: Date.now() - started, calls: spans.length, atOnce };
    };
    // three chunks: one at a time take three latencies at least (a lower bound load cannot break);
    // three at once were all in flight together. Counted, not timed: a busy machine's delays
    // lengthen the calls but cannot make the sent-together ones stop overlapping
    const one = await timed(1);
    expect(one.ms).toBeGreaterThanOrEqual(3 * LATENCY);
    expect(one).toMatchObject({ calls: 3, atOnce: 1 });
    expect(await timed(2)).toMatchObject({ calls: 3, atOnce: 2 });
    expect(await timed(3)).toMatchObject({ calls: 3, atOnce: 3 });
  });

  it("an item matching values of several chunks is answered once", async () => {
    // categories valid for every establishment match any establishment id, so each chunk returns them
    const establishments = fx.directory.company.businessEstablishments.map((b) => b.id);
    const padding = Array.from({ length: 120 }, (_, i) => String(900_000 + i));
    const values = [establishments[0]!, ...padding, establishments[1]!];
    fx.reset();
    const items = await fx.upstream.session().current.allByValues<{ id: string }>("/occupation-categories", "businessEstablishments.id", values);
    const valid = (c: { businessEstablishmentIds: string[] | null }) =>
      c.businessEstablishmentIds === null || c.businessEstablishmentIds.some((b) => values.includes(b));
    const expected = fx.directory.company.occupationCategories.filter(valid).map((c) => c.id);
    expect(fx.directory.company.occupationCategories.some((c) => c.businessEstablishmentIds === null)).toBe(true);
    expect(items.map((c) => c.id).sort()).toEqual([...expected].sort());
    expect(fx.stats().byRoute["GET /service-api/occupation-categories"]).toBe(2);
  });

  it("repeated and empty values are dropped before chunking", async () => {
    fx.reset();
    const wanted = ids.slice(0, 100);
    const items = await fx.upstream.session().current.allByValues<{ id: string }>("/employees", "id", [...wanted, ...wanted, ""]);
    expect(items).toHaveLength(100);
    expect(fx.stats().byRoute["GET /service-api/employees"]).toBe(1);
  });

  it("no values make no call", async () => {
    fx.reset();
    expect(await fx.upstream.session().current.allByValues("/employees", "id", [])).toEqual([]);
    expect(fx.stats().total).toBe(0);
  });

  it("a value holding a comma is refused instead of being split by the upstream", async () => {
    await expect(fx.upstream.session().current.allByValues("/employees", "id", ["1,2"])).rejects.toThrow(/comma/);
  });

  it("totalCount comes only when the caller asks for it, and embedded never where no loader takes it", async () => {
    const session = fx.upstream.session();
    const plain = await session.current.page<{ id: string }>("/job-positions", { limit: 2 });
    expect(plain.totalCount ?? null).toBeNull();
    const counted: Envelope<{ id: string }> = await session.current.page("/job-positions", { limit: 2, include: ["totalCount", "embedded"] });
    expect(counted.totalCount).toBeGreaterThan(2);
    expect(counted.embedded === undefined || Object.keys(counted.embedded).length === 0).toBe(true);
    // an employee list's embedded job positions prime a loader: asked for when given
    const embedded: Envelope<{ id: string }> = await session.current.page("/employees", { limit: 2, include: ["embedded"] });
    expect(Object.keys(embedded.embedded ?? {})).toContain("job-position");
  });

  it("paths may be given with or without the /service-api prefix", async () => {
    const session = fx.upstream.session();
    const a = await session.current.read<{ id: string }>(`/employees/${ids[0]}`);
    const b = await session.current.read<{ id: string }>(`/service-api/employees/${ids[0]}`);
    expect(a).toEqual(b);
  });

  it("a path with a query string is refused", async () => {
    await expect(fx.upstream.session().current.read("/employees?id=1")).rejects.toThrow(TypeError);
    await expect(fx.upstream.session().legacy.get("api/v3/users")).rejects.toThrow(TypeError);
  });
});

describe("followPages, the one next-page loop", () => {
  /** a list whose pages name the next page's cursor as `next` */
  const reader = (pages: Record<string, { items: string[]; next: string | null }>, reads: Array<string | null>) => async (cursor: string | null) => {
    reads.push(cursor);
    const page = pages[cursor ?? "start"]!;
    return { page: page.items, next: page.next };
  };

  it("reads each page once, in order, until one names no next page", async () => {
    const reads: Array<string | null> = [];
    const items: string[] = [];
    const pages = { start: { items: ["a"], next: "p2" }, p2: { items: ["b"], next: "p3" }, p3: { items: ["c"], next: null } };
    for await (const { page } of followPages("/things", null, reader(pages, reads))) items.push(...page);
    expect(items).toEqual(["a", "b", "c"]);
    expect(reads).toEqual([null, "p2", "p3"]);
  });

  it("a list that names a page it already served again is an error, not an endless loop", async () => {
    const reads: Array<string | null> = [];
    const pages = { start: { items: ["a"], next: "p2" }, p2: { items: ["b"], next: "p2" } };
    const all = async () => {
      for await (const _ of followPages("/things", null, reader(pages, reads)));
    };
    await expect(all()).rejects.toThrow("GET /things: the next page repeats a page already read");
    expect(reads).toEqual([null, "p2"]);
  });

  it("a caller that stops iterating reads no further page", async () => {
    const reads: Array<string | null> = [];
    const pages = { start: { items: ["a"], next: "p2" }, p2: { items: ["b"], next: null } };
    for await (const _ of followPages("/things", null, reader(pages, reads))) break;
    expect(reads).toEqual([null]);
  });
});
