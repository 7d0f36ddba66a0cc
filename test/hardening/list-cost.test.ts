import { describe, expect, it } from "vitest";
import { encodeNodeId } from "../../subgraphs/shared/graphql/node.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "../helpers/subgraph.js";
import { post } from "./harness.js";

/**
 * The cost measure (platform/limits.ts) counts `nodes(nodeIds:)` by the ids it is given, as
 * `employees(first:)` by its `first`: the same 100 reads measure alike, whichever field asks them,
 * and a list over the budget is refused before any upstream call, its ids given inline or by variable.
 */

const ids = Array.from({ length: 100 }, (_, i) => encodeNodeId("Employee", String(i + 1)));
const BY_FIRST = `{ employees(first: 100) { nodes { id givenName familyName } } }`;
const BY_IDS = `query($ids: [ID!]!) { nodes(nodeIds: $ids) { ... on Employee { id givenName familyName } } }`;
const INLINE = `{ nodes(nodeIds: ${JSON.stringify(ids)}) { ... on Employee { id givenName familyName } } }`;

describe("the cost of a list read by ids", () => {
  // a budget the 100 reads exceed, and a list of 10 fits in
  const stack = useGatewayStack({ gatewayEnv: { GRAPHQL_MAX_COST: "200" } });

  it("measures nodes(nodeIds:) by its ids, as employees(first:) by its first", async () => {
    stack.resetStats();
    const answers = await Promise.all([post(stack.gateway.url, { query: BY_FIRST }), post(stack.gateway.url, { query: BY_IDS, variables: { ids } }), post(stack.gateway.url, { query: INLINE })]);
    const measured = answers.map((a) => ({ status: a.status, code: a.body.errors?.[0]?.extensions?.code, value: a.body.errors?.[0]?.extensions?.value }));
    expect(measured[1]).toEqual(measured[0]);
    expect(measured[2]).toEqual(measured[0]);
    expect(measured[0]!.status).toBe(400);
    expect(apiCalls(stack).total).toBe(0);
    // ten ids fit, and are read
    const few = await post(stack.gateway.url, { query: BY_IDS, variables: { ids: ids.slice(0, 10) } });
    expect(few.body.errors).toBeUndefined();
    expect(few.body.data.nodes).toHaveLength(10);
  });
});
