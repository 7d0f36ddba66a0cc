import { afterEach, describe, expect, it } from "vitest";
import { EventIngestion } from "../../subgraphs/shared/events/ingest.js";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import type { Upstream, UpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { Logger } from "../../platform/log.js";
import { processMetrics } from "../../platform/metrics.js";
import { AUTH } from "../directory/legacy-helpers.js";
import { directoryToken } from "../helpers/stack.js";
import { useUpstreamFixture, type Fixture } from "./fixture.js";

/**
 * Held reads (docs/shared-state.md#what-is-held-and-how-fresh): while a poll pass of the
 * directory's events succeeded lately, an ETag entry of an employee (employment, job position,
 * attribute) younger than DIRECTORY_HELD_FRESH_S is served without any request. Against the
 * in-process directory over real HTTP; what the directory received is its own count.
 */

const POLL_MS = 50;
const POLL = { mode: "poll", publicUrl: null, secret: null, pollMs: POLL_MS } as const;

const fx = useUpstreamFixture({ employees: 30 });
const running: EventIngestion[] = [];
afterEach(async () => {
  fx.directory.faults.clear();
  await Promise.all(running.splice(0).map((i) => i.stop()));
});

/** A client whose ingestion polls every POLL_MS, once it has heard a first pass. */
async function heldClient(overrides: Partial<UpstreamConfig> = {}): Promise<{ upstream: Upstream; ingestion: EventIngestion }> {
  const upstream = fx.client({ events: POLL, heldFreshMs: 60_000, ...overrides });
  const ingestion = new EventIngestion(upstream, upstream.changes, upstream.config.events!, new Logger("held-test"));
  running.push(ingestion);
  await ingestion.start();
  await until(() => upstream.holding || overrides.heldFreshMs === 0);
  // one pass after the first (which only places the position)
  await sleep(3 * POLL_MS);
  return { upstream, ingestion };
}

/** The directory's employee reads while `run` ran (not the events' or the token's). */
async function employeeRequests(f: Fixture, run: () => Promise<unknown>): Promise<number> {
  const before = f.stats().byRoute;
  await run();
  const after = f.stats().byRoute;
  return Object.entries(after)
    .filter(([route]) => /employees|users/.test(route))
    .reduce((sum, [route, n]) => sum + n - (before[route] ?? 0), 0);
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("never came");
    await sleep(10);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A read that should be held, the event path said heard just before it: a busy machine can delay
 * a pass of the 50 ms poll past the healthy window (3 × 50 ms + 1 s), and a test about the entries,
 * not the path, must not fail by it (the path's own tests leave the poll alone).
 */
function heldRead<T>(upstream: Upstream, path: string): Promise<T | null> {
  upstream.eventPathHeard(3 * POLL_MS + 1000);
  return upstream.session().current.read<T>(path);
}

function heard(upstream: Upstream, predicate: (c: DirectoryChange) => boolean): Promise<DirectoryChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (stop(), reject(new Error("no change heard"))), 10_000);
    const stop = upstream.changes.listen((change) => {
      if (!predicate(change)) return;
      clearTimeout(timer);
      stop();
      setTimeout(() => resolve(change), 20);
    });
  });
}

async function heldCount(result: string): Promise<number> {
  const metric = await processMetrics().upstreamHeldReads.get();
  return metric.values.filter((v) => v.labels.type === "employee" && v.labels.result === result).reduce((s, v) => s + v.value, 0);
}

const N = 10;

