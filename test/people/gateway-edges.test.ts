import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "./helpers.js";

/**
 * People's reverse edges and label references through the gateway: an organisation list with a
 * people edge below it, and people's attribute values resolved to organisation's labels.
 */

const stack = useGatewayStack();

async function run(source: string, variables?: Record<string, unknown>) {
  stack.resetStats();
  const response = await stack.query(source, variables);
  return { response, calls: apiCalls(stack) };
}

async function ok(source: string, variables?: Record<string, unknown>) {
  const { response, calls } = await run(source, variables);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return { data: response.data, calls };
}

beforeAll(async () => {
  // the subgraphs' tokens
  await ok(`{ departments(first: 1) { nodes { id jobPositions(first: 1) { nodes { id } } } } }`);
});

describe("Department.jobPositions through the gateway", () => {
  it("one departments read, and job positions in calls that follow the positions, not the departments", async () => {
    const source = (first: number) => `{ departments(first: ${first}) { nodes { id jobPositions(first: 10) { totalCount nodes { id jobTitle } } } } }`;
    const positions = stack.directory.company.jobPositions;
    for (const first of [5, 50]) {
      const { data, calls } = await ok(source(first));
      const departments = data.departments.nodes;
      expect(departments.length).toBe(Math.min(first, stack.directory.company.departments.length));
      const children = departments.reduce((n: number, d: any) => n + d.jobPositions.totalCount, 0);
      expect(calls.byRoute, `departments(first: ${first})`).toEqual({
        "GET /service-api/departments": 1,
        "GET /service-api/job-positions": Math.max(1, Math.ceil(children / 100)),
      });
      for (const d of departments) {
        const expected = positions.filter((p) => p.departmentId === d.id).map((p) => p.id).sort((a, b) => Number(a) - Number(b));
        expect(d.jobPositions.totalCount).toBe(expected.length);
        expect(d.jobPositions.nodes.map((n: { id: string }) => n.id)).toEqual(expected.slice(0, 10));
      }
    }
  });

  it("refuses a bad filter of the edge before the departments are read: no upstream call", async () => {
    for (const filter of [
      `{ startsOnBetween: { from: "2026-02-01", to: "2026-01-01" } }`,
      `{ ids: ["bad id"] }`,
      `{ startsOn: "2026-02-30" }`,
      `{ departmentIds: ["1"] }`,
    ]) {
      const { response, calls } = await run(`{ departments(first: 5) { nodes { jobPositions(filter: ${filter}) { nodes { id } } } } }`);
      expect(response.errors?.[0]?.extensions?.code, filter).toBe("BAD_USER_INPUT");
      expect(calls.total, filter).toBe(0);
    }
  });
});

describe("EmployeeAttribute.taxonomyLabels through the gateway", () => {
  const source = (first: number) => `{ employeeAttributes(first: ${first}, filter: { definitionIds: ["employee.costCenter"] }) {
    nodes { id value taxonomyLabels { id name remoteId taxonomy { id name } } } } }`;

  it("resolves the labels in organisation: names and taxonomy from the directory's label", async () => {
    const { data } = await ok(source(100));
    const labels = new Map(stack.directory.company.taxonomyLabels.map((l) => [l.id, l]));
    const taxonomies = new Map(stack.directory.company.taxonomies.map((t) => [t.id, t]));
    const nodes = data.employeeAttributes.nodes;
    expect(nodes.length).toBeGreaterThan(10);
    for (const node of nodes) {
      const label = labels.get(node.value)!;
      expect(node.taxonomyLabels).toEqual([
        { id: label.id, name: label.name, remoteId: label.remoteId, taxonomy: { id: label.taxonomyId, name: taxonomies.get(label.taxonomyId)!.name } },
      ]);
    }
    expect(new Set(nodes.map((n: any) => n.value)).size).toBeGreaterThan(1);
  });

  it("costs the same calls for a page of 10 values as for a page of 100", async () => {
    const ten = await ok(source(10));
    const hundred = await ok(source(100));
    expect(hundred.calls.byRoute).toEqual(ten.calls.byRoute);
    // the page and its embedded labels (people), the labels and their taxonomy (organisation)
    expect(hundred.calls.byRoute).toEqual({
      "GET /service-api/employee-attributes": 2,
      "GET /service-api/taxonomy-labels": 1,
      "GET /service-api/taxonomies": 1,
    });
  });
});
