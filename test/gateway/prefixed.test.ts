import { readFile } from "node:fs/promises";
import { parse, print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownTypeNames } from "../../platform/own-types.js";
import { prefixOperation } from "../../subgraphs/shared/graphql/namespace.js";
import { encodeNodeId } from "../../subgraphs/shared/graphql/node.js";
import { startExtraGateway, startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";

/**
 * The whole stack under GRAPH_PREFIX=Dir over HTTP: subgraphs namespaced, the gateway serving
 * schema/prefixed/supergraph.graphql. Every operation of operations/, rewritten for the prefix,
 * answers exactly what it answers on the default graph (a second stack over the same demo data).
 */

let prefixed: GatewayStack;
let plain: GatewayStack;
let demo: Demo;
let ownTypes: Set<string>;
const operations = loadOperations();
const SUPERGRAPH = new URL("../../schema/supergraph.graphql", import.meta.url).pathname;
const PREFIXED_SUPERGRAPH = new URL("../../schema/prefixed/supergraph.graphql", import.meta.url).pathname;

beforeAll(async () => {
  [prefixed, plain] = await Promise.all([startGatewayStack({ prefix: "Dir" }), startGatewayStack()]);
  demo = pickDemoData(prefixed.directory.company);
  ownTypes = ownTypeNames(parse(await readFile(SUPERGRAPH, "utf8")));
});

afterAll(async () => {
  await Promise.all([prefixed?.close(), plain?.close()]);
});

function comparable(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((v) => comparable(v, prefix));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (/^(cursor|startCursor|endCursor)$/.test(key)) return [key, typeof v === "string" ? "<cursor>" : v];
      if (key === "__typename" && typeof v === "string") {
        expect(v.startsWith(prefix)).toBe(true);
        return [key, v.slice(prefix.length)];
      }
      return [key, comparable(v, prefix)];
    }),
  );
}

describe("GRAPH_PREFIX=Dir over HTTP", () => {
  it.each(operations.map((o) => [o.name, o] as const))("%s, prefixed, answers what it answers on the default graph", async (_name, operation) => {
    const variables = variablesOf(demo, operation);
    const source = print(prefixOperation(parse(operation.source), "Dir", ownTypes));
    expect(source).not.toBe(print(parse(operation.source)));
    const [answer, expected] = await Promise.all([prefixed.query(source, variables), plain.query(operation.source, variables)]);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    expect(expected.errors, JSON.stringify(expected.errors)).toBeUndefined();
    // cursors wrap the page cursors each directory signs with its own key; types carry the prefix
    expect(comparable(answer.data, "Dir")).toEqual(comparable(expected.data, ""));
  });

  it("names the prefixed types in __typename, through a union of a mutation's result too", async () => {
    const response = await prefixed.query(`query($id: ID!) { dirEmployee(id: $id) { __typename legacyUser { __typename } } }`, { id: demo.profile.id });
    expect(response.errors).toBeUndefined();
    expect(response.data.dirEmployee).toEqual({ __typename: "DirEmployee", legacyUser: { __typename: "DirLegacyUser" } });
    const refused = await prefixed.query(`mutation { dirUpdateAxisSection(id: "1", input: { code: "" }) { __typename } }`);
    expect(refused.errors).toBeUndefined();
    expect(refused.data.dirUpdateAxisSection.__typename).toMatch(/^Dir(InvalidInputError|AxisSection)$/);
  });

  it("dirNode answers the same nodeId as node does on the default graph, typed with the prefix, whichever subgraph resolves the type", async () => {
    const ids = { e: encodeNodeId("Employee", demo.profile.id), p: encodeNodeId("Profession", "1") };
    const response = await prefixed.query(
      `query($e: ID!, $p: ID!) { e: dirNode(nodeId: $e) { __typename nodeId ... on DirEmployee { id } } p: dirNodes(nodeIds: [$p]) { __typename ... on DirProfession { title } } }`,
      ids,
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.e).toEqual({ __typename: "DirEmployee", nodeId: ids.e, id: demo.profile.id });
    expect(response.data.p).toEqual([{ __typename: "DirProfession", title: expect.any(String) }]);
  });

  it("refuses the unprefixed names as a validation error, without an upstream call", async () => {
    prefixed.resetStats();
    const response = await prefixed.query(`{ employee(id: "1") { id } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(prefixed.stats().total).toBe(0);
  });

  // the checks name the schema's types and fields without the prefix (DateRange, Employee.timeEntries):
  // each of these, run on the default graph's names too, is refused before any upstream call
  it.each([
    ["a day that does not exist, below a list", `{ PREFIXemployees(first: 3) { nodes { timeEntries(from: "2026-02-30", to: "2026-03-01") { id } } } }`, /calendar date/],
    ["a reversed DateRange", `{ PREFIXemployees(first: 3, filter: { applicableEmploymentStartsOnBetween: { from: "2026-05-01", to: "2026-01-01" } }) { nodes { id } } }`, /starts \(2026-05-01\) after it ends/],
    ["an edge's own filter, below a list", `{ PREFIXdepartments(first: 3) { nodes { jobPositions(filter: { departmentIds: ["1"] }) { nodes { id } } } } }`, /filter\.departmentIds cannot be used/],
    ["a profession's own filter on its qualifications", `{ PREFIXprofessions(first: 3) { nodes { jobQualifications(filter: { professionIds: ["1"] }) { nodes { id } } } } }`, /filter\.professionIds cannot be used/],
    ["a local date-time with an offset", `{ PREFIXtimeEntries(filter: { ownerIds: ["1"], startsAt: { from: "2026-01-01T00:00:00+02:00" } }) { nodes { id } } }`, /local date-time without offset/],
    ["a root field's own rule (no owner)", `{ PREFIXtimeEntries(filter: { ownerIds: [] }) { nodes { id } } }`, /ownerIds/],
  ])("refuses %s as on the default graph, before any upstream call", async (_case, template, message) => {
    const source = (prefix: string) => template.replace(/PREFIX([a-z])(\w*)/, (_m, first: string, rest: string) => (prefix ? `${prefix}${first.toUpperCase()}${rest}` : `${first}${rest}`));
    for (const [stack, text] of [[plain, source("")], [prefixed, source("dir")]] as const) {
      stack.resetStats();
      const response = await stack.query(text);
      expect(response.errors?.[0]?.extensions?.code, text).toBe("BAD_USER_INPUT");
      expect(response.errors?.[0]?.message, text).toMatch(message);
      expect(stack.stats().total, text).toBe(0);
    }
  });

  it("the gateway refuses to start on a supergraph that does not carry its GRAPH_PREFIX", async () => {
    await expect(startExtraGateway(prefixed, { GATEWAY_SUPERGRAPH: SUPERGRAPH })).rejects.toThrow(/does not match GRAPH_PREFIX=Dir/);
    await expect(startExtraGateway(prefixed, { GRAPH_PREFIX: "Acme" })).rejects.toThrow(/does not match GRAPH_PREFIX=Acme/);
    await expect(startExtraGateway(plain, { GATEWAY_SUPERGRAPH: PREFIXED_SUPERGRAPH })).rejects.toThrow(/does not match GRAPH_PREFIX=/);
  });
});
