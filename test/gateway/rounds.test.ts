import { beforeAll, describe, expect, it } from "vitest";
import { FLOORS, LARGE_LIST } from "../../bench/floors.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { measureRounds } from "../helpers/rounds.js";
import { AS_SHIPPED, upstreamCalls } from "../helpers/stack.js";
import { BUDGETS as EXPECTED } from "../helpers/budgets.js";

/**
 * The upstream calls and dependent round trips of each operation of operations/ (and the
 * benchmark's large list) through the gateway, pinned: what `npm run bench` measures as a slope,
 * counted here as waves of requests under 150 ms of added latency (test/helpers/rounds.ts).
 * A change to a loader or to the plan that adds a call or a round fails here. Twice: with
 * reference data read afresh (what an operation costs the directory when nothing is held: at the
 * floor of bench/floors.ts for calls, or the comment says why), and with the settings as shipped,
 * reference data held (reference-cache.ts; the first run of each operation reads it).
 */

const stack = useGatewayStack();
const shipped = useGatewayStack({ env: AS_SHIPPED });
let demo: Demo;

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});

const cases = () => [
  ...loadOperations().map((o) => ({ name: o.name, source: o.source, variables: () => variablesOf(demo, o) })),
  { name: "LargeList", source: LARGE_LIST, variables: () => ({}) },
];

async function measure(on: GatewayStack, c: ReturnType<typeof cases>[number]): Promise<{ calls: number; rounds: number; waves: unknown }> {
  const run = async () => {
    const response = await on.query(c.source, c.variables());
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    return response;
  };
  await run(); // plan and token (and, as shipped, the reference data held)
  on.resetStats();
  await run();
  const calls = upstreamCalls(on.stats());
  const { waves } = await measureRounds(on.directory, run);
  return { calls, rounds: waves.length, waves };
}

describe("upstream calls and round trips of each operation, reference data read afresh", () => {
  it.each(cases().map((c) => [c.name, c] as const))("%s costs the calls and rounds pinned in budgets.ts, none below the floors", async (name, c) => {
    const { waves, ...measured } = await measure(stack, c);
    const expected = EXPECTED[name]!;
    expect(measured, JSON.stringify(waves)).toEqual({ calls: expected.calls, rounds: expected.rounds });
    // below a floor, the floor of bench/floors.ts is wrong
    expect(measured.calls).toBeGreaterThanOrEqual(FLOORS[name]!.calls);
    expect(measured.rounds).toBeGreaterThanOrEqual(FLOORS[name]!.rounds);
  });
});

describe("upstream calls and round trips of each operation, as shipped (reference data held)", () => {
  it.each(cases().map((c) => [c.name, c] as const))("%s costs the calls and rounds pinned in budgets.ts as held", async (name, c) => {
    const { waves, ...measured } = await measure(shipped, c);
    expect(measured, JSON.stringify(waves)).toEqual(EXPECTED[name]!.held);
  });
});

describe("lookups of what does not exist", () => {
  it("a department that does not exist answers null without errors", async () => {
    const response = await stack.query(`query($id: ID!) { department(id: $id) { name employees(first: 5) { nodes { id } } } }`, { id: "999999" });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ department: null });
  });

  it("an employee that does not exist answers null without errors", async () => {
    const response = await stack.query(
      `query($id: ID!, $from: Date!, $to: Date!) { employee(id: $id) { email timeEntries(from: $from, to: $to) { id } } }`,
      { id: "999999", from: demo.timesheet.from, to: demo.timesheet.to },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ employee: null });
  });
});
