import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TODAY, addDays, startLegacy, type LegacyClient } from "./legacy-helpers.js";

/**
 * DIRECTORY_SEED (`seed`) draws another company, and with it what only the legacy API knows:
 * work-contract details, time entries, axis sections. Those are drawn when first asked for, per
 * employee or contract id, so a stream keyed by the id alone would repeat itself whatever the seed.
 */

const OWNERS = Array.from({ length: 60 }, (_, i) => i + 1);
let seed1: LegacyClient;
let seed2: LegacyClient;

beforeAll(async () => {
  [seed1, seed2] = await Promise.all([startLegacy({ employees: 60 }), startLegacy({ employees: 60, seed: 2 })]);
});
afterAll(async () => {
  await seed1?.close();
  await seed2?.close();
});

/** the unit in which each owner's time entries are kept, by owner id (owners without entries left out) */
async function unitsByOwner(api: LegacyClient): Promise<Map<number, number>> {
  const res = await api.get(`/api/v3/timeentries?ownerId=${OWNERS.join(",")}&startsAt=between,${addDays(TODAY, -7)},${TODAY}&paging=0,1000`);
  return new Map(res.body.data.items.map((e: any) => [e.ownerId, e.unit]));
}

describe("the seed", () => {
  test("changes how the same users keep their time", async () => {
    const [a, b] = [await unitsByOwner(seed1), await unitsByOwner(seed2)];
    const both = [...a.keys()].filter((owner) => b.has(owner));
    expect(both.length).toBeGreaterThan(10);
    expect(both.filter((owner) => a.get(owner) !== b.get(owner)).length).toBeGreaterThan(0);
  });

  test("changes the axis section tree", async () => {
    const shape = async (api: LegacyClient) =>
      (await api.get("/api/v3/axisSections")).body.data.items.map((s: any) => [s.id, s.active, s.isPublic, s.description]);
    const [a, b] = [await shape(seed1), await shape(seed2)];
    expect(a.length).toBeGreaterThan(0);
    expect(b).not.toEqual(a);
  });

  test("changes the details of the same work contracts", async () => {
    const hiringTypes = async (api: LegacyClient) =>
      (await api.get("/directory/api/4.0/work-contracts?limit=1000")).body.items.map((c: any) => [c.id, c.hiringTypeId]);
    const [a, b] = [new Map(await hiringTypes(seed1)), new Map(await hiringTypes(seed2))];
    const both = [...a.keys()].filter((id) => b.has(id));
    expect(both.length).toBeGreaterThan(10);
    expect(both.filter((id) => a.get(id) !== b.get(id)).length).toBeGreaterThan(0);
  });

  test("draws the same legacy data again for the same seed", async () => {
    const again = await startLegacy({ employees: 60, seed: 2 });
    // the answers of two services differ only in the origin of their urls
    const read = async (api: LegacyClient, path: string) => JSON.stringify((await api.get(path)).body).replaceAll(api.directory.url, "");
    try {
      for (const path of [
        `/api/v3/timeentries?ownerId=${OWNERS.join(",")}&startsAt=between,${addDays(TODAY, -14)},${TODAY}&paging=0,1000`,
        "/api/v3/axisSections",
        `/api/v3/users?id=${OWNERS.join(",")}&fields=userWorkCycles,extendedData,habilitedRoles,calendarId`,
        "/directory/api/4.0/work-contracts?limit=1000",
      ]) {
        expect(await read(again, path)).toEqual(await read(seed2, path));
      }
    } finally {
      await again.close();
    }
  });
});
