import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { directoryToken, get } from "../directory/current-helpers.js";
import { taxonomyLabelIds } from "../../subgraphs/people/employee-attribute/taxonomy-labels.js";
import type { RestEmployeeAttributeDefinition } from "../../subgraphs/people/rest.js";
import { counting, query } from "./helpers.js";

/**
 * `EmployeeAttribute.taxonomyLabels`: the labels a taxonomy-linked attribute's value names, as
 * references the gateway resolves in the organisation subgraph (test/people/gateway-edges.test.ts).
 */

const stack = useStack({ subgraphs: ["people"] });
const COST_CENTRE = "employee.costCenter";

beforeAll(async () => {
  await query(stack, `{ employee(id: "1") { id } }`);
});

const costCentreValues = () => stack.directory.company.employeeAttributes.filter((a) => a.definitionId === COST_CENTRE);

describe("EmployeeAttribute.taxonomyLabels", () => {
  it("names the label of a cost-centre value, as the REST list embeds it", async () => {
    const data = await query(
      stack,
      `query($d: [ID!]) { employeeAttributes(first: 100, filter: { definitionIds: $d }) { nodes { id value definition { taxonomy { id } } taxonomyLabels { id } } } }`,
      { d: [COST_CENTRE] },
    );
    const nodes = data.employeeAttributes.nodes;
    expect(nodes.length).toBe(Math.min(100, costCentreValues().length));
    const labels = new Map(stack.directory.company.taxonomyLabels.map((l) => [l.id, l]));
    for (const node of nodes) {
      expect(node.taxonomyLabels).toEqual([{ id: node.value }]);
      expect(labels.get(node.value)!.taxonomyId).toBe(node.definition.taxonomy.id);
    }
    // the same label the interface embeds with the attribute
    const rest = await get(stack.directory.url, await directoryToken(stack.directory.url), `/service-api/employee-attributes?id=${nodes[0].id}&include=embedded`);
    expect(Object.keys(rest.body.embedded["taxonomy-label"])).toEqual([nodes[0].value]);
  });

  it("is null for a definition without a taxonomy", async () => {
    const data = await query(stack, `{ employeeAttributes(first: 20, filter: { definitionIds: ["employee.shirtSize"] }) { nodes { value taxonomyLabels { id } } } }`);
    expect(data.employeeAttributes.nodes.length).toBeGreaterThan(0);
    expect(data.employeeAttributes.nodes.every((n: any) => n.taxonomyLabels === null)).toBe(true);
  });

  it("costs one call per 100 attributes of a page, at first: 10 as at first: 100", async () => {
    for (const first of [10, 100]) {
      const { calls } = await counting(stack, () => query(stack, `{ employeeAttributes(first: ${first}) { nodes { id taxonomyLabels { id } } } }`));
      // the page, then the page's attributes again with their definitions and labels
      expect(calls.byRoute, `first: ${first}`).toEqual({ "GET /service-api/employee-attributes": 2 });
    }
  });

  it("through an employee's attributes, comes with the attributes' own read", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ employees(first: 50) { nodes { id attributes { value taxonomyLabels { id } } } } }`));
    const values = result.employees.nodes.flatMap((e: any) => e.attributes);
    expect(values.some((a: any) => a.taxonomyLabels?.length === 1)).toBe(true);
    expect(calls.byRoute["GET /service-api/employees"]).toBe(1);
    expect(calls.byRoute["GET /service-api/employee-attributes"]).toBe(Math.ceil(values.length / 100));
  });
});

describe("the rule from a value to label ids", () => {
  const definition = (taxonomy: string | null) => ({ id: "d", taxonomy: taxonomy === null ? null : { id: taxonomy, type: "taxonomy", url: "u" } }) as RestEmployeeAttributeDefinition;
  const labels = { "1": { taxonomy: { id: "7" } }, "2": { taxonomy: { id: "7" } }, "3": { taxonomy: { id: "8" } } };

  it("reads a string, an object's id and a list of those; keeps labels of the definition's taxonomy, once each", () => {
    expect(taxonomyLabelIds("2", definition("7"), labels)).toEqual(["2"]);
    expect(taxonomyLabelIds({ id: "1", note: "x" }, definition("7"), labels)).toEqual(["1"]);
    expect(taxonomyLabelIds(["2", { id: "1" }, "2", "3", "99", 1, true, null], definition("7"), labels)).toEqual(["2", "1"]);
    expect(taxonomyLabelIds([["1"]], definition("7"), labels)).toEqual([]);
    expect(taxonomyLabelIds(42, definition("7"), labels)).toEqual([]);
    expect(taxonomyLabelIds("toString", definition("7"), labels)).toEqual([]);
  });

  it("answers null without a taxonomy or a definition", () => {
    expect(taxonomyLabelIds("1", definition(null), labels)).toBeNull();
    expect(taxonomyLabelIds("1", null, labels)).toBeNull();
  });
});
