import { describe, expect, it } from "vitest";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { useStack, type Stack } from "../helpers/stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf } from "../helpers/operations.js";
import { measureRounds } from "../helpers/rounds.js";
import { BUDGETS } from "../helpers/budgets.js";

/**
 * SUBGRAPH_MECHANISMS_OFF switches the subgraphs' round-saving mechanisms off, for the benchmark's
 * mechanism table (issue 38 item 2): with `prefetch-employee` off, EmployeeProfile's reads of the
 * employee's lists wait for the employee's read, one round more than its budget with everything on.
 */
describe("SUBGRAPH_MECHANISMS_OFF", () => {
  const stack = useGatewayStack({ env: { SUBGRAPH_MECHANISMS_OFF: "prefetch-employee" } });

  it("prefetch-employee off: EmployeeProfile takes a round more", async () => {
    const profile = operationNamed(loadOperations(), "EmployeeProfile");
    const variables = variablesOf(pickDemoData(stack.directory.company), profile);
    await stack.query(profile.source, variables);
    const { result, waves } = await measureRounds(stack.directory, () => stack.query(profile.source, variables));
    expect(result.errors).toBeUndefined();
    expect(waves.length).toBeGreaterThan(BUDGETS.EmployeeProfile!.rounds);
  });

  it("refuses a name it does not know", () => {
    expect(() => loadUpstreamConfig({ SUBGRAPH_MECHANISMS_OFF: "prefetch-employee,speed" })).toThrow(/speed is none of/);
    expect(loadUpstreamConfig({ SUBGRAPH_MECHANISMS_OFF: "operation-scope, embedded-priming,adaptive-loaders" }).mechanismsOff).toEqual(new Set(["operation-scope", "embedded-priming", "adaptive-loaders"]));
  });
});

/** The same query's upstream calls by route with the subgraphs' mechanisms on, and with `off` off. */
function callsWithAndWithout(off: string, subgraph: "people" | "organisation", source: string, variables: Record<string, unknown> = {}) {
  const on = useStack({ subgraphs: [subgraph] });
  const without = useStack({ subgraphs: [subgraph], env: { SUBGRAPH_MECHANISMS_OFF: off } });
  const run = async (stack: Stack) => {
    await stack.gql(stack.subgraphs[subgraph]!.url, source, variables);
    stack.resetStats();
    const res = await stack.gql(stack.subgraphs[subgraph]!.url, source, variables);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const { "POST /connect/token": _token, ...calls } = stack.stats().byRoute;
    return { data: res.data, calls };
  };
  return async () => ({ on: await run(on), off: await run(without) });
}

describe("SUBGRAPH_MECHANISMS_OFF=adaptive-loaders", () => {
  const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
  const measure = callsWithAndWithout("adaptive-loaders", "organisation", `query($r: [_Any!]!) { _entities(representations: $r) { ... on Department { id name } } }`, {
    r: ids.map((id) => ({ __typename: "Department", id })),
  });

  it("12 department references: the list's pages with it on, one single read each with it off, the same answer", async () => {
    const { on, off } = await measure();
    expect(off.data).toEqual(on.data);
    expect(on.calls["GET /service-api/departments/{id}"]).toBeUndefined();
    expect(off.calls).toEqual({ "GET /service-api/departments/{id}": 12 });
  });
});

describe("SUBGRAPH_MECHANISMS_OFF=embedded-priming", () => {
  const measure = callsWithAndWithout("embedded-priming", "people", `{ employees(first: 20) { nodes { id applicableJobPosition { jobTitle } } } }`);

  it("an employee list's applicable positions: primed by the list's embeds with it on, read by id with it off, the same answer", async () => {
    const { on, off } = await measure();
    expect(off.data).toEqual(on.data);
    expect(on.calls).toEqual({ "GET /service-api/employees": 1 });
    expect(off.calls).toEqual({ "GET /service-api/employees": 1, "GET /service-api/job-positions": 1 });
  });
});
