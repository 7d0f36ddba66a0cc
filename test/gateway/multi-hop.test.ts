import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Eight operations that hop across the graph's edges and subgraphs, each at `first: 10` and
 * `first: 100`, through the gateway, with their upstream calls (counted by the in-process
 * directory, the service token aside). They stay the same when the page grows tenfold, except
 * where the larger page references more than 100 distinct items of one kind: an id filter takes
 * 100 ids a call (docs/performance.md, "Batching rules"), so those cost one more call per 100 ids,
 * pinned below with the reason. MULTI_HOP_REPORT=1 prints the calls of each route.
 */

const stack = useGatewayStack();
const WEEK = { from: "2026-06-08", to: "2026-06-14" };

const OPERATIONS: Record<string, string> = {
  "employees with position, manager, department, establishment and legal entity": `query($n: Int) { employees(first: $n) { nodes {
    familyName applicableJobPosition { jobTitle manager { familyName } department { name }
      businessEstablishment { name legalEntity { legalName } } } } } }`,
  "departments with their positions, holders and qualifications' professions": `query($n: Int) { departments(first: 10) { nodes {
    name jobPositions(first: $n) { nodes { jobTitle employee { familyName } jobQualification { title profession { title } } } } } } }`,
  "legal entities with their employees and work contracts": `query($n: Int) { legalEntities(first: 1) { nodes {
    legalName employees(first: $n) { totalCount nodes { familyName workContracts { trialPeriodDays } } } } } }`,
  "work contracts with owner, applicable position and establishment": `query($n: Int) { workContracts(first: $n) { nodes {
    startsOn owner { familyName applicableJobPosition { jobTitle department { name } } } establishment { name legalEntity { legalName } } } } }`,
  "job qualifications with profession and their positions' holders": `query($n: Int) { jobQualifications(first: 10) { nodes {
    title profession { title } jobPositions(first: $n) { nodes { employee { familyName portrait { downloadUrl } } } } } } }`,
  "attribute values with their taxonomy labels and employee": `query($n: Int) { employeeAttributes(first: $n) { nodes {
    value taxonomyLabels { name taxonomy { name } } definition { name } employee { familyName applicableEmployment { template { title } } } } } }`,
  "webhook deliveries with event, employee, endpoint and attempts": `query($n: Int) { webhookDeliveries(first: $n) { nodes {
    status event { topic employee { familyName } businessEstablishment { name } } webhookEndpoint { name } attempts { nodes { isSuccessful responseStatusCode } } } } }`,
  "employees with a week of time entries and their establishment's legacy data and contracts": `query($n: Int, $week: DateRange) { employees(first: $n) { nodes {
    familyName timeEntryConnection(first: 5, filter: { startsOn: $week }) { nodes { startsAt axisSections { code parent { code } } } }
    applicableJobPosition { businessEstablishment { name legacy { usersCount } workContracts(first: 5) { nodes { id } } } } } } }`,
};

/** Where 100 costs more than 10: the routes, and why. */
const GROWTH: Record<string, { route: string; at10: number; at100: number }[]> = {
  // the positions' holders: 10 departments' first 100 positions hold more than 100 people
  "departments with their positions, holders and qualifications' professions": [{ route: "GET /service-api/employees", at10: 1, at100: 2 }],
  // the positions' holders, with their portrait's address (include=links) in the same read, 100
  // ids a call: 10 qualifications' first 100 positions hold between 201 and 300 people
  "job qualifications with profession and their positions' holders": [{ route: "GET /service-api/employees", at10: 1, at100: 3 }],
};

const byRoute = (): Record<string, number> => {
  const { "POST /connect/token": _token, ...rest } = stack.stats().byRoute;
  return rest;
};

describe("multi-hop operations through the gateway", () => {
  it.each(Object.entries(OPERATIONS))("%s: the same upstream calls at first: 10 and first: 100, but for 100 ids a call", async (name, source) => {
    const calls: Record<number, Record<string, number>> = {};
    for (const n of [10, 100]) {
      stack.resetStats();
      const res = await stack.query(source, { n, week: WEEK });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      calls[n] = byRoute();
    }
    const total = (n: number) => Object.values(calls[n]!).reduce((a, b) => a + b, 0);
    if (process.env.MULTI_HOP_REPORT) console.log(`${name}: ${total(10)} calls at first: 10, ${total(100)} at first: 100 ${JSON.stringify(calls)}`);
    const expected100 = { ...calls[10] };
    for (const { route, at10, at100 } of GROWTH[name] ?? []) {
      expect(calls[10]![route], route).toBe(at10);
      expected100[route] = at100;
    }
    expect(calls[100]).toEqual(expected100);
  });
});
