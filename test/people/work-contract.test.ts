import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { useStack } from "../helpers/stack.js";
import { representations } from "../helpers/subgraph.js";
import { query } from "./helpers.js";

/**
 * `Employment.workContract`, served by people (docs/performance.md#what-a-company-router-gets): read in
 * the people fetch itself, from the owners' legacy work-contract lists, so that no router sends
 * legacy-time a fetch after people's for it.
 */

const stack = useStack({ subgraphs: ["people"] });
const LEGACY_AUTH = { authorization: "service application=demo-api-key" };
let contracts: any[];

beforeAll(async () => {
  await query(stack, `{ employee(id: "1") { id } }`);
  const owners = Array.from({ length: 60 }, (_, i) => i + 1).join(",");
  const res = await fetch(`${stack.directory.url}/directory/api/4.0/work-contracts?ownerId=${owners}&limit=1000`, { headers: LEGACY_AUTH });
  contracts = ((await res.json()) as any).items;
});

/** Runs `fn` with fresh statistics: its upstream calls by route, both APIs, the token left out. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
  stack.resetStats();
  const result = await fn();
  const { "POST /connect/token": _token, ...calls } = stack.stats().byRoute;
  return { result, calls };
}

const PROVIDED = "id externalId startsOn endsOn isApplicable trialPeriodDays renewedTrialPeriodDays trialPeriodEndsOn renewedTrialPeriodEndsOn createdAt lastUpdatedAt";
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employment { id workContract { ${PROVIDED} } } } }`;

describe("Employment.workContract in the people subgraph", () => {
  it("is the contract of the same id with every member people serves, for 40 employments in one employment call and one work-contract call", async () => {
    const some = contracts.slice(0, 40);
    const { result, calls } = await counting(() => query(stack, ENTITIES, { r: representations("Employment", some.map((c) => c.id)) }));
    expect(result._entities).toEqual(
      some.map((c) => ({
        id: String(c.id),
        workContract: {
          id: String(c.id),
          externalId: c.externalId,
          startsOn: c.startsOn,
          endsOn: c.endsOn,
          isApplicable: c.isApplicable,
          trialPeriodDays: c.trialPeriodDays,
          renewedTrialPeriodDays: c.renewedTrialPeriodDays,
          trialPeriodEndsOn: c.trialPeriodEndDate,
          renewedTrialPeriodEndsOn: c.trialPeriodEndDate2,
          createdAt: c.createdAt,
          lastUpdatedAt: c.lastModifiedAt,
        },
      })),
    );
    expect(calls).toEqual({ "GET /service-api/employments": 1, "GET /directory/api/4.0/work-contracts": 1 });
  });

  it("starts the owner's contracts with the employee's own reads: employee(id) reading its applicable employment's contract waits for no employment", async () => {
    const owner = contracts[0].ownerId;
    const { result, calls } = await counting(() => query(stack, `query($id: ID!) { employee(id: $id) { applicableEmployment { workContract { id isApplicable } } } }`, { id: String(owner) }));
    const applicable = contracts.find((c) => c.ownerId === owner && c.isApplicable);
    expect(result.employee.applicableEmployment.workContract).toEqual(applicable ? { id: String(applicable.id), isApplicable: true } : null);
    expect(calls["GET /directory/api/4.0/work-contracts"]).toBe(1);
  });
});

describe("Employment.workContract through the gateway", () => {
  const gateway = useGatewayStack();

  it("a field people does not serve comes from legacy-time for a page of employments in calls that do not grow with the page", async () => {
    const read = async (first: number) => {
      gateway.resetStats();
      const res = await gateway.query(`query($first: Int) { employments(first: $first) { nodes { id workContract { id isApplicable owner { givenName } isArchived } } } }`, { first });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const { "POST /connect/token": _token, ...calls } = gateway.stats().byRoute;
      return { nodes: res.data.employments.nodes as any[], calls };
    };
    await read(1);
    const few = await read(5);
    const many = await read(60);
    expect(many.nodes.filter((n) => n.workContract !== null).length).toBeGreaterThan(40);
    for (const node of many.nodes.filter((n) => n.workContract)) expect(node.workContract.id).toBe(node.id);
    expect(Object.values(many.calls).reduce((a, b) => a + b, 0)).toBe(Object.values(few.calls).reduce((a, b) => a + b, 0));
    expect(many.calls["GET /directory/api/4.0/work-contracts/{id}"]).toBeUndefined();
  });

  it("nodes(nodeIds:) of 30 contracts answers their members from people, the rest from legacy-time, in calls that do not grow with the ids", async () => {
    const some = contracts.slice(0, 30);
    const nodeIds = some.map((c) => Buffer.from(`WorkContract:${c.id}`).toString("base64url"));
    const read = async (ids: string[]) => {
      gateway.resetStats();
      const res = await gateway.query(`query($ids: [ID!]!) { nodes(nodeIds: $ids) { ... on WorkContract { id startsOn isApplicable owner { id } } } }`, { ids });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      const { "POST /connect/token": _token, ...calls } = gateway.stats().byRoute;
      return { nodes: res.data.nodes as any[], calls };
    };
    await read(nodeIds.slice(0, 2));
    const few = await read(nodeIds.slice(0, 3));
    const many = await read(nodeIds);
    expect(many.nodes).toEqual(some.map((c) => ({ id: String(c.id), startsOn: c.startsOn, isApplicable: c.isApplicable, owner: { id: String(c.ownerId) } })));
    expect(many.calls).toEqual(few.calls);
  });
});
