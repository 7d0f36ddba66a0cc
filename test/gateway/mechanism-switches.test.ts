import { describe, expect, it } from "vitest";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
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
    expect(loadUpstreamConfig({ SUBGRAPH_MECHANISMS_OFF: "operation-scope" }).mechanismsOff).toEqual(new Set(["operation-scope"]));
  });
});