describe("held reads", () => {
  it(`${N} repeated reads of one employee cost one request while the events are heard (${N} without)`, async () => {
    const { upstream } = await heldClient();
    const id = fx.directory.company.employees[0]!.id;
    const served = await heldCount("served");
    const bodies: unknown[] = [];
    expect(await employeeRequests(fx, async () => {
      for (let i = 0; i < N; i++) bodies.push(await heldRead(upstream, `/employees/${id}`));
    })).toBe(1);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect((await heldCount("served")) - served).toBe(N - 1);

    // the same reads without holding: one request each (a 200, then 304s)
    const plain = fx.client({ events: POLL, heldFreshMs: 0 });
    expect(await employeeRequests(fx, async () => {
      for (let i = 0; i < N; i++) await plain.session().current.read(`/employees/${id}`);
    })).toBe(N);
  });

  it("a body served held is a copy", async () => {
    const { upstream } = await heldClient();
    const id = fx.directory.company.employees[1]!.id;
    const first = await upstream.session().current.read<{ givenName: string }>(`/employees/${id}`);
    first!.givenName = "changed";
    expect((await upstream.session().current.read<{ givenName: string }>(`/employees/${id}`))!.givenName).not.toBe("changed");
  });

  it("a change made at the directory is read on the next read once the poll hears it", async () => {
    const { upstream } = await heldClient();
    const path = "/employees/7";
    expect(await employeeRequests(fx, () => upstream.session().current.read(path))).toBeLessThanOrEqual(1);
    expect(await employeeRequests(fx, () => heldRead(upstream, path))).toBe(0);

    const change = heard(upstream, (c) => c.resource.type === "employee" && c.resource.id === "7");
    const res = await fetch(`${fx.directory.url}/api/v3/users/7`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify({ firstName: "Held-Renée" }) });
    expect(res.status).toBe(200);
    await res.text();
    await change;

    let read: { givenName?: string } | null = null;
    expect(await employeeRequests(fx, async () => (read = await upstream.session().current.read<{ givenName: string }>(path)))).toBe(1);
    expect(read!.givenName).toBe("Held-Renée");
    // held again after that
    expect(await employeeRequests(fx, () => heldRead(upstream, path))).toBe(0);
  });

  it("the facade's own write is read back at once, before its event is heard", async () => {
    const { upstream, ingestion } = await heldClient({ events: { ...POLL, pollMs: 1000 } });
    const path = "/employees/12";
    await upstream.session().current.read(path);
    // no event is heard from here on; the event path stays healthy for 3 × 1000 ms + 1 s
    await ingestion.stop();
    expect(upstream.holding).toBe(true);
    expect(await employeeRequests(fx, () => heldRead(upstream, path))).toBe(0);

    await upstream.session().legacy.put("/api/v3/users/12", { lastName: "Held-Okonkwo" });
    let read: { familyName?: string } | null = null;
    expect(await employeeRequests(fx, async () => (read = await upstream.session().current.read<{ familyName: string }>(path)))).toBe(1);
    expect(read!.familyName).toBe("Held-Okonkwo");
  });

  it("DIRECTORY_HELD_FRESH_S=0 turns holding off", async () => {
    const { upstream } = await heldClient({ heldFreshMs: 0 });
    expect(upstream.holding).toBe(false);
    const id = fx.directory.company.employees[2]!.id;
    expect(await employeeRequests(fx, async () => {
      for (let i = 0; i < 3; i++) await upstream.session().current.read(`/employees/${id}`);
    })).toBe(3);
  });

  it("an entry older than DIRECTORY_HELD_FRESH_S is revalidated", async () => {
    const { upstream } = await heldClient({ heldFreshMs: 2000 });
    const id = fx.directory.company.employees[3]!.id;
    await upstream.session().current.read(`/employees/${id}`);
    expect(await employeeRequests(fx, () => heldRead(upstream, `/employees/${id}`))).toBe(0);
    await sleep(2100);
    expect(await employeeRequests(fx, () => upstream.session().current.read(`/employees/${id}`))).toBe(1);
  });

  it("nothing is held once the polls stop succeeding", async () => {
    const { upstream } = await heldClient();
    const id = fx.directory.company.employees[4]!.id;
    await upstream.session().current.read(`/employees/${id}`);
    expect(await employeeRequests(fx, () => heldRead(upstream, `/employees/${id}`))).toBe(0);
    // every /events read fails from here on (and every other: the reads below are counted all the same)
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await until(() => !upstream.holding, 3 * POLL_MS + 3000);
    // reads go upstream (304s) as long as no pass succeeds: the poll is stopped before the fault is
    // lifted, so that none does
    await Promise.all(running.splice(0).map((i) => i.stop()));
    fx.directory.faults.clear();
    expect(upstream.holding).toBe(false);
    const silent = await heldCount("refused_events_silent");
    expect(await employeeRequests(fx, async () => {
      for (let i = 0; i < 3; i++) await upstream.session().current.read(`/employees/${id}`);
    })).toBe(3);
    expect((await heldCount("refused_events_silent")) - silent).toBe(3);
  });

  it("a read that was in flight when a change was heard is not held", async () => {
    const { upstream } = await heldClient();
    const id = fx.directory.company.employees[5]!.id;
    // the answer is held back far longer than the change below takes to be heard
    fx.directory.faults.set({ latencyMs: 2000 });
    const reading = upstream.session().current.read(`/employees/${id}`);
    await sleep(50);
    // a change of another employee heard meanwhile
    await upstream.changes.publish({ id: "held-test-1", topic: "employee.updated", occurredAt: new Date().toISOString(), resource: { type: "employee", id: "999" }, establishmentIds: [], previousAttributes: null });
    await reading;
    fx.directory.faults.clear();
    expect(await employeeRequests(fx, () => upstream.session().current.read(`/employees/${id}`))).toBe(1);
    expect(await employeeRequests(fx, () => heldRead(upstream, `/employees/${id}`))).toBe(0);
  });

  it("reference data is not held here (DIRECTORY_REFERENCE_FRESH_S has it)", async () => {
    const { upstream } = await heldClient();
    const reads = () => Object.entries(fx.stats().byRoute).filter(([route]) => /legal-entities/.test(route)).reduce((s, [, n]) => s + n, 0);
    const before = reads();
    await upstream.session().current.page("/legal-entities", { limit: 10 });
    await upstream.session().current.page("/legal-entities", { limit: 10 });
    expect(reads() - before).toBe(2);
  });
});

describe("forward mode", () => {
  const forward = useUpstreamFixture({ employees: 30 }, { auth: "forward", clientId: null, clientSecret: null });

  it("never holds: every read of the caller's own goes upstream", async () => {
    const upstream = forward.client({ events: POLL, heldFreshMs: 60_000 });
    // as if the event path were heard (forward mode has no ingestion of its own)
    upstream.eventPathHeard(60_000);
    expect(upstream.holding).toBe(false);
    const token = `Bearer ${await directoryToken(forward.directory.url, "demo-client")}`;
    const id = forward.directory.company.employees[0]!.id;
    expect(await employeeRequests(forward, async () => {
      for (let i = 0; i < 3; i++) await upstream.session({ authorization: token }).current.read(`/employees/${id}`);
    })).toBe(3);
  });
});
