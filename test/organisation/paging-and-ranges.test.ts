import { describe, expect, it } from "vitest";
import { useStack, type Stack } from "../helpers/stack.js";
import { subgraphClient } from "../helpers/subgraph.js";

/**
 * Two rules of the shared connection and filter code (docs/graph.md#connections,
 * docs/graph.md#filters-and-sorts), on one list of each subgraph:
 * - `first: 0` that says more follow gives an `endCursor` to continue from;
 * - a `DateRange` with neither bound does not filter (it used to send `..--..`).
 */

const stack = useStack({ subgraphs: ["people", "organisation", "legacy-time"] });
const people = subgraphClient("people");
const organisation = subgraphClient("organisation");
const legacy = subgraphClient("legacy-time");

describe("first: 0", () => {
  const lists: Array<[string, typeof people, string]> = [
    ["people", people, "employees"],
    ["organisation", organisation, "departments"],
    ["legacy-time", legacy, "axisSections"],
  ];
  for (const [name, client, field] of lists) {
    it(`${name} ${field}: hasNextPage with a cursor of the start, from which the next page is the first page`, async () => {
      const s: Stack = stack;
      const empty = await client.query(s, `{ ${field}(first: 0) { nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`);
      expect(empty[field].nodes).toEqual([]);
      expect(empty[field].pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: null });
      expect(empty[field].pageInfo.endCursor).toEqual(expect.any(String));
      const first = await client.query(s, `{ ${field}(first: 3) { nodes { id } pageInfo { endCursor } } }`);
      const resumed = await client.query(s, `query($a: String) { ${field}(first: 3, after: $a) { nodes { id } pageInfo { hasPreviousPage } } }`, {
        a: empty[field].pageInfo.endCursor,
      });
      expect(resumed[field].nodes).toEqual(first[field].nodes);
      expect(resumed[field].nodes).toHaveLength(3);
      // from the middle: the cursor it was asked after, so the next page follows it
      const middle = await client.query(s, `query($a: String) { ${field}(first: 0, after: $a) { pageInfo { hasNextPage endCursor } } }`, {
        a: first[field].pageInfo.endCursor,
      });
      expect(middle[field].pageInfo).toEqual({ hasNextPage: true, endCursor: first[field].pageInfo.endCursor });
    });
  }
});

describe("a DateRange with neither bound", () => {
  it("does not filter a people list: applicableEmploymentStartsOnBetween: {} is every employee", async () => {
    const source = `query($f: EmployeeFilter) { employees(first: 1, filter: $f) { totalCount } }`;
    const all = await people.query(stack, source, { f: null });
    expect(all.employees.totalCount).toBe(300);
    for (const f of [{ applicableEmploymentStartsOnBetween: {} }, { applicableEmploymentEndsOnBetween: { from: null, to: null } }]) {
      expect((await people.query(stack, source, { f })).employees.totalCount, JSON.stringify(f)).toBe(300);
    }
    // one bound still filters
    const bounded = await people.query(stack, source, { f: { applicableEmploymentStartsOnBetween: { from: "2026-01-01" } } });
    expect(bounded.employees.totalCount).toBeLessThan(300);
  });

  it("does not filter the legacy users: contractStart: {} is the same list as no filter", async () => {
    const source = `query($f: LegacyUserFilter) { legacyUsers(first: 100, filter: $f) { nodes { id } } }`;
    const all = await legacy.query(stack, source, { f: {} });
    expect(all.legacyUsers.nodes.length).toBeGreaterThan(0);
    expect((await legacy.query(stack, source, { f: { contractStart: {} } })).legacyUsers).toEqual(all.legacyUsers);
  });
});
