import { beforeAll, describe, expect, it } from "vitest";
import { FLOORS, LARGE_LIST } from "../../bench/floors.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { postGraphQL } from "../helpers/stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { measureRounds } from "../helpers/rounds.js";
import { upstreamCalls } from "../helpers/stack.js";
import { BUDGETS as EXPECTED } from "../helpers/budgets.js";

/**
 * The upstream calls and dependent round trips of each operation of operations/ (and the
 * benchmark's large list) through the gateway, pinned: what `npm run bench` measures as a slope,
 * counted here as waves of requests under 150 ms of added latency (test/helpers/rounds.ts).
 * A change to a loader or to the plan that adds a call or a round fails here. Where the gateway
 * cannot reach the floor of bench/floors.ts, the comment says why.
 */

const stack = useGatewayStack();
let demo: Demo;

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});

describe("upstream calls and round trips of each operation", () => {
  const cases = () => [
    ...loadOperations().map((o) => ({ name: o.name, source: o.source, variables: () => variablesOf(demo, o) })),
    { name: "LargeList", source: LARGE_LIST, variables: () => ({}) },
  ];
  it.each(cases().map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const run = async () => {
      const response = await stack.query(c.source, c.variables());
      expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
      return response;
    };
    await run(); // plan and token
    stack.resetStats();
    await run();
    const calls = upstreamCalls(stack.stats());
    const { waves } = await measureRounds(stack.directory, run);
    const expected = EXPECTED[name]!;
    expect({ calls, rounds: waves.length }, JSON.stringify(waves)).toEqual({ calls: expected.calls, rounds: expected.rounds });
    // below a floor, the floor of bench/floors.ts is wrong
    expect(calls).toBeGreaterThanOrEqual(FLOORS[name]!.calls);
    expect(waves.length).toBeGreaterThanOrEqual(FLOORS[name]!.rounds);
  });
});

describe("fetches started with the root fetch (gateway/apollo/speculate.ts)", () => {
  it("a department that does not exist answers null without errors: the members fetch started for it is dropped", async () => {
    const response = await stack.query(`query($id: ID!) { department(id: $id) { name employees(first: 5) { nodes { id } } } }`, { id: "999999" });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ department: null });
  });

  it("an employee that does not exist answers null without errors: the time entries fetch started for it is dropped", async () => {
    // `email` is people's alone: people's root fetch beside legacy-time's (its employee(id:) started the entries)
    const response = await stack.query(
      `query($id: ID!, $from: Date!, $to: Date!) { employee(id: $id) { email timeEntries(from: $from, to: $to) { id } } }`,
      { id: "999999", from: demo.timesheet.from, to: demo.timesheet.to },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ employee: null });
  });

  it("a lookup given as a literal starts the next fetch as well, and answers as the plan without it would", async () => {
    const id = demo.department.id;
    const literal = await measureRounds(stack.directory, () => stack.query(`{ department(id: "${id}") { name employees(first: 50) { totalCount } } }`));
    expect(literal.result.errors).toBeUndefined();
    expect(literal.result.data.department.employees.totalCount).toBe(demo.department.memberIds.length);
    // the department (one single read) beside the members: one round
    expect(literal.waves).toHaveLength(1);
  });

  it("GATEWAY_LOOKUP_SPECULATION=false turns it off: the members wait for the department's fetch", async () => {
    const id = demo.department.id;
    const source = `{ department(id: "${id}") { name employees(first: 50) { totalCount } } }`;
    const off = await startExtraGateway(stack, { GATEWAY_LOOKUP_SPECULATION: "false" });
    try {
      await postGraphQL(off.url, source, {});
      const waited = await measureRounds(stack.directory, () => postGraphQL(off.url, source, {}));
      expect(waited.result.errors).toBeUndefined();
      expect(waited.result.data.department.employees.totalCount).toBe(demo.department.memberIds.length);
      expect(waited.waves).toHaveLength(2);
    } finally {
      await off.close();
    }
  });
});
