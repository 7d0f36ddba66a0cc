import { beforeAll, describe, expect, it } from "vitest";
import { compareIds } from "../../directory/current/derived.js";
import { encodeNodeId } from "../../subgraphs/shared/graphql/node.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import type { GraphQLResponse } from "../helpers/stack.js";
import { loadOperations, operationNamed, pickDemoData, type Demo } from "../helpers/operations.js";

/**
 * Forward mode (DIRECTORY_AUTH=forward for the gateway and the subgraphs): the caller's bearer
 * token travels through the gateway and the subgraphs to the directory, whose scopes and
 * visibility rules then apply across the whole graph. `demo-limited` sees establishment "1" only.
 */

const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });
let demo: Demo;
let limited: Record<string, string>;
let full: Record<string, string>;
const operations = loadOperations();

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
  limited = { authorization: `Bearer ${await stack.token("demo-limited")}` };
  full = { authorization: `Bearer ${await stack.token("demo-client")}` };
});

const EMPLOYEES_PAGE = `query($after: String) {
  employees(first: 100, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { id applicableJobPosition { businessEstablishment { id } } }
  }
}`;

async function allEmployees(headers: Record<string, string>) {
  const nodes: any[] = [];
  let after: string | null = null;
  let totalCount = 0;
  do {
    const response: GraphQLResponse = await stack.query(EMPLOYEES_PAGE, { after }, headers);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    nodes.push(...response.data.employees.nodes);
    totalCount = response.data.employees.totalCount;
    after = response.data.employees.pageInfo.hasNextPage ? response.data.employees.pageInfo.endCursor : null;
  } while (after !== null);
  return { nodes, totalCount };
}

describe("forward mode", () => {
  it("refuses an operation without a bearer token with UNAUTHENTICATED, before any upstream call", async () => {
    stack.resetStats();
    const response = await stack.query("{ employees(first: 1) { totalCount } }");
    // refused by the gateway itself (a subgraph's refusal would come back as a 200 with a null field)
    expect(response.status).toBe(401);
    expect(response.data ?? null).toBeNull();
    expect(response.errors?.map((e) => e.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
    expect(stack.stats().total).toBe(0);
  });

  it("refuses a credential that is not a bearer token", async () => {
    const response = await stack.query("{ employees(first: 1) { totalCount } }", {}, { authorization: "Basic ZGVtbzpkZW1v" });
    expect(response.status).toBe(401);
    expect(response.errors?.map((e) => e.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
  });

  it("answers an introspection query without a token", async () => {
    const response = await stack.query("{ __schema { queryType { name } } }");
    expect(response.errors).toBeUndefined();
    expect(response.data.__schema.queryType.name).toBe("Query");
  });

  it("passes an unknown token on to the directory, whose 401 comes back as UNAUTHENTICATED", async () => {
    const response = await stack.query("{ employees(first: 1) { totalCount } }", {}, { authorization: "Bearer not-a-token" });
    expect(response.errors?.map((e) => e.extensions?.code)).toContain("UNAUTHENTICATED");
  });

  it("shows a caller with every establishment all the employees", async () => {
    const { nodes, totalCount } = await allEmployees(full);
    expect(totalCount).toBe(demo.company.employees.length);
    expect(nodes).toHaveLength(demo.company.employees.length);
  });

  it("shows demo-limited exactly the employees of establishment 1 in the employees list", async () => {
    const { nodes, totalCount } = await allEmployees(limited);
    expect(totalCount).toBe(demo.limited.visibleIds.length);
    expect(nodes.map((n) => n.id).sort(compareIds)).toEqual([...demo.limited.visibleIds].sort(compareIds));
    for (const node of nodes) expect(node.applicableJobPosition.businessEstablishment.id).toBe(demo.limited.establishmentId);
  });

  it("gives demo-limited nothing of an employee of another establishment", async () => {
    const response = await stack.query("query($id: ID!) { employee(id: $id) { id givenName } }", { id: demo.limited.outsideId }, limited);
    expect(response.data.employee).toBeNull();
    for (const error of response.errors ?? []) expect(error.extensions?.code).toBe("FORBIDDEN");
  });

  it("serves demo-limited the timesheet of an employee of its establishment", async () => {
    const timesheet = operationNamed(operations, "Timesheet");
    const { from, to } = demo.timesheet;
    const response = await stack.query(timesheet.source, { id: demo.limited.insideId, from, to }, limited);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.employee.id).toBe(demo.limited.insideId);
    expect(response.data.employee.timeEntries.length).toBeGreaterThan(0);
  });

  it("answers demo-limited a time entry of someone outside its establishment as a nonexistent one: null, no owner named", async () => {
    const response = await stack.query("query($id: ID!) { timeEntry(id: $id) { id duration } }", { id: demo.limited.outsideEntryId }, limited);
    const missing = await stack.query("query($id: ID!) { timeEntry(id: $id) { id duration } }", { id: "999999999" }, limited);
    expect(response.data?.timeEntry ?? null).toBeNull();
    expect(JSON.stringify(response)).toBe(JSON.stringify(missing));
  });

  it("refuses demo-limited a change to a time entry of someone outside its establishment with a ForbiddenError, as data (legacy writes are off in forward mode by default)", async () => {
    const update = operationNamed(operations, "UpdateTimeEntry");
    const response = await stack.query(update.source, { id: demo.limited.outsideEntryId, input: { duration: "01:00:00" } }, limited);
    expect(response.errors).toBeUndefined();
    expect(response.data?.updateTimeEntry).toMatchObject({ __typename: "ForbiddenError", message: expect.stringMatching(/DIRECTORY_FORWARD_LEGACY_WRITES/) });
  });

  it("serves the caller with every establishment the time entries of that same person", async () => {
    const response = await stack.query("query($id: ID!) { timeEntry(id: $id) { id } }", { id: demo.limited.outsideEntryId }, full);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.timeEntry.id).toBe(demo.limited.outsideEntryId);
  });

  it("node(nodeId:) follows the caller's visibility as employee(id:) and timeEntry(id:) do", async () => {
    const query = `query($e: ID!, $out: ID!, $entry: ID!) {
      inside: node(nodeId: $e) { ... on Employee { id } }
      outside: node(nodeId: $out) { ... on Employee { id givenName } }
      entry: node(nodeId: $entry) { ... on TimeEntry { id duration } }
    }`;
    const variables = { e: encodeNodeId("Employee", demo.limited.insideId), out: encodeNodeId("Employee", demo.limited.outsideId), entry: encodeNodeId("TimeEntry", demo.limited.outsideEntryId) };
    const response = await stack.query(query, variables, limited);
    expect(response.data.inside.id).toBe(demo.limited.insideId);
    expect(response.data.outside).toBeNull();
    expect(response.data.entry).toBeNull();
    for (const error of response.errors ?? []) expect(error.extensions?.code).toBe("FORBIDDEN");
    const allowed = await stack.query(query, variables, full);
    expect(allowed.errors, JSON.stringify(allowed.errors)).toBeUndefined();
    expect(allowed.data.entry.id).toBe(demo.limited.outsideEntryId);
  });
});
