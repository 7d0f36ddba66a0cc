import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHive, type ServedHive } from "../helpers/hive.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { AS_SHIPPED, postGraphQL, upstreamCalls } from "../helpers/stack.js";

/**
 * Nothing stale beyond what is stated (docs/performance.md#what-a-company-router-gets): a change at the
 * directory to a department (reference data held warm, DIRECTORY_REFERENCE_FRESH_S) is seen
 * through every router, our gateway and Hive Gateway serving the committed supergraph, once the
 * stated bound has passed; at once when the change feed tells of it; and on the very next
 * operation with the bound off (0). As shipped, it is held (the default bound, REFERENCE_FRESH_S).
 */

const QUERY = "query D($id: ID!) { department(id: $id) { id name } }";
const BOUND_S = 3;

function routers(stack: GatewayStack, hiveUrl: () => string) {
  const read = async (via: "ours" | "hive", id: string): Promise<string> => {
    const res = via === "ours" ? await stack.query(QUERY, { id }) : await postGraphQL(hiveUrl(), QUERY, { id });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data.department.name as string;
  };
  return { read };
}

describe("reference data held warm for DIRECTORY_REFERENCE_FRESH_S", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_REFERENCE_FRESH_S: String(BOUND_S) } });
  let hive: ServedHive;
  beforeAll(async () => {
    hive = await serveHive(stack.gatewayEnv);
  });
  afterAll(async () => hive?.close());

  it("is read once within the bound, and a change is seen through every router once the bound has passed", async () => {
    const { read } = routers(stack, () => hive.url);
    const department = stack.directory.company.departments[3]!;
    const before = department.name;
    // both routers' plans made, then the entry read afresh: what follows is within half the bound
    await read("hive", department.id);
    await read("ours", department.id);
    stack.upstream.references.drop("departments");
    await read("ours", department.id);
    stack.resetStats();
    expect(await read("hive", department.id)).toBe(before);
    expect(await read("ours", department.id)).toBe(before);
    // held warm: the second router's read and ours cost the directory nothing
    expect(upstreamCalls(stack.stats())).toBe(0);

    department.name = `${before} (renamed)`;
    const changedAt = performance.now();
    await new Promise((r) => setTimeout(r, BOUND_S * 1000 - (performance.now() - changedAt) + 50));
    expect(await read("ours", department.id)).toBe(department.name);
    expect(await read("hive", department.id)).toBe(department.name);
  });

  it("a change the feed tells of is seen at once through every router", async () => {
    const { read } = routers(stack, () => hive.url);
    const department = stack.directory.company.departments[4]!;
    await read("ours", department.id);
    await read("hive", department.id);
    department.name = `${department.name} (moved)`;
    await stack.upstream.changes.publish({
      id: "event-1",
      topic: "department.updated",
      occurredAt: new Date().toISOString(),
      resource: { type: "department", id: department.id },
      establishmentIds: [],
      previousAttributes: null,
    });
    expect(await read("hive", department.id)).toBe(department.name);
    expect(await read("ours", department.id)).toBe(department.name);
  });
});

describe("as shipped (no DIRECTORY_REFERENCE_FRESH_S)", () => {
  const stack = useGatewayStack({ env: AS_SHIPPED });

  it("reference data is held: a department read again costs the directory nothing", async () => {
    const department = stack.directory.company.departments[5]!;
    expect((await stack.query(QUERY, { id: department.id })).errors).toBeUndefined();
    stack.resetStats();
    const again = await stack.query(QUERY, { id: department.id });
    expect(again.data.department.name).toBe(department.name);
    expect(upstreamCalls(stack.stats())).toBe(0);
  });
});

describe("with the bound off (DIRECTORY_REFERENCE_FRESH_S=0)", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_REFERENCE_FRESH_S: "0" } });
  let hive: ServedHive;
  beforeAll(async () => {
    hive = await serveHive(stack.gatewayEnv);
  });
  afterAll(async () => hive?.close());

  it("every operation reads the directory: a change is seen on the next one through every router", async () => {
    const { read } = routers(stack, () => hive.url);
    const department = stack.directory.company.departments[3]!;
    await read("ours", department.id);
    await read("hive", department.id);
    department.name = `${department.name} (renamed)`;
    expect(await read("ours", department.id)).toBe(department.name);
    expect(await read("hive", department.id)).toBe(department.name);
  });
});
