import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { legacyGet } from "./helpers.js";

/**
 * The edges that replace the legacy payloads' raw ids (issue 35: edges, not ids), through the
 * gateway: `WorkContract.template` and `.occupationCategory`, `LegacyUser.occupationCategory`,
 * `LegacyEstablishment.legalEntity`, key-only references the organisation subgraph resolves
 * through its loaders; and `WorkContract.hiringType`, `.terminationReason`,
 * `.temporaryContractGround`, entries of the legacy reference lists, each list read once per
 * request. A page of 100 costs the calls of a page of 10; each edge answers the node whose id the
 * deprecated field still gives.
 */

const stack = useGatewayStack();

/** The upstream calls by route, the token's left out. */
function calls(): Record<string, number> {
  return Object.fromEntries(Object.entries(stack.stats().byRoute).filter(([route]) => !route.includes("/connect/token")));
}

/** Runs `source` with `first` 10 then 100 (or `sizes`) and returns the answers and their calls. */
async function atTwoSizes(source: string, sizes = [10, 100]): Promise<Array<{ data: any; calls: Record<string, number> }>> {
  const runs = [];
  for (const first of sizes) {
    stack.resetStats();
    const res = await stack.query(source, { first });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    runs.push({ data: res.data, calls: calls() });
  }
  return runs;
}

