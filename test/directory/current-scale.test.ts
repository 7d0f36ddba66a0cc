import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { fetchToken, get } from "./current-helpers.js";

/**
 * A page of a 100 000-employee company costs about what it costs at 300: sorted orders are built
 * once, cursors are found by binary search, and selective filters walk an index. The bound is
 * generous (the suite runs beside others on two cores); the point is that no page scans or sorts
 * the company.
 */

const PAGE_BUDGET_MS = 200;

let directory: RunningDirectory;
let token: string;

beforeAll(async () => {
  directory = await startDirectory({ employees: 100_000, today: "2026-06-15" });
  token = await fetchToken(directory.url);
}, 120_000);
afterAll(() => directory?.close());

/** the median duration of a few requests of `path`, after one that may build caches */
async function medianMs(path: string, runs = 5): Promise<{ ms: number; body: any }> {
  const warm = await get(directory.url, token, path);
  expect(warm.status).toBe(200);
  const times: number[] = [];
  let body: any;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const answer = await get(directory.url, token, path);
    times.push(performance.now() - start);
    body = answer.body;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(runs / 2)]!, body };
}

describe("a company of 100 000 employees", () => {
  it("serves the first page of employees fast", async () => {
    const { ms, body } = await medianMs("/service-api/employees?limit=100");
    expect(body.items).toHaveLength(100);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });

  it("serves a page deep in the familyName order fast", async () => {
    let href = `${directory.url}/service-api/employees?limit=100&sort=familyName`;
    for (let i = 0; i < 3; i++) href = (await get(directory.url, token, href)).body.links.next.href;
    const { ms, body } = await medianMs(href.slice(directory.url.length));
    expect(body.items).toHaveLength(100);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });

  it("serves the employees of one department, with their count, fast", async () => {
    const departmentId = directory.company.jobPositions[500]!.departmentId;
    const { ms, body } = await medianMs(
      `/service-api/employees?applicableJobPosition.department.id=${departmentId}&include=totalCount&limit=50`,
    );
    expect(body.totalCount).toBeGreaterThan(0);
    expect(body.totalCount).toBeLessThan(100_000);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });

  it("serves a name search sorted by family name, with its count, fast", async () => {
    const { ms, body } = await medianMs("/service-api/employees?search=ma&status=active&sort=familyName&limit=20&include=totalCount");
    expect(body.items).toHaveLength(20);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });

  it("serves the job positions of a few employees fast", async () => {
    const { ms, body } = await medianMs("/service-api/job-positions?employment.employee.id=1,50000,99999&limit=100");
    expect(body.items.length).toBeGreaterThanOrEqual(3);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });

  it("serves a page of job positions sorted by their computed end fast", async () => {
    const { ms, body } = await medianMs("/service-api/job-positions?sort=-endsOn&limit=100");
    expect(body.items).toHaveLength(100);
    expect(ms).toBeLessThan(PAGE_BUDGET_MS);
  });
});
