import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { directoryToken, foldText, get } from "./current-helpers.js";

/**
 * A list page costs the same in a company of 100 000 employees as in one of 300: sorted orders
 * and filter indexes are built once, a cursor is found by binary search, and a selective filter
 * walks its index. The cost is counted (`RunningDirectory.work`) rather than timed, so that the
 * comparison holds whatever the speed and load of the machine: a page that scanned or counted
 * the whole company would examine 100 000 records, and one that rebuilt an index or a sorted
 * order would build a cache; either fails at once.
 */

interface Company {
  directory: RunningDirectory;
  token: string;
}

let small: Company;
let large: Company;

async function start(employees: number): Promise<Company> {
  const directory = await startDirectory({ limits: { requests: 0 }, employees, today: "2026-06-15" });
  return { directory, token: await directoryToken(directory.url) };
}

beforeAll(async () => {
  [small, large] = await Promise.all([start(300), start(100_000)]);
}, 120_000);
afterAll(async () => {
  await small?.directory.close();
  await large?.directory.close();
});

/** One page of `path`, after a first request that may build caches: what it cost, and its body. */
async function measure(company: Company, path: string): Promise<{ examined: number; built: number; body: any }> {
  const { directory, token } = company;
  expect((await get(directory.url, token, path)).status).toBe(200);
  const before = { ...directory.work };
  const { body } = await get(directory.url, token, path);
  return {
    examined: directory.work.recordsExamined - before.recordsExamined,
    built: directory.work.cachesBuilt - before.cachesBuilt,
    body,
  };
}

/** the next link followed `pages` times from `path` */
async function deepPath(company: Company, path: string, pages: number): Promise<string> {
  let href = `${company.directory.url}${path}`;
  for (let i = 0; i < pages; i++) href = (await get(company.directory.url, company.token, href)).body.links.next.href;
  return href.slice(company.directory.url.length);
}

describe("a list page at 100 000 employees", () => {
  // the generator at scale (once generate-scale.test.ts, which generated a company of its own and
  // timed it against 30 s, a bound a busy machine broke): the large company is whole
  it("the large company holds 100 000 employees, the last with id 100000", () => {
    expect(large.directory.company.employees).toHaveLength(100_000);
    expect(large.directory.company.employees[99_999]!.id).toBe("100000");
  });

  it("the first page of employees examines as many records as at 300", async () => {
    const path = "/service-api/employees?limit=100";
    const [atSmall, atLarge] = [await measure(small, path), await measure(large, path)];
    expect(atLarge.body.items).toHaveLength(100);
    expect(atLarge.examined).toBe(atSmall.examined);
    expect(atLarge.built).toBe(0);
  });

  it("a page deep in the familyName order examines no more than the page and its neighbours", async () => {
    const path = await deepPath(large, "/service-api/employees?limit=100&sort=familyName&include=links", 30);
    const { examined, built, body } = await measure(large, path);
    expect(body.items).toHaveLength(100);
    expect(examined).toBeLessThanOrEqual(2 * 101);
    expect(built).toBe(0);
  });

  it("the employees of one department, with their count, cost what the department holds", async () => {
    const departmentId = large.directory.company.jobPositions[500]!.departmentId;
    const { examined, built, body } = await measure(
      large,
      `/service-api/employees?applicableJobPosition.department.id=${departmentId}&include=totalCount&limit=50`,
    );
    expect(body.totalCount).toBeGreaterThan(0);
    expect(body.totalCount).toBeLessThan(10_000);
    expect(examined).toBeLessThanOrEqual(body.totalCount + 2 * 51);
    expect(built).toBe(0);
  });

  it("a name search sorted by family name, with its count, costs what the rarest word matches", async () => {
    const { examined, built, body } = await measure(
      large,
      "/service-api/employees?search=ma&status=active&sort=familyName&limit=20&include=totalCount",
    );
    expect(body.items).toHaveLength(20);
    // the records whose names have a word starting with "ma": the active ones and the others
    const candidates = large.directory.company.employees.filter((e) =>
      foldText(`${e.givenName} ${e.familyName}`)
        .split(/[\s\-_,.]+/)
        .some((w) => w.startsWith("ma")),
    ).length;
    expect(candidates).toBeLessThan(50_000);
    expect(examined).toBeLessThanOrEqual(candidates + 2 * 21);
    expect(built).toBe(0);
  });

  it("the job positions of a few employees examine as many records as at 300", async () => {
    const path = "/service-api/job-positions?employment.employee.id=1,150,299&limit=100";
    const [atSmall, atLarge] = [await measure(small, path), await measure(large, path)];
    expect(atLarge.body.items.length).toBeGreaterThanOrEqual(3);
    expect(atLarge.examined).toBe(atSmall.examined);
    expect(atLarge.built).toBe(0);
  });

  it("a page of job positions sorted by their computed end examines as many records as at 300", async () => {
    const path = "/service-api/job-positions?sort=-endsOn&limit=100";
    const [atSmall, atLarge] = [await measure(small, path), await measure(large, path)];
    expect(atLarge.body.items).toHaveLength(100);
    expect(atLarge.examined).toBe(atSmall.examined);
    expect(atLarge.built).toBe(0);
  });
});
