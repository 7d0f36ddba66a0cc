import { beforeAll, describe, expect, it } from "vitest";
import { legacyAll, legacyAllByValues, legacyData, legacyListByIdsLoader, legacyPages } from "../../subgraphs/shared/upstream/index.js";
import { upstreamError, useUpstreamFixture } from "./fixture.js";

interface TimeEntry {
  id: number;
  ownerId: number;
  unit: number;
  startsAt: string;
  duration: string;
}

describe("the legacy API", () => {
  const fx = useUpstreamFixture({ employees: 150 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("time entries are read through every offset page", async () => {
    const session = fx.upstream.session();
    const owners = ids.slice(0, 3);
    const whole = await session.legacy.get<{ data: { items: TimeEntry[]; count: number } }>("/api/v3/timeentries", {
      ownerId: owners,
      paging: "0,1000",
    });
    expect(whole.data.count).toBeGreaterThan(7);
    fx.reset();
    const pages: TimeEntry[][] = [];
    for await (const page of legacyPages<TimeEntry>(session.legacy, "/api/v3/timeentries", "offset", { ownerId: owners, limit: 7 })) pages.push(page);
    expect(pages.flat()).toEqual(whole.data.items);
    expect(pages).toHaveLength(Math.ceil(whole.data.count / 7));
    expect(fx.stats().byRoute["GET /api/v3/timeentries"]).toBe(pages.length);
  });

  it("work contracts are read page by page until the count is reached", async () => {
    fx.reset();
    const contracts = await legacyAll<{ id: number }>(fx.upstream.session().legacy, "/directory/api/4.0/work-contracts", "page", { limit: 40 });
    const expected = fx.directory.company.employments.length;
    expect(new Set(contracts.map((c) => c.id)).size).toBe(expected);
    expect(fx.stats().byRoute["GET /directory/api/4.0/work-contracts"]).toBe(Math.ceil(expected / 40));
  });

  it("establishments are read by following the next cursor", async () => {
    fx.reset();
    const all = await legacyAll<{ id: number }>(fx.upstream.session().legacy, "/organization/structure/api/establishments", "cursor", {
      limit: 2,
      isArchived: "true,false",
    });
    const expected = fx.directory.company.businessEstablishments.map((b) => Number(b.id));
    expect(all.map((b) => b.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(fx.stats().byRoute["GET /organization/structure/api/establishments"]).toBe(Math.ceil(expected.length / 2));
  });

  it("users by id are read 100 per call and answered in key order", async () => {
    fx.reset();
    const loader = legacyListByIdsLoader<{ id: number }>(fx.upstream.session(), "/api/v3/users", { query: { fields: "id,name", formerEmployees: "true" } });
    const wanted = [...ids.slice(0, 140)].reverse();
    const got = await Promise.all([...wanted, "999999", "abc"].map((id) => loader.load(id)));
    expect(got.slice(0, 140).map((u) => String(u?.id))).toEqual(wanted);
    expect(got.slice(140)).toEqual([null, null]);
    expect(fx.stats().byRoute).toEqual({ "GET /api/v3/users": 2 });
  });

  it("chunked reads without paging make one call per 100 values", async () => {
    fx.reset();
    const users = await legacyAllByValues<{ id: number }>(fx.upstream.session(), "/api/v3/users", "id", ids.slice(0, 150), { fields: "id", formerEmployees: "true" });
    expect(users).toHaveLength(150);
    expect(fx.stats().byRoute).toEqual({ "GET /api/v3/users": 2 });
  });

  it("a time-entry rule violation is BAD_USER_INPUT with its rule number and message", async () => {
    const session = fx.upstream.session();
    const page = await session.legacy.get<{ data: { items: TimeEntry[] } }>("/api/v3/timeentries", { ownerId: ids.slice(0, 5), paging: "0,1" });
    const entry = page.data.items[0]!;
    const err = await upstreamError(
      session.legacy.put(`/api/v3/timeentries/${entry.id}`, {
        id: entry.id,
        ownerId: entry.ownerId,
        unit: entry.unit,
        startsAt: `${entry.startsAt}Z`,
        duration: entry.duration,
      }),
    );
    expect(err.code).toBe("BAD_USER_INPUT");
    expect(err.rule).toBe(2);
    expect(err.detail).toMatch(/^Rule 2: /);
  });

  it("a single read's data wrapper is removed by legacyData", async () => {
    const body = await fx.upstream.session().legacy.get(`/api/v3/users/${ids[0]}`);
    expect(legacyData<{ id: number }>(body).id).toBe(Number(ids[0]));
  });
});
