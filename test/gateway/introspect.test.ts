import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";

/**
 * GATEWAY_COMPOSE=introspect: the gateway composes the live subgraphs (their `_service { sdl }`)
 * at start-up instead of reading the committed supergraph. Started with the subgraph secret, which
 * the composition's own requests must carry too.
 */

const stack = useGatewayStack({ secret: "introspect-secret", gatewayEnv: { GATEWAY_COMPOSE: "introspect" } });
let demo: Demo;
const operations = loadOperations();

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
});

describe("introspect mode", () => {
  it("composes the live subgraphs and answers OrgChart across all of them", async () => {
    const orgChart = operationNamed(operations, "OrgChart");
    const response = await stack.query(orgChart.source, variablesOf(demo, orgChart));
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.department.id).toBe(demo.department.id);
    expect(response.data.department.employees.totalCount).toBe(demo.department.memberIds.length);
  });

  it("serves the types of every subgraph", async () => {
    const response = await stack.query(`{
      employee: __type(name: "Employee") { fields { name } }
      timeEntry: __type(name: "TimeEntry") { name }
      department: __type(name: "Department") { name }
    }`);
    expect(response.errors).toBeUndefined();
    const employeeFields = response.data.employee.fields.map((f: { name: string }) => f.name);
    expect(employeeFields).toEqual(expect.arrayContaining(["givenName", "timeEntries"]));
    expect(response.data.timeEntry.name).toBe("TimeEntry");
    expect(response.data.department.name).toBe("Department");
  });
});