describe("edges, not ids", () => {
  it("WorkContract.template and .occupationCategory: the nodes of typeId and the legacy spcId, at the calls of 10 contracts for 100", async () => {
    const [ten, hundred] = await atTwoSizes(
      `query($first: Int) { workContracts(first: $first) { nodes { id typeId socioProfessionalCategoryId template { id term title } occupationCategory { id title } } } }`,
    );
    const rest = new Map(((await legacyGet(stack, "/directory/api/4.0/work-contracts?limit=1000")).items as any[]).map((c) => [String(c.id), c]));
    const nodes = hundred!.data.workContracts.nodes as any[];
    expect(nodes).toHaveLength(100);
    for (const contract of nodes) {
      const own = rest.get(contract.id)!;
      expect(contract.template.id).toBe(String(own.typeId));
      expect(contract.template.id).toBe(String(contract.typeId));
      expect(contract.template.title).toEqual(expect.any(String));
      expect(contract.occupationCategory?.id ?? null).toBe(own.spcId === null ? null : String(own.spcId));
      expect(contract.socioProfessionalCategoryId).toBe(own.spcId);
    }
    expect(nodes.filter((c) => c.occupationCategory).every((c) => typeof c.occupationCategory.title === "string")).toBe(true);
    expect(new Set(nodes.map((c) => c.template.id)).size).toBeGreaterThan(1);
    expect(hundred!.calls).toEqual(ten!.calls);
    expect(hundred!.calls).toEqual({
      "GET /directory/api/4.0/work-contracts": 1,
      "GET /service-api/employment-templates": 1,
      "GET /service-api/occupation-categories": 1,
    });
  });

  it("LegacyUser.occupationCategory: the node of the legacy cspId, at the calls of 10 users for 100", async () => {
    const [ten, hundred] = await atTwoSizes(
      `query($first: Int) { legacyUsers(first: $first) { nodes { id socioProfessionalCategoryId occupationCategory { id title } } } }`,
    );
    const nodes = hundred!.data.legacyUsers.nodes as any[];
    expect(nodes).toHaveLength(100);
    expect(nodes.filter((u) => u.occupationCategory).length).toBeGreaterThan(50);
    for (const user of nodes) {
      expect(user.occupationCategory?.id ?? null).toBe(user.socioProfessionalCategoryId === null ? null : String(user.socioProfessionalCategoryId));
      if (user.occupationCategory) expect(user.occupationCategory.title).toEqual(expect.any(String));
    }
    expect(hundred!.calls).toEqual(ten!.calls);
    expect(hundred!.calls).toEqual({ "GET /api/v3/users": 1, "GET /service-api/occupation-categories": 1 });
  });

  it("LegacyEstablishment.legalEntity: the node of the legacy legalUnitId, at the calls of 2 establishments for all of them", async () => {
    const [ten, hundred] = await atTwoSizes(
      `query($first: Int) { legacyEstablishments(first: $first) { nodes { id legalUnitId legalEntity { id legalName } establishment { legalEntity { id } } } } }`,
      [2, 100],
    );
    const nodes = hundred!.data.legacyEstablishments.nodes as any[];
    expect(nodes.length).toBeGreaterThan(4);
    expect(new Set(nodes.map((e) => e.legalEntity.id)).size).toBeGreaterThan(1);
    for (const establishment of nodes) {
      expect(establishment.legalEntity.id).toBe(String(establishment.legalUnitId));
      // the legacy legal unit is the current API's legal entity of the same establishment
      expect(establishment.legalEntity.id).toBe(establishment.establishment.legalEntity.id);
      expect(establishment.legalEntity.legalName).toEqual(expect.any(String));
    }
    // as many calls: 2 establishments name one legal entity, read alone (the adaptive loader), 100 name several, read as the list
    const total = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);
    expect(total(hundred!.calls)).toBe(total(ten!.calls));
    // the legacy list, and beside it the current establishments (the `establishment` edge) and the legal entities
    expect(hundred!.calls).toEqual({
      "GET /organization/structure/api/establishments": 1,
      "GET /service-api/business-establishments": 1,
      "GET /service-api/legal-entities": 1,
    });
  });

  it("WorkContract.hiringType, .terminationReason and .temporaryContractGround: the entries the ids name, each list read once for 10 contracts as for 100", async () => {
    const [ten, hundred] = await atTwoSizes(
      `query($first: Int) { workContracts(first: $first) { nodes { id hiringTypeId terminationReasonId temporaryContractGroundId hiringType { id name } terminationReason { id name } temporaryContractGround { id name } } } }`,
    );
    const lists: Record<string, Map<number, string>> = {};
    for (const list of ["hiring-types", "termination-reasons", "temporary-contract-grounds"]) {
      const items = (await legacyGet(stack, `/directory/api/work-contract-${list}`)).items as Array<{ id: number; name: string }>;
      lists[list] = new Map(items.map((i) => [i.id, i.name]));
    }
    const nodes = hundred!.data.workContracts.nodes as any[];
    const expectEntry = (entry: any, id: number | null, list: Map<number, string>) =>
      expect(entry).toEqual(id === null ? null : { id, name: list.get(id) });
    for (const contract of nodes) {
      expectEntry(contract.hiringType, contract.hiringTypeId, lists["hiring-types"]!);
      expectEntry(contract.terminationReason, contract.terminationReasonId, lists["termination-reasons"]!);
      expectEntry(contract.temporaryContractGround, contract.temporaryContractGroundId, lists["temporary-contract-grounds"]!);
    }
    // every list has entries named and contracts that name none
    expect(nodes.every((c) => c.hiringType !== null)).toBe(true);
    expect(nodes.some((c) => c.terminationReason !== null) && nodes.some((c) => c.terminationReason === null)).toBe(true);
    expect(nodes.some((c) => c.temporaryContractGround !== null) && nodes.some((c) => c.temporaryContractGround === null)).toBe(true);
    // a list none of the page's contracts names is not read (the first 10 name no ground): never more than one call a list
    expect(Object.values(ten!.calls).every((n) => n === 1)).toBe(true);
    expect(Object.keys(hundred!.calls)).toEqual(expect.arrayContaining(Object.keys(ten!.calls)));
    expect(hundred!.calls).toEqual({
      "GET /directory/api/4.0/work-contracts": 1,
      "GET /directory/api/work-contract-hiring-types": 1,
      "GET /directory/api/work-contract-termination-reasons": 1,
      "GET /directory/api/work-contract-temporary-contract-grounds": 1,
    });
  });

  it("a reference list is read once in an operation that reaches contracts at two depths (identical reads one after the other do not join)", async () => {
    stack.resetStats();
    const res = await stack.query(
      `{ workContracts(first: 20) { nodes { hiringType { name } owner { workContracts { hiringType { name } } } } } }`,
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const nested = (res.data.workContracts.nodes as any[]).flatMap((c) => c.owner.workContracts);
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.every((c) => typeof c.hiringType.name === "string")).toBe(true);
    expect(calls()["GET /directory/api/work-contract-hiring-types"]).toBe(1);
  });

  it("an edge asked for its id only costs no call of the organisation subgraph", async () => {
    stack.resetStats();
    const res = await stack.query(`{ workContracts(first: 100) { nodes { template { id } occupationCategory { id } } } }`);
    expect(res.errors).toBeUndefined();
    expect(Object.keys(calls())).toEqual(["GET /directory/api/4.0/work-contracts"]);
  });
});
