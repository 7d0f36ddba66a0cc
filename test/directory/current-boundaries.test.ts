import { beforeAll, describe, expect, it } from "vitest";
import { Expect, directoryToken, get } from "./current-helpers.js";
import { TODAY, useDirectory } from "../helpers/stack.js";

/**
 * Statuses on their boundary days: both ends of a range are inclusive. The company is large enough
 * (2 000 employees) for the demo data to hold records that start or end on `today`.
 */

const TOMORROW = "2026-06-16";

const directory = useDirectory({ employees: 2000, today: TODAY });
let token: string;
let x: Expect;

beforeAll(async () => {
  token = await directoryToken(directory.url);
  x = new Expect(directory.company);
});

describe("status boundaries", () => {
  it("an employment that ends today is still active", async () => {
    const ending = directory.company.employments.filter((e) => e.endDate === TODAY);
    expect(ending.length).toBeGreaterThan(0);
    const { body } = await get(directory.url, token, `/service-api/employments?end.date=${TODAY}`);
    expect(body.items.map((i: any) => [i.id, i.status])).toEqual(ending.map((e) => [e.id, "active"]));
  });

  it("a job position that ends today is still active", async () => {
    const ending = directory.company.jobPositions.filter((p) => x.positionEndsOn(p) === TODAY);
    expect(ending.length).toBeGreaterThan(0);
    const { body } = await get(directory.url, token, `/service-api/job-positions?endsOn=${TODAY}`);
    expect(body.items.map((i: any) => [i.id, i.status])).toEqual(ending.map((p) => [p.id, "active"]));
  });

  it("an employment that starts today is active", async () => {
    const starting = directory.company.employments.filter((e) => e.startDate === TODAY);
    expect(starting.length).toBeGreaterThan(0);
    const { body } = await get(directory.url, token, `/service-api/employments?start.date=${TODAY}`);
    expect(body.items.map((i: any) => [i.id, i.status])).toEqual(starting.map((e) => [e.id, "active"]));
  });

  it("a job position that starts tomorrow is upcoming", async () => {
    const starting = directory.company.jobPositions.filter((p) => p.startsOn === TOMORROW);
    expect(starting.length).toBeGreaterThan(0);
    const { body } = await get(directory.url, token, `/service-api/job-positions?startsOn=${TOMORROW}`);
    expect(body.items.map((i: any) => [i.id, i.status])).toEqual(starting.map((p) => [p.id, "upcoming"]));
  });

});
