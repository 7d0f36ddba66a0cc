import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { UpstreamCallEvent } from "../../subgraphs/shared/upstream/index.js";
import { upstreamError, type Fixture, useUpstreamFixture } from "./fixture.js";
import { directoryToken } from "../helpers/stack.js";

function record(fx: Fixture, upstream = fx.upstream): { events: UpstreamCallEvent[]; stop: () => void } {
  const events: UpstreamCallEvent[] = [];
  const stop = upstream.onCall((e) => {
    if (e.api !== "token") events.push(e);
  });
  return { events, stop };
}

describe("conditional requests", () => {
  const fx = useUpstreamFixture({ employees: 30 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });
  afterEach(() => fx.directory.faults.clear());

  it("a repeated read is revalidated: the upstream answers 304 and the cached body is served", async () => {
    const upstream = fx.client();
    const { events } = record(fx, upstream);
    const first = await upstream.session().current.read(`/employees/${ids[0]}`);
    const second = await upstream.session().current.read(`/employees/${ids[0]}`);
    expect(second).toEqual(first);
    expect(events.map((e) => [e.status, e.notModified])).toEqual([
      [200, false],
      [304, true],
    ]);
    expect(upstream.totals.notModified).toBe(1);
  });

  it("a served body is a copy: changing it does not change what the cache serves next", async () => {
    const upstream = fx.client();
    const first = await upstream.session().current.read<{ id: string; givenName: string }>(`/employees/${ids[1]}`);
    first!.givenName = "changed";
    const second = await upstream.session().current.read<{ givenName: string }>(`/employees/${ids[1]}`);
    expect(second!.givenName).not.toBe("changed");
  });

  it("lists are revalidated too", async () => {
    const upstream = fx.client();
    const { events } = record(fx, upstream);
    const a = await upstream.session().current.page("/employees", { limit: 5 });
    const b = await upstream.session().current.page("/employees", { limit: 5 });
    expect(b).toEqual(a);
    expect(events.map((e) => e.status)).toEqual([200, 304]);
  });

  it("an error is never served from the cache and drops the entry", async () => {
    const upstream = fx.client({ retries: 0 });
    const { events } = record(fx, upstream);
    await upstream.session().current.read(`/employees/${ids[2]}`);
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const err = await upstreamError(upstream.session().current.read(`/employees/${ids[2]}`));
    expect(err.status).toBe(503);
    fx.directory.faults.clear();
    await upstream.session().current.read(`/employees/${ids[2]}`);
    expect(events.map((e) => e.status)).toEqual([200, 503, 200]);
  });

  it("the cache is bounded: the least recently used entry is forgotten", async () => {
    const upstream = fx.client({ etagCacheSize: 1 });
    const { events } = record(fx, upstream);
    const session = upstream.session();
    for (const id of [ids[3], ids[4], ids[3]]) await session.current.read(`/employees/${id}`);
    expect(events.map((e) => e.status)).toEqual([200, 200, 200]);
  });

  it("the cache is bounded in size too: entries beyond the byte budget are forgotten, the oldest first", async () => {
    const sizeOf = async (id: string) => JSON.stringify(await fx.upstream.session().current.read(`/employees/${id}`)).length + 400; // the body, its key (caller, method, URL) and the entry's fixed cost
    const largest = Math.max(await sizeOf(ids[6]!), await sizeOf(ids[7]!));
    const statuses = async (etagCacheBytes: number) => {
      const upstream = fx.client({ etagCacheBytes });
      const { events } = record(fx, upstream);
      const session = upstream.session();
      for (const id of [ids[6], ids[7], ids[6]]) await session.current.read(`/employees/${id}`);
      return events.map((e) => e.status);
    };
    expect(await statuses(largest * 3)).toEqual([200, 200, 304]);
    expect(await statuses(Math.ceil(largest * 1.5))).toEqual([200, 200, 200]);
    expect(await statuses(10)).toEqual([200, 200, 200]);
  });

  it("a cache size of 0 turns conditional requests off", async () => {
    const upstream = fx.client({ etagCacheSize: 0 });
    const { events } = record(fx, upstream);
    await upstream.session().current.read(`/employees/${ids[5]}`);
    await upstream.session().current.read(`/employees/${ids[5]}`);
    expect(events.map((e) => e.status)).toEqual([200, 200]);
  });

  it("writes are never conditional or cached", async () => {
    const upstream = fx.client({ retries: 0 });
    const { events } = record(fx, upstream);
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await upstreamError(upstream.session().legacy.put("/api/v3/timeentries/1", {}));
    await upstreamError(upstream.session().legacy.put("/api/v3/timeentries/1", {}));
    expect(events.map((e) => e.status)).toEqual([503, 503]);
  });
});

describe("caches per caller", () => {
  const fx = useUpstreamFixture({ employees: 30 }, { auth: "forward", clientId: null, clientSecret: null });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("two callers never share a cache entry", async () => {
    const full = `Bearer ${await directoryToken(fx.directory.url, "demo-client")}`;
    const limited = `Bearer ${await directoryToken(fx.directory.url, "demo-limited")}`;
    const { events } = record(fx);
    const path = "/employees";
    const query = { limit: 100 };
    const a1 = await fx.upstream.session({ authorization: full }).current.page<{ id: string }>(path, query);
    const b1 = await fx.upstream.session({ authorization: limited }).current.page<{ id: string }>(path, query);
    const a2 = await fx.upstream.session({ authorization: full }).current.page<{ id: string }>(path, query);
    const b2 = await fx.upstream.session({ authorization: limited }).current.page<{ id: string }>(path, query);
    // the second caller's first read is a full 200: it did not revalidate the first caller's entry
    expect(events.map((e) => e.status)).toEqual([200, 200, 304, 304]);
    expect(a2).toEqual(a1);
    expect(b2).toEqual(b1);
  });

  it("the same caller in a new request reuses its own entries", async () => {
    const token = `Bearer ${await directoryToken(fx.directory.url, "demo-client")}`;
    const { events } = record(fx);
    await fx.upstream.session({ authorization: token }).current.read(`/employees/${ids[0]}`);
    await fx.upstream.session({ authorization: token }).current.read(`/employees/${ids[0]}`);
    expect(events.map((e) => e.status)).toEqual([200, 304]);
  });
});
