import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { post } from "./harness.js";

/**
 * The gateway never sends a subgraph a request the subgraph refuses: N aliased `employee` lookups,
 * each with its position's department and establishment, reach organisation as one request of 2N
 * `_entities` root fields. A subgraph that only answers its gateway (SUBGRAPH_SECRET) counts that
 * batch as the client operation the gateway checked; a caller without the secret never gets there.
 */

const SECRET = "gateway-batches-subgraph-secret-0123";

function lookups(ids: string[]): string {
  const fields = ids.map((id, i) => `e${i}: employee(id: "${id}") { id applicableJobPosition { department { name } businessEstablishment { name } } }`);
  return `query Lookups { ${fields.join(" ")} }`;
}

/** ids of employees whose applicable position has both a department and an establishment */
async function employeesWithPositions(stack: ReturnType<typeof useGatewayStack>, count: number): Promise<string[]> {
  const found = await stack.query(`{ employees(first: 100) { nodes { id applicableJobPosition { department { id } businessEstablishment { id } } } } }`);
  expect(found.errors).toBeUndefined();
  const ids = (found.data.employees.nodes as Array<{ id: string; applicableJobPosition: { department: unknown; businessEstablishment: unknown } | null }>)
    .filter((e) => e.applicableJobPosition?.department && e.applicableJobPosition.businessEstablishment)
    .map((e) => e.id);
  expect(ids.length).toBeGreaterThanOrEqual(count);
  return ids.slice(0, count);
}

async function lookUp(stack: ReturnType<typeof useGatewayStack>, ids: string[]): Promise<number> {
  stack.resetStats();
  const answer = await stack.query(lookups(ids));
  expect(answer.errors).toBeUndefined();
  for (let i = 0; i < ids.length; i++) {
    const employee = answer.data[`e${i}`];
    expect(employee.id).toBe(ids[i]);
    expect(typeof employee.applicableJobPosition.department.name).toBe("string");
    expect(typeof employee.applicableJobPosition.businessEstablishment.name).toBe("string");
  }
  return stack.stats().total;
}

describe("aliased lookups through the gateway, default limits (15 root fields)", () => {
  const stack = useGatewayStack({ secret: SECRET });

  it("8 and 15 lookups answer in full, their entity fetches batched by the upstream client", async () => {
    const ids = await employeesWithPositions(stack, 15);
    const one = await lookUp(stack, ids.slice(0, 1));
    const eight = await lookUp(stack, ids.slice(0, 8));
    const fifteen = await lookUp(stack, ids.slice(0, 15));
    console.log(`aliased lookups: 1 → ${one} upstream calls, 8 → ${eight}, 15 → ${fifteen}`);
    // the lookups' reads are batched: a few calls per kind of record, not per lookup
    expect(eight).toBeLessThanOrEqual(one + 2);
    expect(fifteen).toBeLessThanOrEqual(one + 2);
  });

  it("a caller without the secret still gets 403; one operation's own root fields still count", async () => {
    const entities = Array.from({ length: 16 }, (_, i) => `_${i}: _entities(representations: [{ __typename: "Department", id: "${i + 1}" }]) { ... on Department { id } }`);
    const direct = await post(stack.subgraphs.organisation!.url, { query: `{ ${entities.join(" ")} }` });
    expect(direct.status).toBe(403);
    // a client operation of 16 root fields is refused by the gateway before any call
    stack.resetStats();
    const ids = Array.from({ length: 16 }, (_, i) => String(i + 1));
    const refused = await stack.query(lookups(ids));
    expect(refused.errors?.[0]?.extensions?.code).toBe("OPERATION_LIMIT_EXCEEDED");
    expect(stack.stats().total).toBe(0);
  });
});

describe("aliased lookups through the gateway, GRAPHQL_MAX_ROOT_FIELDS=30 everywhere", () => {
  const stack = useGatewayStack({ secret: SECRET, env: { GRAPHQL_MAX_ROOT_FIELDS: "30" } });

  it("30 lookups answer in full: organisation gets 60 _entities fields in two requests of 30", async () => {
    const ids = await employeesWithPositions(stack, 30);
    const one = await lookUp(stack, ids.slice(0, 1));
    const thirty = await lookUp(stack, ids);
    console.log(`aliased lookups: 1 → ${one} upstream calls, 30 → ${thirty}`);
    expect(thirty).toBeLessThanOrEqual(one + 2);
  });
});

describe("a subgraph without a secret cannot tell its gateway from a caller", () => {
  const stack = useGatewayStack();

  it("the gateway's batches hold at most GRAPHQL_MAX_ROOT_FIELDS queries: 8 and 15 lookups answer in full", async () => {
    const ids = await employeesWithPositions(stack, 15);
    const one = await lookUp(stack, ids.slice(0, 1));
    const eight = await lookUp(stack, ids.slice(0, 8));
    const fifteen = await lookUp(stack, ids.slice(0, 15));
    console.log(`aliased lookups without a secret: 1 → ${one} upstream calls, 8 → ${eight}, 15 → ${fifteen}`);
    // 16 and 30 entity fetches to organisation go as two requests: their reads stay batched per request
    expect(eight).toBeLessThanOrEqual(one + 4);
    expect(fifteen).toBeLessThanOrEqual(one + 4);
  });

  it("16 _entities root fields sent straight to it are refused by its own limits, at no call", async () => {
    const entities = Array.from({ length: 16 }, (_, i) => `_${i}: _entities(representations: [{ __typename: "Department", id: "${i + 1}" }]) { ... on Department { id } }`);
    stack.resetStats();
    const direct = await post(stack.subgraphs.organisation!.url, { query: `{ ${entities.join(" ")} }` });
    expect(direct.body.errors?.[0]?.extensions?.code).toBe("OPERATION_LIMIT_EXCEEDED");
    expect(stack.stats().total).toBe(0);
  });
});
