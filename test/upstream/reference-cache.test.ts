import { describe, expect, it } from "vitest";
import { InProcessFeed } from "../../subgraphs/shared/events/index.js";
import { ReferenceCache } from "../../subgraphs/shared/upstream/reference-cache.js";

/** ReferenceCache on a clock the test moves: what is answered from memory, when it refreshes, what a change drops. */
describe("ReferenceCache", () => {
  const setup = (freshMs: number) => {
    let now = 0;
    const feed = new InProcessFeed();
    const cache = new ReferenceCache(freshMs, feed, () => now);
    let version = 0;
    let calls = 0;
    const fetch = async () => {
      calls++;
      return { version };
    };
    return {
      cache,
      feed,
      read: () => cache.read("me GET /service-api/departments", "departments", fetch),
      at: (ms: number) => (now = ms),
      change: () => version++,
      calls: () => calls,
    };
  };

  it("reads the reference lists of the current API, its probationary periods, the legacy work contracts, users and establishments and the legacy time data, nothing else", () => {
    expect(ReferenceCache.collectionOf("current", "GET", "/service-api/probationary-periods")).toBe("probationary-periods");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/directory/api/4.0/work-contracts")).toBe("work-contracts");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/directory/api/4.0/work-contracts/12")).toBe("work-contracts");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/timeentries")).toBe("time-entries");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/timeentries/7")).toBe("time-entries");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/timmitimesheets")).toBe("timesheets");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/axisSections")).toBe("axis-sections");
    expect(ReferenceCache.collectionOf("current", "GET", "/api/v3/timeentries")).toBeNull();
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/users/1")).toBe("legacy-users");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/users")).toBe("legacy-users");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/organization/structure/api/establishments")).toBe("legacy-establishments");
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/users/1/picture")).toBeNull();
    expect(ReferenceCache.collectionOf("legacy", "GET", "/api/v3/files/7")).toBeNull();
    expect(ReferenceCache.collectionOf("current", "GET", "/service-api/departments")).toBe("departments");
    expect(ReferenceCache.collectionOf("current", "GET", "/service-api/business-establishments/12")).toBe("business-establishments");
    expect(ReferenceCache.collectionOf("current", "GET", "/service-api/employees")).toBeNull();
    expect(ReferenceCache.collectionOf("current", "POST", "/service-api/departments")).toBeNull();
    expect(ReferenceCache.collectionOf("legacy", "GET", "/service-api/departments")).toBeNull();
  });

  it("answers from memory within the bound, refreshes past half of it in the background, never beyond it", async () => {
    const t = setup(1000);
    expect(await t.read()).toEqual({ version: 0 });
    t.change();
    t.at(400);
    expect(await t.read()).toEqual({ version: 0 });
    expect(t.calls()).toBe(1);
    t.at(600); // past half: answered from memory, refreshed off the critical path
    expect(await t.read()).toEqual({ version: 0 });
    await new Promise((r) => setTimeout(r, 0)); // the refresh settles
    expect(t.calls()).toBe(2);
    t.at(1050); // the refresh (started at 600) holds until 1600, unrefreshed until 1100
    expect(await t.read()).toEqual({ version: 1 });
    expect(t.calls()).toBe(2);
    t.change();
    t.at(1600); // at the bound: read again before answering
    expect(await t.read()).toEqual({ version: 2 });
    expect(t.calls()).toBe(3);
  });

  it("drops a collection on a change the feed tells of, and does not keep a read in flight across it", async () => {
    const t = setup(60_000);
    await t.read();
    t.change();
    const change = { id: "e", topic: "department.updated", occurredAt: "", resource: { type: "department", id: "1" }, establishmentIds: [], previousAttributes: null };
    await t.feed.publish(change);
    expect(await t.read()).toEqual({ version: 1 });
    // a change while a read is in flight: that read's answer is not kept
    const inflight = t.read();
    t.cache.drop("departments");
    await inflight;
    expect(t.cache.size).toBe(0);
    await t.feed.publish({ ...change, resource: { type: "employee", id: "1" } });
    await t.read();
    expect(t.cache.size).toBe(1);
  });

  it("drops the probationary periods and work contracts on an employment's change, the contracts alone on an employee's", async () => {
    const feed = new InProcessFeed();
    const cache = new ReferenceCache(60_000, feed, () => 0);
    let calls = 0;
    const fetch = async () => ({ call: ++calls });
    const periods = () => cache.read("me GET /service-api/probationary-periods", "probationary-periods", fetch);
    const contracts = () => cache.read("me GET /directory/api/4.0/work-contracts", "work-contracts", fetch);
    await periods();
    await contracts();
    const change = (type: string) => ({ id: `e-${type}`, topic: `${type}.updated`, occurredAt: "", resource: { type, id: "1" }, establishmentIds: [], previousAttributes: null });
    await feed.publish(change("employee"));
    expect(await periods()).toEqual({ call: 1 });
    expect(await contracts()).toEqual({ call: 3 });
    await feed.publish(change("employment"));
    expect(await periods()).toEqual({ call: 4 });
    expect(await contracts()).toEqual({ call: 5 });
    await feed.publish(change("job-position"));
    expect(calls).toBe(5);
    await periods();
    await contracts();
    expect(calls).toBe(5);
  });

  it("drops the legacy users on every change they show, the legacy establishments on those of their establishments and staff", async () => {
    const feed = new InProcessFeed();
    const cache = new ReferenceCache(60_000, feed, () => 0);
    let calls = 0;
    const fetch = async () => ({ call: ++calls });
    const users = () => cache.read("me GET /api/v3/users", "legacy-users", fetch);
    const establishments = () => cache.read("me GET /organization/structure/api/establishments", "legacy-establishments", fetch);
    const change = (type: string) => ({ id: `e-${type}`, topic: `${type}.updated`, occurredAt: "", resource: { type, id: "1" }, establishmentIds: [], previousAttributes: null });
    /** which of the two a change of `type` drops */
    const dropped = async (type: string) => {
      await users();
      await establishments();
      const before = calls;
      await feed.publish(change(type));
      const u = (await users())!.call > before;
      const e = (await establishments())!.call > before;
      return [u && "users", e && "establishments"].filter(Boolean);
    };
    for (const type of ["employee", "employment", "job-position", "business-establishment", "legal-entity"]) expect(await dropped(type)).toEqual(["users", "establishments"]);
    // the department, and the axis section a user is attached to, show on the user alone
    expect(await dropped("department")).toEqual(["users"]);
    expect(await dropped("axis-section")).toEqual(["users"]);
    expect(await dropped("job-qualification")).toEqual([]);
    expect(await dropped("time-entry")).toEqual([]);
  });

  it("holds the legacy time data for its own bound, dropped by the facade's writes of it heard on the feed", async () => {
    let now = 0;
    const feed = new InProcessFeed();
    const cache = new ReferenceCache(60_000, feed, () => now, 1000);
    let calls = 0;
    const fetch = async () => ({ call: ++calls });
    const entries = () => cache.read("me GET /api/v3/timeentries?ownerId=1", "time-entries", fetch);
    const sheets = () => cache.read("me GET /api/v3/timmitimesheets?ownerId=1", "timesheets", fetch);
    const sections = () => cache.read("me GET /api/v3/axisSections", "axis-sections", fetch);
    const departments = () => cache.read("me GET /service-api/departments", "departments", fetch);
    await Promise.all([entries(), sheets(), sections(), departments()]);
    now = 400;
    await Promise.all([entries(), sheets(), sections(), departments()]);
    expect(calls).toBe(4);
    now = 1000; // the legacy time bound, not the reference one
    await Promise.all([entries(), sheets(), sections(), departments()]);
    expect(calls).toBe(7);
    const written = (type: string) => ({ id: `facade-write:${type}`, topic: `${type}.updated`, occurredAt: "", resource: { type, id: "5" }, establishmentIds: [], previousAttributes: null });
    await feed.publish(written("time-entry"));
    await Promise.all([entries(), sheets(), sections()]);
    expect(calls).toBe(9); // the entries and their timesheet, not the sections
    await feed.publish(written("axis-section"));
    await Promise.all([entries(), sheets(), sections()]);
    expect(calls).toBe(10);
    expect(ReferenceCache.writtenBy("legacy", "/api/v3/timeentries/5")).toEqual({ type: "time-entry", collections: ["time-entries", "timesheets"] });
    // a section names the users attached to it
    expect(ReferenceCache.writtenBy("legacy", "/api/v3/axisSections/5")).toEqual({ type: "axis-section", collections: ["axis-sections", "legacy-users"] });
    // a user's write is dropped here; the other replicas hear the directory's own employee event of it
    expect(ReferenceCache.writtenBy("legacy", "/api/v3/users/5")).toEqual({ type: null, collections: ["legacy-users"] });
  });

  it("keeps at most 10 000 entries, dropping the least recently read", async () => {
    const cache = new ReferenceCache(60_000, null, () => 0);
    for (let i = 0; i < 10_001; i++) await cache.read(`me GET /service-api/departments/${i}`, "departments", async () => ({ i }));
    expect(cache.size).toBe(10_000);
    let fetched = false;
    await cache.read("me GET /service-api/departments/0", "departments", async () => ((fetched = true), { i: 0 }));
    expect(fetched).toBe(true);
  });

  it("keeps at most DIRECTORY_HELD_MB of bodies, dropping the least recently read, and counts them", async () => {
    const body = (i: number) => ({ i: String(i).padStart(2, "0"), text: "x".repeat(1000) });
    const size = Buffer.byteLength(JSON.stringify(body(0)));
    const cache = new ReferenceCache(60_000, null, () => 0, 0, 10 * size);
    for (let i = 0; i < 12; i++) await cache.read(`me GET /service-api/departments/${i}`, "departments", async () => body(i));
    expect({ size: cache.size, bytes: cache.bytes }).toEqual({ size: 10, bytes: 10 * size });
    let fetched = false;
    await cache.read("me GET /service-api/departments/0", "departments", async () => ((fetched = true), body(0)));
    expect(fetched).toBe(true);
    // a body larger than the whole bound is answered, not kept
    await cache.read("me GET /service-api/departments/big", "departments", async () => ({ text: "x".repeat(11 * size) }));
    expect(cache.bytes).toBeLessThanOrEqual(10 * size);
  });

  it("with the bound off, reads every time", async () => {
    const t = setup(0);
    await t.read();
    await t.read();
    expect(t.calls()).toBe(2);
  });
});
