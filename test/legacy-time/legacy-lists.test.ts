import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadSubgraphModule, postGraphQL, useStack } from "../helpers/stack.js";
import { entitiesQuery, legacyGet, range, representations } from "./helpers.js";

/**
 * The legacy lists of work contracts and establishments as connections: `workContracts`,
 * `BusinessEstablishment.workContracts` and `legacyEstablishments`, compared with direct reads of
 * the legacy API, with their upstream calls counted.
 */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});

const CONTRACTS = `query($filter: WorkContractFilter, $first: Int, $after: String) {
  workContracts(filter: $filter, first: $first, after: $after) {
    nodes { id isApplicable owner { id } establishment { id } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;
const CONTRACTS_COUNTED = CONTRACTS.replace("pageInfo {", "totalCount pageInfo {");

/** Every contract of the REST list for `params`, in its order. */
async function restContracts(params = ""): Promise<any[]> {
  const body = await legacyGet(stack, `/directory/api/4.0/work-contracts?limit=1000${params}`);
  return body.items;
}

/** Every node of a connection walked with `first`, and the calls of each page. */
async function walk(query: string, field: string, variables: Record<string, unknown>, first: number): Promise<{ ids: string[]; calls: number[] }> {
  const ids: string[] = [];
  const calls: number[] = [];
  let after: string | null = null;
  for (let n = 0; n < 200; n++) {
    stack.resetStats();
    const res: any = await stack.gql(url, query, { ...variables, first, after });
    expect(res.errors).toBeUndefined();
    calls.push(stack.stats().total);
    const connection = res.data[field];
    ids.push(...connection.nodes.map((node: any) => String(node.id)));
    if (!connection.pageInfo.hasNextPage) return { ids, calls };
    after = connection.pageInfo.endCursor;
  }
  throw new Error("the connection never ended");
}

describe("workContracts", () => {
  it("walks the whole list without gaps or duplicates, one call a page (two when a page straddles the list's pages)", async () => {
    const rest = await restContracts();
    expect(rest.length).toBeGreaterThan(300);
    const byHundred = await walk(CONTRACTS, "workContracts", {}, 100);
    expect(byHundred.ids).toEqual(rest.map((c) => String(c.id)));
    expect(byHundred.calls.every((c) => c === 1)).toBe(true);
    const bySeven = await walk(CONTRACTS, "workContracts", {}, 37);
    expect(bySeven.ids).toEqual(rest.map((c) => String(c.id)));
    expect(Math.max(...bySeven.calls)).toBeLessThanOrEqual(2);
  });

  it("answers each filter as the REST list does, and totalCount from the list's count", async () => {
    const all = await restContracts();
    const owners = [...new Set(all.map((c) => c.ownerId))].slice(0, 30);
    const types = [...new Set(all.map((c) => c.typeId))].slice(0, 2);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ownerIds: owners.map(String) }, `&ownerId=${owners.join(",")}`],
      [{ typeIds: types.map(String) }, `&typeId=${types.join(",")}`],
      [{ establishmentIds: ["2", "5"] }, "&establishmentId=2,5"],
      [{ isApplicable: true }, "&isApplicable=true"],
      [{ isApplicable: false, establishmentIds: ["1"] }, "&isApplicable=false&establishmentId=1"],
      [{ isArchived: true }, "&isArchived=true"],
      [{ isArchived: false }, "&isArchived=false"],
    ];
    for (const [filter, params] of cases) {
      const rest = await restContracts(params);
      expect(rest.length).toBeGreaterThan(0);
      stack.resetStats();
      const res = await stack.gql(url, CONTRACTS_COUNTED, { filter, first: 100 });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts": 1 });
      const connection = res.data.workContracts;
      expect(connection.totalCount).toBe(rest.length);
      expect(connection.nodes.map((n: any) => n.id)).toEqual(rest.slice(0, 100).map((c) => String(c.id)));
      expect(connection.pageInfo.hasNextPage).toBe(rest.length > 100);
    }
    // omitted isArchived reads both, as the list does
    const archived = await restContracts("&isArchived=true");
    expect(archived.length).toBeGreaterThan(0);
    const both = await walk(CONTRACTS, "workContracts", { filter: { ownerIds: [...new Set(archived.map((c) => String(c.ownerId)))].slice(0, 100) } }, 100);
    expect(archived.every((c) => both.ids.includes(String(c.id)))).toBe(true);
  });

  it("reads isArchived, which a contract does not write, from the list filtered by isArchived: one more call per 100 owners", async () => {
    const archived = new Set((await restContracts("&isArchived=true")).map((c) => String(c.id)));
    stack.resetStats();
    const res = await stack.gql(url, CONTRACTS.replace("isApplicable", "isApplicable isArchived"), { first: 100 });
    expect(res.errors).toBeUndefined();
    const nodes = res.data.workContracts.nodes as any[];
    expect(nodes.map((n) => n.isArchived)).toEqual(nodes.map((n) => archived.has(n.id)));
    expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts": 2 });
  });

  it("costs one call at first: 10 and at first: 100, references to owners and establishments included", async () => {
    for (const first of [10, 100]) {
      stack.resetStats();
      const res = await stack.gql(url, CONTRACTS_COUNTED, { first });
      expect(res.errors).toBeUndefined();
      expect(res.data.workContracts.nodes).toHaveLength(first);
      expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts": 1 });
    }
  });

  it("answers an empty id list with no contract and no call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, CONTRACTS_COUNTED, { filter: { ownerIds: [] } });
    expect(res.errors).toBeUndefined();
    expect(res.data.workContracts).toMatchObject({ nodes: [], totalCount: 0, pageInfo: { hasNextPage: false } });
    expect(stack.stats().total).toBe(0);
  });

  it.each([
    ["an owner id that is not a legacy id", { filter: { ownerIds: ["abc"] } }, /ownerIds/],
    ["a type id of 0", { filter: { typeIds: ["0"] } }, /typeIds/],
    ["an establishment id with a comma", { filter: { establishmentIds: ["1,2"] } }, /establishmentIds/],
    ["101 owners", { filter: { ownerIds: range(1, 101).map(String) } }, /at most 100/],
    ["first: 101", { first: 101 }, /first/],
    ["a forged cursor", { after: "eyJwIjoiMTAiLCJzIjowfQ.forged" }, /cursor/],
  ])("refuses %s as BAD_USER_INPUT before any call", async (_name, variables, message) => {
    stack.resetStats();
    const res = await stack.gql(url, CONTRACTS, variables);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toMatch(message);
    expect(stack.stats().total).toBe(0);
  });

  it("refuses a cursor of another filter before any call", async () => {
    const page = await stack.gql(url, CONTRACTS, { first: 5, filter: { isApplicable: true } });
    stack.resetStats();
    const res = await stack.gql(url, CONTRACTS, { first: 5, filter: { isApplicable: false }, after: page.data.workContracts.pageInfo.endCursor });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(stack.stats().total).toBe(0);
  });
});

const ESTABLISHMENT_CONTRACTS = `query($r: [_Any!]!, $first: Int, $filter: WorkContractFilter) {
  _entities(representations: $r) { ... on BusinessEstablishment { id workContracts(first: $first, filter: $filter) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } } }
}`;
const establishments = (ids: readonly number[]) => representations("BusinessEstablishment", ids);

describe("BusinessEstablishment.workContracts", () => {
  it("answers each establishment's contracts as the list filtered by establishmentId, in one call for all of them", async () => {
    const ids = range(1, 9);
    for (const first of [10, 100]) {
      stack.resetStats();
      const res = await stack.gql(url, ESTABLISHMENT_CONTRACTS, { r: establishments(ids), first });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts": 1 });
      for (const [i, id] of ids.entries()) {
        const rest = await restContracts(`&establishmentId=${id}`);
        const connection = res.data._entities[i].workContracts;
        expect(connection.totalCount).toBe(rest.length);
        expect(connection.nodes.map((n: any) => n.id)).toEqual(rest.slice(0, first).map((c) => String(c.id)));
        expect(connection.pageInfo.hasNextPage).toBe(rest.length > first);
      }
    }
  });

  it("applies the other filters, and a page after a batched cursor continues without gap", async () => {
    const rest = await restContracts("&establishmentId=1&isApplicable=true");
    const res = await stack.gql(url, ESTABLISHMENT_CONTRACTS, { r: establishments([1, 2]), first: 10, filter: { isApplicable: true } });
    expect(res.errors).toBeUndefined();
    const firstPage = res.data._entities[0].workContracts;
    expect(firstPage.nodes.map((n: any) => n.id)).toEqual(rest.slice(0, 10).map((c) => String(c.id)));
    const AFTER = `query($r: [_Any!]!, $after: String) { _entities(representations: $r) { ... on BusinessEstablishment { workContracts(first: 10, after: $after, filter: { isApplicable: true }) { nodes { id } } } } }`;
    stack.resetStats();
    const next = await stack.gql(url, AFTER, { r: establishments([1]), after: firstPage.pageInfo.endCursor });
    expect(next.errors).toBeUndefined();
    expect(stack.stats().total).toBe(1);
    expect(next.data._entities[0].workContracts.nodes.map((n: any) => n.id)).toEqual(rest.slice(10, 20).map((c) => String(c.id)));
  });

  it("refuses filter.establishmentIds on the edge before any call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, ESTABLISHMENT_CONTRACTS, { r: establishments([1, 2]), filter: { establishmentIds: ["3"] } });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toMatch(/establishmentIds/);
    expect(stack.stats().total).toBe(0);
  });
});

const ESTABLISHMENTS = `query($filter: LegacyEstablishmentFilter, $first: Int, $after: String) {
  legacyEstablishments(filter: $filter, first: $first, after: $after) {
    totalCount
    nodes { id name legalUnitId isArchived establishment { id } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;

describe("legacyEstablishments", () => {
  async function restEstablishments(params = ""): Promise<any[]> {
    return (await legacyGet(stack, `/organization/structure/api/establishments?limit=100${params}`)).items;
  }

  it("leaves archived establishments out unless asked, as the list does; null asks for both", async () => {
    const active = await restEstablishments();
    const archived = await restEstablishments("&isArchived=true");
    expect(archived.length).toBeGreaterThan(0);
    for (const [filter, expected] of [
      [undefined, active],
      [{ isArchived: false }, active],
      [{ isArchived: true }, archived],
      [{ isArchived: null }, [...active, ...archived].sort((a, b) => a.id - b.id)],
    ] as const) {
      stack.resetStats();
      const res = await stack.gql(url, ESTABLISHMENTS, { filter, first: 100 });
      expect(res.errors).toBeUndefined();
      expect(stack.stats().byRoute).toEqual({ "GET /organization/structure/api/establishments": 1 });
      expect(res.data.legacyEstablishments.nodes.map((n: any) => n.id)).toEqual(expected.map((e) => String(e.id)));
      expect(res.data.legacyEstablishments.totalCount).toBe(expected.length);
      expect(res.data.legacyEstablishments.nodes[0]).toMatchObject({ establishment: { id: String(expected[0].id) } });
    }
  });

  it("filters by ids, legal units and name search as the list does", async () => {
    const all = await restEstablishments("&isArchived=true,false");
    const unit = all[0].legalUnitId;
    const word = all[1].name.split(/\s+/)[0]!;
    for (const [filter, params] of [
      [{ ids: ["1", "3", "9"], isArchived: null }, "&id=1,3,9&isArchived=true,false"],
      [{ legalUnitIds: [String(unit)] }, `&legalUnitId=${unit}`],
      [{ search: word.slice(0, 3) }, `&search=${encodeURIComponent(word.slice(0, 3))}`],
    ] as const) {
      const rest = await restEstablishments(params);
      expect(rest.length).toBeGreaterThan(0);
      const res = await stack.gql(url, ESTABLISHMENTS, { filter, first: 100 });
      expect(res.errors).toBeUndefined();
      expect(res.data.legacyEstablishments.nodes.map((n: any) => n.id)).toEqual(rest.map((e) => String(e.id)));
    }
  });

  it("pages through the list's own cursors without gaps or duplicates, one call a page", async () => {
    const rest = await restEstablishments("&isArchived=true,false");
    for (const first of [1, 2, 4]) {
      const ESTABLISHMENT_IDS = ESTABLISHMENTS.replace("totalCount", "");
      const { ids, calls } = await walk(ESTABLISHMENT_IDS, "legacyEstablishments", { filter: { isArchived: null } }, first);
      expect(ids).toEqual(rest.map((e) => String(e.id)));
      expect(calls.every((c) => c === 1)).toBe(true);
    }
  });

  it("answers an empty id list with nothing and no call; refuses bad ids and a blank search before any call", async () => {
    stack.resetStats();
    const empty = await stack.gql(url, ESTABLISHMENTS, { filter: { ids: [] } });
    expect(empty.data.legacyEstablishments).toMatchObject({ nodes: [], totalCount: 0 });
    for (const filter of [{ ids: ["x"] }, { legalUnitIds: range(1, 101).map(String) }, { search: "  " }]) {
      const res = await stack.gql(url, ESTABLISHMENTS, { filter });
      expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    }
    expect(stack.stats().total).toBe(0);
  });
});

describe("the nodes' references", () => {
  it("WorkContract.establishment and LegacyEstablishment.establishment carry the same ids as the REST items", async () => {
    const res = await stack.gql(url, CONTRACTS, { first: 20, filter: { establishmentIds: ["4"] } });
    expect(res.data.workContracts.nodes.every((n: any) => n.establishment.id === "4")).toBe(true);
    const query = entitiesQuery("BusinessEstablishment", "legacy { id name establishment { id } }");
    const legacy = await stack.gql(url, query, { r: establishments([4]) });
    expect(legacy.data._entities[0].legacy).toMatchObject({ id: "4", establishment: { id: "4" } });
  });
});

describe("the list parameters sent", () => {
  let proxy: HttpServer;
  let sent: string[] = [];
  let subgraphUrl: string;
  let closeSubgraph: () => Promise<void>;
  let upstream: Upstream;

  beforeAll(async () => {
    // in front of the directory: forwards every request and records its URL
    proxy = createHttpServer(async (req, res) => {
      sent.push(decodeURIComponent(req.url ?? ""));
      const answer = await fetch(`${stack.directory.url}${req.url}`, { headers: { authorization: String(req.headers.authorization ?? "") } });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    upstream = new Upstream(loadUpstreamConfig({ DIRECTORY_BASE_URL: proxyUrl, DIRECTORY_REQUEST_BUDGET: "off", DIRECTORY_CLIENT_ID: "x", DIRECTORY_CLIENT_SECRET: "y", DIRECTORY_API_KEY: "demo-api-key" }));
    const running = await startSubgraphModule(await loadSubgraphModule("legacy-time"), { upstream, port: 0 });
    closeSubgraph = running.close;
    subgraphUrl = running.url;
  });
  afterAll(async () => {
    await closeSubgraph?.();
    await upstream?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it("asks the work-contract list for its count only when totalCount is selected, and maps offsets to page and limit", async () => {
    sent = [];
    await postGraphQL(subgraphUrl, `{ workContracts(first: 10) { nodes { id } } }`);
    expect(sent).toEqual(["/directory/api/4.0/work-contracts?page=1&limit=11"]);
    sent = [];
    const counted = await postGraphQL(subgraphUrl, `{ workContracts(first: 10, filter: { isArchived: false }) { totalCount pageInfo { endCursor } } }`);
    expect(sent).toEqual(["/directory/api/4.0/work-contracts?isArchived=false&fields.root=count&page=1&limit=11"]);
    sent = [];
    await postGraphQL(subgraphUrl, `query($after: String) { workContracts(first: 10, after: $after, filter: { isArchived: false }) { nodes { id } } }`, {
      after: counted.data.workContracts.pageInfo.endCursor,
    });
    // items 10..20 (ten and one more, to know whether a page follows): no page of 11 to 20 holds them all, the first of 21 does
    expect(sent).toEqual(["/directory/api/4.0/work-contracts?isArchived=false&page=1&limit=21"]);
  });

  it("pages time entries by offset and establishments by the list's cursor", async () => {
    sent = [];
    await postGraphQL(subgraphUrl, `{ timeEntries(filter: { ownerIds: ["3"], startsOn: { from: "2026-06-08", to: "2026-06-14" } }, first: 5) { nodes { id } } }`);
    expect(sent).toEqual(["/api/v3/timeentries?ownerId=3&startsAt=between,2026-06-08,2026-06-14&layer=notequal,1&paging=0,6"]);
    sent = [];
    const first = await postGraphQL(subgraphUrl, `{ legacyEstablishments(first: 1) { pageInfo { endCursor } } }`);
    expect(sent).toEqual(["/organization/structure/api/establishments?fields.root=next,count&limit=1"]);
    sent = [];
    await postGraphQL(subgraphUrl, `query($after: String) { legacyEstablishments(first: 2, after: $after) { nodes { id } } }`, {
      after: first.data.legacyEstablishments.pageInfo.endCursor,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^\/organization\/structure\/api\/establishments\?fields\.root=next,count&limit=2&page=[A-Za-z0-9_-]+$/);
  });
});
