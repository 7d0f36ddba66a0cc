import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { pickDemoData, type Demo } from "../helpers/operations.js";

/**
 * Nullability contains failures: a field that a scope, the caller's visibility or an upstream
 * error can refuse on its own is nullable, so its failure nulls that field and nothing above it.
 * `demo-limited` (forward mode) has the employees, job-positions, employments and departments
 * scopes only: attributes, probationary periods and legal entities are refused to it.
 */

const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });
let demo: Demo;
let limited: Record<string, string>;

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
  limited = { authorization: `Bearer ${await stack.token("demo-limited")}` };
});

function codesAndPaths(errors: any[] | undefined) {
  return (errors ?? []).map((e) => ({ code: e.extensions?.code, path: e.path?.join(".") }));
}

describe("a refused field nulls itself only", () => {
  it("keeps the employee when its attributes are refused", async () => {
    const response = await stack.query("query($id: ID!) { employee(id: $id) { id givenName attributes { id } } }", { id: demo.limited.insideId }, limited);
    expect(response.status).toBe(200);
    expect(response.data.employee.id).toBe(demo.limited.insideId);
    expect(typeof response.data.employee.givenName).toBe("string");
    expect(response.data.employee.attributes).toBeNull();
    expect(codesAndPaths(response.errors)).toEqual([{ code: "FORBIDDEN", path: "employee.attributes" }]);
  });

  it("keeps the employees page when every node's probationary periods are refused", async () => {
    const response = await stack.query("{ employees(first: 3) { nodes { id probationaryPeriods { id } } } }", {}, limited);
    expect(response.data).not.toBeNull();
    const nodes = response.data.employees.nodes;
    expect(nodes).toHaveLength(3);
    for (const node of nodes) {
      expect(demo.limited.visibleIds).toContain(node.id);
      expect(node.probationaryPeriods).toBeNull();
    }
    const errors = codesAndPaths(response.errors);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.code).toBe("FORBIDDEN");
      expect(error.path).toMatch(/^employees\.nodes\.\d\.probationaryPeriods$/);
    }
  });

  it("keeps one root field's data when another root field is refused", async () => {
    const response = await stack.query("{ employees(first: 2) { nodes { id } } legalEntities(first: 2) { nodes { id } } }", {}, limited);
    expect(response.data.employees.nodes).toHaveLength(2);
    expect(response.data.legalEntities).toBeNull();
    expect(codesAndPaths(response.errors)).toEqual([{ code: "FORBIDDEN", path: "legalEntities" }]);
  });

  it("keeps an employment when its probationary periods are refused", async () => {
    const response = await stack.query(
      "query($id: ID!) { employee(id: $id) { employments(first: 2) { nodes { id probationaryPeriods { id } } } } }",
      { id: demo.limited.insideId },
      limited,
    );
    const employments = response.data.employee.employments.nodes;
    expect(employments.length).toBeGreaterThan(0);
    for (const employment of employments) expect(employment.probationaryPeriods).toBeNull();
    for (const error of codesAndPaths(response.errors)) {
      expect(error).toEqual({ code: "FORBIDDEN", path: expect.stringMatching(/^employee\.employments\.nodes\.\d\.probationaryPeriods$/) });
    }
  });
});
