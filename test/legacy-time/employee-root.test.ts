import { beforeAll, describe, expect, it } from "vitest";
import { measureRounds } from "../helpers/rounds.js";
import { pickDemoData, type Demo } from "../helpers/operations.js";
import { upstreamCalls, useStack, type Stack } from "../helpers/stack.js";
import { OPEN_WEEK } from "./helpers.js";

/**
 * legacy-time's `employee(id:)`, shared with people's (docs/performance.md#what-a-company-router-gets):
 * the same answers and refusals as people's, and, with the legacy fields the operation reads of
 * the employee started beside the employee's own read (employee.prefetch.ts), one round of
 * upstream calls, each call made once. Forward mode: forward.test.ts.
 */

const stack = useStack({ subgraphs: ["people", "legacy-time"] });
// the same subgraph with its prefetch turned off: the legacy reads wait for the employee
const unprefetched = useStack({ subgraphs: ["legacy-time"], env: { SUBGRAPH_MECHANISMS_OFF: "prefetch-employee" } });
let demo: Demo;
const people = () => stack.subgraphs.people!.url;
const legacy = (s: Stack = stack) => s.subgraphs["legacy-time"]!.url;

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});

const NAMES = "query($id: ID!) { employee(id: $id) { id givenName familyName } }";

describe("employee(id:) in legacy-time", () => {
  it("answers an employee's id and names as people's does", async () => {
    for (const id of [demo.timesheet.id, "1", "5"]) {
      const [fromPeople, fromLegacy] = await Promise.all([stack.gql(people(), NAMES, { id }), stack.gql(legacy(), NAMES, { id })]);
      expect(fromLegacy.errors).toBeUndefined();
      expect(fromLegacy.data.employee).toEqual({ id, givenName: expect.any(String), familyName: expect.any(String) });
      expect(fromLegacy.data).toEqual(fromPeople.data);
    }
  });

  it("is null for an id no employee has, a legacy id or not (an employee's id is the current API's), as people's is", async () => {
    for (const id of ["999999", "abc-1"]) {
      const [fromPeople, fromLegacy] = await Promise.all([stack.gql(people(), NAMES, { id }), stack.gql(legacy(), NAMES, { id })]);
      expect(fromLegacy.errors).toBeUndefined();
      expect(fromLegacy.data).toEqual({ employee: null });
      expect(fromLegacy).toEqual(fromPeople);
    }
  });

  it("refuses a malformed id as people's does, with the same client error, before any upstream call", async () => {
    const literal = (id: string) => `{ employee(id: ${JSON.stringify(id)}) { id givenName timeEntries(from: "${OPEN_WEEK.from}", to: "${OPEN_WEEK.to}") { id } } }`;
    for (const id of ["1,2", "", "a".repeat(129), "é", "10 "]) {
      for (const [query, variables] of [
        [NAMES, { id }],
        [literal(id), {}],
      ] as const) {
        // people's employee(id:) has no timeEntries: the same refusal with its own selection
        const peopleQuery = query === NAMES ? NAMES : `{ employee(id: ${JSON.stringify(id)}) { id givenName } }`;
        const fromPeople = await stack.gql(people(), peopleQuery, variables);
        stack.resetStats();
        const fromLegacy = await stack.gql(legacy(), query, variables);
        expect(upstreamCalls(stack.stats()), `${id}: upstream calls`).toBe(0);
        expect(fromLegacy.errors?.[0]?.extensions?.code, id).toBe("BAD_USER_INPUT");
        expect(fromLegacy.errors!.map((e: any) => ({ message: e.message, code: e.extensions?.code }))).toEqual(
          fromPeople.errors!.map((e: any) => ({ message: e.message, code: e.extensions?.code })),
        );
        expect(fromLegacy.data ?? null).toEqual(fromPeople.data ?? null);
      }
    }
  });
});

describe("its legacy fields start with the employee's read (employee.prefetch.ts)", () => {
  const SELECTION = `query($id: ID!, $from: Date!, $to: Date!, $since: LocalDateTime) {
    employee(id: $id) {
      id givenName familyName
      timeEntries(from: $from, to: $to) { id }
      theoretical: timeEntries(from: $from, to: $to, includeTheoretical: true, lastUpdatedSince: $since) { id }
      workContracts { id }
      applicableWorkContract { id }
      legacyUser { login }
      timeEntryConnection(first: 5, filter: { startsOn: { from: $from, to: $to } }) { totalCount nodes { id } }
    }
  }`;
  const run = (s: Stack) => async () => {
    const res = await s.gql(legacy(s), SELECTION, { id: demo.timesheet.id, from: demo.timesheet.from, to: demo.timesheet.to, since: "2020-01-01T00:00:00" });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res;
  };
  const measure = async (s: Stack) => {
    await run(s)(); // the token
    s.resetStats();
    const { result, waves } = await measureRounds(s.directory, run(s));
    return { data: result.data, byRoute: s.stats().byRoute, rounds: waves.length };
  };

  it("one round where the fields alone wait for the employee; each call made once, the calls of the fields alone", async () => {
    const prefetched = await measure(stack);
    const alone = await measure(unprefetched);
    expect(prefetched.data).toEqual(alone.data);
    expect(prefetched.data.employee.timeEntries.length).toBeGreaterThan(0);
    expect(prefetched.byRoute).toEqual(alone.byRoute);
    expect(prefetched.byRoute).toEqual({
      "GET /service-api/employees": 1,
      // the list, the list with the theoretical layer, the connection
      "GET /api/v3/timeentries": 3,
      "GET /directory/api/4.0/work-contracts": 1,
      "GET /api/v3/users": 1,
    });
    expect({ prefetched: prefetched.rounds, alone: alone.rounds }).toEqual({ prefetched: 1, alone: 2 });
  });

  it("an employee that does not exist is null without errors: what was started for it is dropped", async () => {
    const res = await stack.gql(legacy(), SELECTION, { id: "999999", from: OPEN_WEEK.from, to: OPEN_WEEK.to, since: null });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ employee: null });
  });

  it("arguments a field refuses are refused by the field, as without the prefetch", async () => {
    const query = `query($id: ID!) { employee(id: $id) { id timeEntries(from: "2026-06-08", to: "2026-06-14", lastUpdatedSince: "2026-01-01T00:00:00", modifiedSince: "2026-01-01T00:00:00") { id } } }`;
    const [prefetched, alone] = await Promise.all([stack.gql(legacy(), query, { id: demo.timesheet.id }), unprefetched.gql(legacy(unprefetched), query, { id: demo.timesheet.id })]);
    expect(prefetched.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(prefetched).toEqual(alone);
  });
});
