import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "./fixture.js";
import { directoryToken } from "../helpers/stack.js";

/**
 * Identical upstream reads in flight for the same caller identity are made once
 * (platform/inflight.ts): counted by the directory itself, over loopback HTTP,
 * with latency added so that the reads overlap.
 */

const ROUTE = "GET /service-api/employees/{id}";

describe("identical reads in flight", () => {
  let fx: Fixture;
  let ids: string[];
  beforeAll(async () => {
    fx = await startFixture({ employees: 30 });
    ids = fx.directory.company.employees.map((e) => e.id);
  });
  afterEach(() => fx.directory.faults.clear());
  afterAll(() => fx.close());

  it("eight sessions reading the same employee at once cost one upstream call, and each gets its own copy", async () => {
    const upstream = fx.client();
    await upstream.session().current.read(`/employees/${ids[0]}`); // token and connection
    fx.directory.faults.set({ latencyMs: 80 });
    fx.reset();
    const bodies = await Promise.all(
      Array.from({ length: 8 }, () => upstream.session().current.read<{ id: string; givenName: string }>(`/employees/${ids[0]}`)),
    );
    expect(fx.stats().byRoute[ROUTE]).toBe(1);
    expect(new Set(bodies.map((b) => b!.id))).toEqual(new Set([ids[0]]));
    bodies[0]!.givenName = "changed";
    expect(bodies.slice(1).every((b) => b!.givenName !== "changed")).toBe(true);
    expect(upstream.inflight.counts.joined).toBeGreaterThanOrEqual(7);
  });

  it("different reads and reads one after another are each sent: it is not a cache", async () => {
    const upstream = fx.client();
    fx.directory.faults.set({ latencyMs: 30 });
    fx.reset();
    await Promise.all([upstream.session().current.read(`/employees/${ids[1]}`), upstream.session().current.read(`/employees/${ids[2]}`)]);
    await upstream.session().current.read(`/employees/${ids[1]}`);
    expect(fx.stats().byRoute[ROUTE]).toBe(3);
  });

  it("a read asked after a write started never joins a read that started before it", async () => {
    const upstream = fx.client();
    await upstream.session().current.read(`/employees/${ids[6]}`);
    fx.directory.faults.set({ latencyMs: 120 });
    fx.reset();
    const path = "/api/v3/timeentries/1";
    const before = upstream.session().legacy.getOrNull(path);
    await new Promise((r) => setTimeout(r, 20));
    // the write's outcome does not matter here: that it started does
    const write = upstream.session().legacy.put(path, {}).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    const after = upstream.session().legacy.getOrNull(path);
    await Promise.all([before, write, after]);
    expect(fx.stats().byRoute["GET /api/v3/timeentries/{id}"]).toBe(2);
  });

  it("a joiner whose first caller ran out of call budget reads on its own", async () => {
    const upstream = fx.client({ callBudget: 2 });
    await upstream.session().current.read(`/employees/${ids[3]}`); // the token, counted in that session
    fx.directory.faults.set({ latencyMs: 30 });
    const spent = upstream.session();
    await spent.current.read(`/employees/${ids[3]}`);
    await spent.current.read(`/employees/${ids[5]}`);
    fx.reset();
    const [first, second] = await Promise.allSettled([spent.current.read(`/employees/${ids[4]}`), upstream.session().current.read(`/employees/${ids[4]}`)]);
    expect(first.status).toBe("rejected");
    expect((first as PromiseRejectedResult).reason.extensions.code).toBe("UPSTREAM_BUDGET_EXCEEDED");
    expect(second.status).toBe("fulfilled");
    expect((second as PromiseFulfilledResult<{ id: string }>).value.id).toBe(ids[4]);
    expect(fx.stats().byRoute[ROUTE]).toBe(1);
  });
});

describe("identical reads in flight, forwarded credentials", () => {
  let fx: Fixture;
  let id: string;
  beforeAll(async () => {
    fx = await startFixture({ employees: 30 }, { auth: "forward", clientId: null, clientSecret: null });
    id = fx.directory.company.employees[0]!.id;
  });
  afterEach(() => fx.directory.faults.clear());
  afterAll(() => fx.close());

  it("two callers never share a read: each identity gets its own call, the same identity one", async () => {
    const [full, limited] = [`Bearer ${await directoryToken(fx.directory.url, "demo-client")}`, `Bearer ${await directoryToken(fx.directory.url, "demo-limited")}`];
    fx.directory.faults.set({ latencyMs: 80 });
    fx.reset();
    const read = (authorization: string) => fx.upstream.session({ authorization }).current.read(`/employees/${id}`);
    await Promise.all([read(full), read(full), read(limited), read(limited), read(full)]);
    expect(fx.stats().byRoute[ROUTE]).toBe(2);
  });
});
