import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { OPEN_WEEK, legacyGet } from "./helpers.js";

/**
 * The legacy one-to-many connections across subgraphs, through the gateway: contracts of the
 * organisation's establishments and time entries of the people's employees, with their upstream
 * calls counted per route, and their bad inputs refused before the first subgraph's fetch.
 */

const stack = useGatewayStack();

const legacyCalls = (route: string) => stack.stats().byRoute[route] ?? 0;

describe("through the gateway", () => {
  it("BusinessEstablishment.workContracts of a page of establishments costs one work-contract call, at first: 10 and first: 100", async () => {
    const rest = (await legacyGet(stack, "/directory/api/4.0/work-contracts?limit=1000")).items as any[];
    for (const first of [10, 100]) {
      stack.resetStats();
      const res = await stack.query(`query($first: Int) { businessEstablishments(first: 20) { nodes { id workContracts(first: $first) { totalCount nodes { id owner { id } } } } } }`, { first });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      expect(legacyCalls("GET /directory/api/4.0/work-contracts")).toBe(1);
      const nodes = res.data.businessEstablishments.nodes as any[];
      expect(nodes.length).toBeGreaterThan(1);
      for (const node of nodes) {
        const own = rest.filter((c) => String(c.establishmentId) === node.id);
        expect(node.workContracts.totalCount).toBe(own.length);
        expect(node.workContracts.nodes.map((c: any) => c.id)).toEqual(own.slice(0, first).map((c) => String(c.id)));
      }
    }
  });

  it("Employee.timeEntryConnection of 10 and of 100 employees costs the calls of one shared read (per 1000 entries)", async () => {
    for (const count of [10, 100]) {
      const page = await stack.query(`query($n: Int) { employees(first: $n) { nodes { id } } }`, { n: count });
      const ids = (page.data.employees.nodes as any[]).map((e) => e.id);
      const rest = await legacyGet(stack, `/api/v3/timeentries?ownerId=${ids.join(",")}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}&layer=notequal,1&paging=0,0`);
      stack.resetStats();
      const res = await stack.query(
        `query($n: Int, $week: DateRange) { employees(first: $n) { nodes { id timeEntryConnection(filter: { startsOn: $week }, first: 10) { totalCount nodes { id owner { id } } } } } }`,
        { n: count, week: OPEN_WEEK },
      );
      expect(res.errors).toBeUndefined();
      expect(legacyCalls("GET /api/v3/timeentries")).toBe(Math.max(1, Math.ceil(rest.data.count / 1000)));
      const nodes = res.data.employees.nodes as any[];
      expect(nodes.reduce((sum, e) => sum + e.timeEntryConnection.totalCount, 0)).toBe(rest.data.count);
      expect(nodes.every((e) => e.timeEntryConnection.nodes.every((t: any) => t.owner.id === e.id))).toBe(true);
    }
  });

  it.each([
    ["a date-time on no calendar day", `{ employees(first: 5) { nodes { timeEntryConnection(filter: { startsAt: { from: "2026-02-30T08:00:00" } }) { totalCount } } } }`],
    ["a reversed date-time range", `{ employees(first: 5) { nodes { timeEntryConnection(filter: { startsAt: { from: "2026-06-02T08:00:00", to: "2026-06-01T08:00:00" } }) { totalCount } } } }`],
    ["an empty owner list", `{ timeEntries(filter: { ownerIds: [] }) { totalCount } }`],
    ["days and date-times together", `{ employees(first: 5) { nodes { timeEntryConnection(filter: { startsOn: { from: "2026-06-01" }, startsAt: { from: "2026-06-01T08:00:00" } }) { totalCount } } } }`],
    ["a reversed range of the list", `{ employees(first: 5) { nodes { timeEntries(from: "2026-06-02", to: "2026-06-01") { id } } } }`],
  ])("refuses %s before any upstream call", async (_name, source) => {
    stack.resetStats();
    const res = await stack.query(source);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(stack.stats().byRoute).filter((route) => !route.includes("/connect/token"))).toEqual([]);
  });
});
