import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Environment, fetchQuery, Network, RecordSource, Store, type GraphQLTaggedNode, type OperationType } from "relay-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeNodeId } from "../../subgraphs/shared/graphql/node.js";
import { compileRelay, relayConfig } from "../helpers/frontends.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Relay against the gateway (docs/frontends.md#relay): relay-compiler 21 compiles `@refetchable`
 * fragments on Employee and Department over schema/api.graphql with the schemaConfig that names
 * the Node id `nodeId`, and relay-runtime, over a network to the real gateway, keeps Employee 5
 * and Department 5 apart in one store with `getDataID` reading `nodeId`. Keyed by `id` (Relay's
 * default) the same answers merge into one record: the store the issue reported.
 * relay-compiler is a static binary shipped in its npm package (no Node.js inside), so the test
 * runs the same under every Node version CI uses.
 */

const stack = useGatewayStack();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "relay-"));
  await compileRelay(dir, relayConfig());
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const artifact = async (name: string): Promise<GraphQLTaggedNode> => (await import(join(dir, "src", "__generated__", `${name}.graphql.ts`))).default;

function environment(getDataID?: (fieldValue: { [key: string]: unknown }, typeName: string) => unknown) {
  const network = Network.create(async (params, variables) => {
    const res = await fetch(stack.gateway.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: params.text, variables }) });
    return res.json();
  });
  return new Environment({ network, store: new Store(new RecordSource()), ...(getDataID ? { getDataID } : {}) });
}

describe("Relay over the gateway", () => {
  it("relay-compiler compiles refetchable fragments on Employee and Department into node(nodeId:) queries", async () => {
    const refetch = await readFile(join(dir, "src", "__generated__", "EmployeeCardRefetchQuery.graphql.ts"), "utf8");
    expect(refetch).toContain("node(nodeId: $nodeId)");
    expect(refetch).toContain("query EmployeeCardRefetchQuery(\\n  $nodeId: ID!\\n)");
    const department = await readFile(join(dir, "src", "__generated__", "DepartmentCardRefetchQuery.graphql.ts"), "utf8");
    expect(department).toContain("node(nodeId: $nodeId)");
  });

  it("keyed by id (Relay's default), Employee 5 and Department 5 merge into one record; keyed by nodeId they stay apart", async () => {
    const app = await artifact("AppQuery");
    const merged = environment();
    await fetchQuery<OperationType>(merged, app, { id: "5" }).toPromise();
    const before = merged.getStore().getSource().get("5");
    console.log(`Relay store keyed by id, record "5": ${JSON.stringify(before)}`);
    expect(before).toMatchObject({ __id: "5", id: "5" });
    expect(Object.keys(before!)).toEqual(expect.arrayContaining(["givenName", "name"]));

    // the getDataID of Relay's docs for an id field of another name
    const apart = environment((fieldValue) => fieldValue.nodeId);
    await fetchQuery<OperationType>(apart, app, { id: "5" }).toPromise();
    const source = apart.getStore().getSource();
    const employee = source.get(encodeNodeId("Employee", "5"));
    const department = source.get(encodeNodeId("Department", "5"));
    console.log(`Relay store keyed by nodeId:\n  ${JSON.stringify(employee)}\n  ${JSON.stringify(department)}`);
    expect(employee).toMatchObject({ __typename: "Employee", id: "5", nodeId: encodeNodeId("Employee", "5"), givenName: expect.any(String) });
    expect(employee).not.toHaveProperty("name");
    expect(department).toMatchObject({ __typename: "Department", id: "5", nodeId: encodeNodeId("Department", "5"), name: expect.any(String) });
    expect(department).not.toHaveProperty("givenName");
    expect(source.get("5")).toBeUndefined();
  });

  it("a refetch of each fragment goes through node(nodeId:) on the gateway into the same records", async () => {
    const env = environment((fieldValue) => fieldValue.nodeId);
    for (const [query, typeName, field] of [
      ["EmployeeCardRefetchQuery", "Employee", "givenName"],
      ["DepartmentCardRefetchQuery", "Department", "name"],
    ] as const) {
      const nodeId = encodeNodeId(typeName, "5");
      const data = (await fetchQuery<OperationType>(env, await artifact(query), { nodeId }).toPromise()) as { node: object | null };
      expect(data.node).not.toBeNull();
      expect(env.getStore().getSource().get(nodeId)).toMatchObject({ __typename: typeName, [field]: expect.any(String) });
    }
  });
});
