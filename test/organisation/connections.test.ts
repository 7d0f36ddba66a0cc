import { describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { cursorScope, encodeCursor } from "../../subgraphs/shared/graphql/index.js";
import { apiCalls, query, send } from "./helpers.js";

/** The root connections: filters, paging to the end, totalCount, and the checks of their arguments. */

const stack = useStack({ subgraphs: ["organisation"] });

const company = () => stack.directory.company;

/** Every id of a connection, following `endCursor` page by page. */
async function pageThrough(field: string, args: string, pageSize: number): Promise<{ ids: string[]; pages: number; totalCount: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let pages = 0;
  let totalCount = -1;
  for (;;) {
    const data: any = await query(
      stack,
      `query($after: String) { ${field}(${args ? `${args}, ` : ""}first: ${pageSize}, after: $after) {
        totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id } } } }`,
      { after },
    );
    const connection = data[field];
    pages++;
    totalCount = connection.totalCount;
    expect(connection.pageInfo.hasPreviousPage).toBe(after !== null);
    ids.push(...connection.edges.map((e: any) => e.node.id));
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
    if (pages > 100) throw new Error("the connection never ends");
  }
  return { ids, pages, totalCount };
}

const byId = (a: string, b: string) => Number(a) - Number(b);

describe("paging to the end", () => {
  const lists: Array<[string, () => Array<{ id: string }>]> = [
    ["legalEntities", () => company().legalEntities],
    ["businessEstablishments", () => company().businessEstablishments],
    ["departments", () => company().departments],
    ["employmentTemplates", () => company().employmentTemplates],
    ["occupationCategories", () => company().occupationCategories],
    ["jobQualifications", () => company().jobQualifications],
    ["taxonomies", () => company().taxonomies],
    ["taxonomyLabels", () => company().taxonomyLabels],
  ];
  for (const [field, records] of lists) {
    it(`${field} pages through every item exactly once`, async () => {
      const all = records().map((r) => r.id);
      const pageSize = Math.max(1, Math.floor(all.length / 3));
      const { ids, pages, totalCount } = await pageThrough(field, "", pageSize);
      expect(ids).toEqual([...all].sort(byId));
      expect(totalCount).toBe(all.length);
      expect(pages).toBeGreaterThanOrEqual(3);
    });
  }

  it("one page of a connection costs one upstream call", async () => {
    stack.resetStats();
    await query(stack, `{ departments(first: 10) { nodes { id name } pageInfo { endCursor } } }`);
    expect(apiCalls(stack).byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("first: 0 answers no items but tells whether there are some", async () => {
    const data = await query(stack, `{ departments(first: 0) { totalCount nodes { id } pageInfo { hasNextPage } } }`);
    expect(data.departments).toEqual({ totalCount: company().departments.length, nodes: [], pageInfo: { hasNextPage: true } });
  });
});

describe("filters", () => {
  it("legal entities filter by country code", async () => {
    const country = company().legalEntities[1]!.countryCode;
    const data = await query(stack, `query($c: [String!]) { legalEntities(filter: { countryCodes: $c }) { nodes { id } } }`, { c: [country] });
    expect(data.legalEntities.nodes.map((n: any) => n.id)).toEqual(company().legalEntities.filter((l) => l.countryCode === country).map((l) => l.id));
  });

  it("legal entities filter by archival", async () => {
    const data = await query(stack, `{ archived: legalEntities(filter: { isArchived: true }) { nodes { id } } active: legalEntities(filter: { isArchived: false }) { nodes { id } } }`);
    expect(data.archived.nodes.map((n: any) => n.id)).toEqual(company().legalEntities.filter((l) => l.isArchived).map((l) => l.id));
    expect(data.active.nodes.map((n: any) => n.id)).toEqual(company().legalEntities.filter((l) => !l.isArchived).map((l) => l.id));
  });

  it("business establishments filter by legal entity", async () => {
    const legalEntityId = company().legalEntities[0]!.id;
    const data = await query(stack, `query($l: [ID!]) { businessEstablishments(filter: { legalEntityIds: $l }) { nodes { id } } }`, { l: [legalEntityId] });
    expect(data.businessEstablishments.nodes.map((n: any) => n.id)).toEqual(
      company().businessEstablishments.filter((b) => b.legalEntityId === legalEntityId).map((b) => b.id),
    );
  });

  it("business establishments filter by name search and archival", async () => {
    const target = company().businessEstablishments.find((b) => !b.isArchived)!;
    const word = target.name.split(/[\s\-_,.]+/)[0]!.toLowerCase();
    const data = await query(stack, `query($s: String) { businessEstablishments(filter: { search: $s, isArchived: false }) { nodes { id name isArchived } } }`, { s: word });
    expect(data.businessEstablishments.nodes.map((n: any) => n.id)).toContain(target.id);
    for (const node of data.businessEstablishments.nodes) expect(node.isArchived).toBe(false);
    const archived = await query(stack, `{ businessEstablishments(filter: { isArchived: true }) { nodes { id } } }`);
    expect(archived.businessEstablishments.nodes.map((n: any) => n.id)).toEqual(company().businessEstablishments.filter((b) => b.isArchived).map((b) => b.id));
  });

  it("departments filter by name search", async () => {
    const target = company().departments.find((d) => d.name.includes(" "))!;
    const words = target.name.split(" ").map((w) => w.slice(0, 3)).join(" ");
    const data = await query(stack, `query($s: String) { departments(filter: { search: $s }) { nodes { id name } } }`, { s: words });
    expect(data.departments.nodes.map((n: any) => n.id)).toContain(target.id);
    expect(data.departments.nodes.length).toBeLessThan(company().departments.length);
  });

  it("departments filter by archival", async () => {
    const data = await query(stack, `{ departments(filter: { isArchived: true }) { nodes { id } } }`);
    expect(data.departments.nodes.map((n: any) => n.id)).toEqual(company().departments.filter((d) => d.isArchived).map((d) => d.id));
  });

  it("occupation categories filtered by establishment include those valid for all establishments", async () => {
    const establishmentId = company().businessEstablishments[3]!.id;
    const data = await query(stack, `query($b: [ID!]) { occupationCategories(filter: { businessEstablishmentIds: $b }) { nodes { id } } }`, { b: [establishmentId] });
    expect(data.occupationCategories.nodes.map((n: any) => n.id)).toEqual(
      company()
        .occupationCategories.filter((o) => o.businessEstablishmentIds === null || o.businessEstablishmentIds.includes(establishmentId))
        .map((o) => o.id),
    );
  });

  it("occupation categories filter by a part of the title", async () => {
    const target = company().occupationCategories[0]!;
    const part = target.title.slice(1, 4).toUpperCase();
    const data = await query(stack, `query($s: String) { occupationCategories(filter: { search: $s }) { nodes { id } } }`, { s: part });
    expect(data.occupationCategories.nodes.map((n: any) => n.id)).toEqual(
      company().occupationCategories.filter((o) => o.title.toLowerCase().includes(part.toLowerCase())).map((o) => o.id),
    );
  });

  it("job qualifications filter by rank and profession", async () => {
    const sample = company().jobQualifications[0]!;
    const data = await query(stack, `query($r: [Int!], $p: [ID!]) { jobQualifications(filter: { ranks: $r, professionIds: $p }) { nodes { id rank profession { id } } } }`, {
      r: [sample.rank],
      p: [sample.professionId],
    });
    expect(data.jobQualifications.nodes.map((n: any) => n.id)).toEqual(
      company().jobQualifications.filter((q) => q.rank === sample.rank && q.professionId === sample.professionId).map((q) => q.id),
    );
  });

  it("taxonomies filter by name search", async () => {
    const target = company().taxonomies[1]!;
    const data = await query(stack, `query($s: String) { taxonomies(filter: { search: $s }) { nodes { id } } }`, { s: target.name.slice(0, 3) });
    expect(data.taxonomies.nodes.map((n: any) => n.id)).toContain(target.id);
    expect(data.taxonomies.nodes.length).toBeLessThan(company().taxonomies.length);
  });

  it("taxonomy labels filter by taxonomy and archival", async () => {
    const taxonomyId = company().taxonomies[0]!.id;
    const data = await query(stack, `query($t: [ID!]) { taxonomyLabels(filter: { taxonomyIds: $t, isArchived: false }, first: 100) { nodes { id } } }`, { t: [taxonomyId] });
    expect(data.taxonomyLabels.nodes.map((n: any) => n.id)).toEqual(
      company().taxonomyLabels.filter((l) => l.taxonomyId === taxonomyId && !l.isArchived).map((l) => l.id),
    );
  });

  it("taxonomy labels filter by name search", async () => {
    const target = company().taxonomyLabels[2]!;
    const data = await query(stack, `query($s: String) { taxonomyLabels(filter: { search: $s }, first: 100) { nodes { id } } }`, { s: target.name.split(" ")[0] });
    expect(data.taxonomyLabels.nodes.map((n: any) => n.id)).toContain(target.id);
  });

  it("taxonomy labels sort by name descending", async () => {
    const data = await query(stack, `{ taxonomyLabels(sort: [NAME_DESC], first: 100) { nodes { name } } }`);
    const names = data.taxonomyLabels.nodes.map((n: any) => n.name);
    expect(names).toHaveLength(company().taxonomyLabels.length);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)));
  });
});

describe("bad arguments", () => {
  const cases: Array<[string, string, Record<string, unknown>?]> = [
    ["first above 100", `{ departments(first: 101) { nodes { id } } }`],
    ["a negative first", `{ legalEntities(first: -1) { nodes { id } } }`],
    ["an after that is no cursor", `{ departments(after: "not-a-cursor") { nodes { id } } }`],
    ["more than 100 legal entity ids", `query($l: [ID!]) { businessEstablishments(filter: { legalEntityIds: $l }) { nodes { id } } }`, { l: Array.from({ length: 101 }, (_, i) => String(i + 1)) }],
    ["an empty id list", `{ businessEstablishments(filter: { legalEntityIds: [] }) { nodes { id } } }`],
    ["an id with a comma", `{ occupationCategories(filter: { businessEstablishmentIds: ["1,2"] }) { nodes { id } } }`],
    ["a country code that is not alpha-3", `{ legalEntities(filter: { countryCodes: ["FR"] }) { nodes { id } } }`],
    ["a negative rank", `{ jobQualifications(filter: { ranks: [-1] }) { nodes { id } } }`],
    ["a search without a word", `{ departments(filter: { search: " - " }) { nodes { id } } }`],
    ["a blank title search", `{ occupationCategories(filter: { search: "  " }) { nodes { id } } }`],
    ["a sort naming a key twice", `{ taxonomyLabels(sort: [NAME_ASC, NAME_DESC]) { nodes { id } } }`],
  ];
  for (const [what, source, variables] of cases) {
    it(`${what} is a BAD_USER_INPUT made before any upstream call`, async () => {
      stack.resetStats();
      const response = await send(stack, source, variables);
      expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
      expect(apiCalls(stack).total).toBe(0);
    });
  }

  it("a cursor whose page the upstream rejects comes back as BAD_USER_INPUT naming the call", async () => {
    // well-formed for this facade, but the REST page cursor inside it was never issued by the upstream
    const forged = encodeCursor({ p: "forged-page", s: 0 }, { signer: stack.upstream.cursors, scope: cursorScope("/legal-entities", {}) });
    const response = await send(stack, `query($a: String) { legalEntities(first: 2, after: $a) { nodes { id } } }`, { a: forged });
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.errors?.[0]?.extensions?.upstream).toMatchObject({ method: "GET", path: "/legal-entities", status: 400 });
  });
});
