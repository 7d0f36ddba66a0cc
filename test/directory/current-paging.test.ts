import { beforeAll, describe, expect, it } from "vitest";
import { Expect, directoryToken, foldText, get, getAll, ids, type Answer } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/** Keyset paging over a company of 1 000 employees: nothing lost, nothing repeated. */

const directory = useDirectory({ employees: 1000, today: "2026-06-15" });
let token: string;

beforeAll(async () => {
  token = await directoryToken(directory.url);
});

const fold = foldText;

function expectNoRepeats(list: string[]): void {
  expect(new Set(list).size).toBe(list.length);
}

describe("paging through 1 000 employees", () => {
  it("by id, every employee comes exactly once and in order", async () => {
    const { items, pages } = await getAll(directory.url, token, "/service-api/employees?limit=100");
    expect(pages).toBe(10);
    expect(ids(items)).toEqual(directory.company.employees.map((e) => e.id));
  });

  it("by familyName with an odd page size, every employee comes exactly once in name order", async () => {
    const { items, pages } = await getAll(directory.url, token, "/service-api/employees?limit=37&sort=familyName");
    expect(pages).toBe(Math.ceil(1000 / 37));
    const got = ids(items);
    expectNoRepeats(got);
    expect([...got].sort()).toEqual(directory.company.employees.map((e) => e.id).sort());
    for (let i = 1; i < items.length; i++) expect(fold(items[i - 1].familyName) <= fold(items[i].familyName)).toBe(true);
    // the demo has many namesakes: ties are where offset paging would go wrong
    expect(new Set(items.map((i) => i.familyName)).size).toBeLessThan(900);
  });

  it("by -createdAt, every employee comes exactly once, newest first", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/employees?limit=100&sort=-createdAt");
    expectNoRepeats(ids(items));
    expect(items).toHaveLength(1000);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].createdAt >= items[i].createdAt).toBe(true);
  });

  it("following prev links from the last page walks the same sequence backwards", async () => {
    const forward: Answer[] = [];
    let next: string | null = `${directory.url}/service-api/employees?limit=64&sort=-familyName&include=links`;
    while (next) {
      const page: Answer = await get(directory.url, token, next);
      forward.push(page);
      next = page.body.links.next?.href ?? null;
    }
    const backward: string[][] = [];
    let page: Answer = forward[forward.length - 1]!;
    backward.unshift(ids(page.body.items));
    while (page.body.links.prev) {
      page = await get(directory.url, token, page.body.links.prev.href);
      backward.unshift(ids(page.body.items));
    }
    expect(backward.flat()).toEqual(forward.flatMap((p) => ids(p.body.items)));
  });

  it("with a filter, the pages hold exactly the totalCount matching employees", async () => {
    const x = new Expect(directory.company);
    const expected = directory.company.employees.filter((e) => x.employeeStatus(e.id) === "active").map((e) => e.id);
    const first = await get(directory.url, token, "/service-api/employees?limit=1&status=active&include=totalCount");
    expect(first.body.totalCount).toBe(expected.length);
    const { items } = await getAll(directory.url, token, "/service-api/employees?limit=45&status=active&sort=familyName");
    expectNoRepeats(ids(items));
    expect([...ids(items)].sort()).toEqual([...expected].sort());
  });

  it("job positions sorted by endsOn (with open ends) page through without loss or repeat", async () => {
    const { items } = await getAll(directory.url, token, "/service-api/job-positions?limit=100&sort=endsOn");
    expect(items).toHaveLength(directory.company.jobPositions.length);
    expectNoRepeats(ids(items));
    const firstOpen = items.findIndex((i) => i.endsOn === null);
    expect(firstOpen).toBeGreaterThan(0);
    expect(items.slice(firstOpen).every((i) => i.endsOn === null)).toBe(true);
  });

  it("demo-limited pages through only what it may see", async () => {
    const limited = await directoryToken(directory.url, "demo-limited");
    const x = new Expect(directory.company);
    const { items } = await getAll(directory.url, limited, "/service-api/employees?limit=30&sort=familyName");
    expectNoRepeats(ids(items));
    expect([...ids(items)].sort()).toEqual(directory.company.employees.filter((e) => x.visibleToLimited(e.id)).map((e) => e.id).sort());
  });
});
