import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { Kind, parse, print, type ConstDirectiveNode, type ObjectTypeDefinitionNode } from "graphql";
import { encodeNodeId, MAX_NODE_IDS, NODE_TYPES } from "../../subgraphs/shared/graphql/node.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { upstreamCalls } from "../helpers/stack.js";

/**
 * Global object identification through the gateway (subgraphs/shared/graphql/node.ts): every
 * entity has a `nodeId` naming its type and id, `node`/`nodes` answer any of them whichever
 * subgraph resolves the type, the records of one type cost one upstream call per 100 ids, and a
 * malformed id is refused before any upstream call.
 */

const stack = useGatewayStack();

const byRoute = (): Record<string, number> => {
  const { "POST /connect/token": _token, ...rest } = stack.stats().byRoute;
  return rest;
};

describe("Node: nodeId, node and nodes", () => {
  it("every entity of the supergraph implements Node in each subgraph that defines it", async () => {
    const supergraph = parse(await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8"));
    const argument = (d: ConstDirectiveNode, name: string) => print(d.arguments!.find((a) => a.name.value === name)?.value ?? { kind: Kind.NULL });
    const entities = supergraph.definitions.filter(
      (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && !!d.directives?.some((x) => x.name.value === "join__type" && argument(x, "key") === '"id"'),
    );
    expect(entities.map((e) => e.name.value).sort()).toEqual([...NODE_TYPES].sort());
    for (const entity of entities) {
      const graphs = entity.directives!.filter((d) => d.name.value === "join__type").map((d) => argument(d, "graph"));
      const implementing = entity.directives!.filter((d) => d.name.value === "join__implements" && argument(d, "interface") === '"Node"').map((d) => argument(d, "graph"));
      expect(new Set(implementing), entity.name.value).toEqual(new Set(graphs));
    }
  });

  it("Employee 5 and Department 5 share their id, not their nodeId", async () => {
    const res = await stack.query(`{ employee(id: "5") { id nodeId } department(id: "5") { id nodeId } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.employee.id).toBe(res.data.department.id);
    expect(res.data.employee.nodeId).toBe(encodeNodeId("Employee", "5"));
    expect(res.data.department.nodeId).toBe(encodeNodeId("Department", "5"));
    expect(res.data.employee.nodeId).not.toBe(res.data.department.nodeId);
  });

  it("node answers an entity of each subgraph, with the fields its own subgraph resolves", async () => {
    const company = stack.directory.company;
    const profession = company.professions[0]!;
    const timeEntry = await stack.query(`{ employee(id: "10") { timeEntryConnection(first: 1) { nodes { id nodeId duration } } } }`);
    const entry = timeEntry.data.employee.timeEntryConnection.nodes[0];
    const res = await stack.query(
      `query($e: ID!, $d: ID!, $p: ID!, $t: ID!) {
        e: node(nodeId: $e) { __typename nodeId ... on Employee { id givenName } }
        d: node(nodeId: $d) { __typename nodeId ... on Department { id name } }
        p: node(nodeId: $p) { __typename ... on Profession { id title } }
        t: node(nodeId: $t) { __typename ... on TimeEntry { id duration } }
      }`,
      { e: encodeNodeId("Employee", "5"), d: encodeNodeId("Department", "5"), p: encodeNodeId("Profession", profession.id), t: entry.nodeId },
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const employee = company.employees.find((e) => e.id === "5")!;
    const department = company.departments.find((d) => d.id === "5")!;
    expect(res.data.e).toEqual({ __typename: "Employee", nodeId: encodeNodeId("Employee", "5"), id: "5", givenName: employee.givenName });
    expect(res.data.d).toEqual({ __typename: "Department", nodeId: encodeNodeId("Department", "5"), id: "5", name: department.name });
    expect(res.data.p).toEqual({ __typename: "Profession", id: profession.id, title: profession.title });
    expect(res.data.t).toEqual({ __typename: "TimeEntry", id: entry.id, duration: entry.duration });
  });

  it("nodes: one upstream call per type per 100 ids, in the order asked, null for an unknown record", async () => {
    const employees = stack.directory.company.employees.slice(0, 100).map((e) => encodeNodeId("Employee", e.id));
    const positions = stack.directory.company.jobPositions.slice(0, 3).map((p) => encodeNodeId("JobPosition", p.id));
    const ids = [...positions, encodeNodeId("Employee", "999999"), ...employees.slice(0, 96)];
    expect(ids.length).toBe(MAX_NODE_IDS);
    stack.resetStats();
    const res = await stack.query(`query($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId ... on Employee { familyName } ... on JobPosition { jobTitle } } }`, { ids });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.nodes.map((n: { nodeId: string } | null) => n?.nodeId ?? null)).toEqual([...positions, null, ...employees.slice(0, 96)]);
    expect(res.data.nodes[4].familyName).toBe(stack.directory.company.employees[0]!.familyName);
    expect(byRoute()).toEqual({ "GET /service-api/employees": 1, "GET /service-api/job-positions": 1 });
  });

  it.each([
    ["a malformed id", `{ node(nodeId: "not-a-node") { nodeId } }`, {}],
    ["an id of no type of the graph", `query($id: ID!) { node(nodeId: $id) { nodeId } }`, { id: Buffer.from("Secret:1").toString("base64url") }],
    ["more than 100 ids", `query($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }`, { ids: Array.from({ length: MAX_NODE_IDS + 1 }, (_, i) => encodeNodeId("Employee", String(i + 1))) }],
  ])("%s is BAD_USER_INPUT before any upstream call", async (_name, source, variables) => {
    stack.resetStats();
    const res = await stack.query(source, variables);
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe("BAD_USER_INPUT");
    expect(upstreamCalls(stack.stats())).toBe(0);
  });
});
