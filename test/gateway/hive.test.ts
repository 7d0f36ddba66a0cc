import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHive, type ServedHive } from "../helpers/hive.js";
import { encodeNodeId } from "../../subgraphs/shared/graphql/node.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * A second, independent gateway — The Guild's Hive Gateway runtime, its own query planner —
 * serves the committed supergraph against the same subgraphs: the supergraph is a standard
 * Federation 2 supergraph, and both gateways give the same answers to the operations. The Hive
 * runtime runs the committed configuration (gateway/hive.config.ts) with our gateway's
 * environment: the subgraphs' ephemeral URLs and the subgraph secret, which they require.
 */

const stack = useGatewayStack({ secret: "hive-test-secret" });
let demo: Demo;
let hive: ServedHive;
let hiveUrl: string;
const operations = loadOperations();

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
  hive = await serveHive(stack.gatewayEnv);
  hiveUrl = hive.url;
});

afterAll(async () => hive?.close());

async function both(source: string, variables: Record<string, unknown>) {
  const apollo = await stack.query(source, variables);
  const guild = await postGraphQL(hiveUrl, source, variables);
  expect(apollo.errors, JSON.stringify(apollo.errors)).toBeUndefined();
  expect(guild.errors, JSON.stringify(guild.errors)).toBeUndefined();
  return { apollo: apollo.data, hive: guild.data };
}

describe("the committed supergraph on Hive Gateway", () => {
  it.each(operations.map((o) => [o.name, o] as const))("%s gets the same answer as from the Apollo gateway", async (_name, operation) => {
    const { apollo, hive: answer } = await both(operation.source, variablesOf(demo, operation));
    expect(answer).toEqual(apollo);
  });

  it("DirectorySearch's next page, after the same cursor, is the same on both gateways", async () => {
    const search = operationNamed(operations, "DirectorySearch");
    const first = await stack.query(search.source, { search: demo.search, after: null });
    const after = first.data.employees.pageInfo.endCursor;
    expect(after).toEqual(expect.any(String));
    const { apollo, hive: answer } = await both(search.source, { search: demo.search, after });
    expect(answer).toEqual(apollo);
    expect(answer.employees.edges[0].node.id).toBe(demo.searchMatches[20]);
  });

  it("a refused UpdateTimeEntry is the same TimeEntryValidationError on both gateways", async () => {
    const update = operationNamed(operations, "UpdateTimeEntry");
    const { apollo, hive: answer } = await both(update.source, { id: demo.approvedEntry.id, input: { duration: "02:30:00" } });
    expect(answer).toEqual(apollo);
    expect(answer.updateTimeEntry.__typename).toBe("TimeEntryValidationError");
  });

  it("node and nodes answer entities of the three subgraphs the same on both gateways (Node is an entity interface any Federation 2 router plans)", async () => {
    const entry = (await stack.query(`{ employee(id: "10") { timeEntryConnection(first: 1) { nodes { nodeId } } } }`)).data.employee.timeEntryConnection.nodes[0].nodeId;
    const ids = [encodeNodeId("Employee", "5"), encodeNodeId("Department", "5"), encodeNodeId("Profession", "1"), entry, encodeNodeId("Employee", "999999")];
    const { apollo, hive: answer } = await both(
      `query($id: ID!, $ids: [ID!]!) {
        node(nodeId: $id) { __typename nodeId ... on Employee { givenName } }
        nodes(nodeIds: $ids) { __typename nodeId ... on Employee { givenName } ... on Department { name } ... on Profession { title } ... on TimeEntry { duration } }
      }`,
      { id: ids[0], ids },
    );
    expect(answer).toEqual(apollo);
    expect(answer.nodes.map((n: { __typename: string } | null) => n?.__typename ?? null)).toEqual(["Employee", "Department", "Profession", "TimeEntry", null]);
    expect(answer.nodes[1].name).toEqual(expect.any(String));
    expect(answer.nodes[3].duration).toEqual(expect.any(String));
  });
});
