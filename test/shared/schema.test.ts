import { composeServices } from "@apollo/composition";
import { buildSchema, graphql, parse, type GraphQLResolveInfo } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postGraphQL } from "../helpers/stack.js";
import { selects, subgraphSdl, translate, translations } from "../../subgraphs/shared/graphql/index.js";
import { probeSubgraph, startProbe, type Probe } from "./probe.js";

let probe: Probe;
const gql = (query: string, variables?: Record<string, unknown>) => postGraphQL(probe.subgraph.url, query, variables);

beforeAll(async () => {
  probe = await startProbe();
});
afterAll(() => probe.close());

describe("the Date scalar", () => {
  it.each(["2026-06-15", "2024-02-29", "2000-02-29", "0099-12-31"])("keeps the calendar date %s as it is", async (value) => {
    expect((await gql(`query($d: Date!) { date(value: $d) }`, { d: value })).data).toEqual({ date: value });
    expect((await gql(`{ date(value: "${value}") }`)).data).toEqual({ date: value });
  });

  it.each(["2026-02-30", "2023-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-6-1", "2026-06-15T00:00:00Z", ""])(
    "refuses %j in a variable as BAD_USER_INPUT",
    async (value) => {
      const res = await gql(`query($d: Date!) { date(value: $d) }`, { d: value });
      expect(res.data).toBeUndefined();
      expect(res.errors![0]!.extensions!.code).toBe("BAD_USER_INPUT");
      expect(res.errors![0]!.message).toContain("YYYY-MM-DD");
    },
  );

  it("refuses an impossible date written in the operation as BAD_USER_INPUT, with status 200 so that gateways relay it", async () => {
    const res = await gql(`{ date(value: "2026-02-30") }`);
    expect(res.status).toBe(200);
    expect(res.data).toBeUndefined();
    expect(res.errors![0]!.extensions).toEqual({ code: "BAD_USER_INPUT", field: "value" });
    expect(res.errors![0]!.message).toBe('date.value must be a calendar date as YYYY-MM-DD, got "2026-02-30"');
  });

  it("refuses a number", async () => {
    const res = await gql(`query($d: Date!) { date(value: $d) }`, { d: 20260615 });
    expect(res.errors![0]!.extensions!.code).toBe("BAD_USER_INPUT");
  });

  it("an impossible date from a resolver is a server error, not a wrong answer", async () => {
    const res = await gql(`{ impossibleDate }`);
    expect(res.data).toEqual({ impossibleDate: null });
    expect(res.errors![0]!.extensions!.code).toBe("INTERNAL_SERVER_ERROR");
  });
});

describe("translations", () => {
  it.each([
    ["fr-FR", "Bonjour"],
    ["FR-fr", "Bonjour"],
    ["fr", "Bonjour"],
    ["fr-CA", "Bonjour"],
    ["de-DE", "Grüezi"],
    ["en-GB", "Hello"],
    ["en", "Hello"],
    ["es", "Hi"],
    ["", "Hi"],
  ])("lang %j answers %j", async (lang, text) => {
    expect((await gql(`query($l: String) { title(lang: $l) }`, { l: lang })).data).toEqual({ title: text });
  });

  it("without lang the invariant text is answered", async () => {
    expect((await gql(`{ title }`)).data).toEqual({ title: "Hi" });
  });

  it("every translation is listed with its language", async () => {
    const res = await gql(`{ titleTranslations { language text } }`);
    expect(res.data.titleTranslations).toEqual([
      { language: "fr-FR", text: "Bonjour" },
      { language: "de-CH", text: "Grüezi" },
      { language: "en", text: "Hello" },
    ]);
  });

  it("a language whose text is null (the shape allows it) is neither listed nor answered", () => {
    const t9n = { title: { "fr-FR": null, fr: "Salut", en: null } };
    expect(translations(t9n, "title")).toEqual([{ language: "fr", text: "Salut" }]);
    expect(translate("Hi", t9n, "title", "fr-FR")).toBe("Salut");
    expect(translate("Hi", t9n, "title", "en")).toBe("Hi");
  });
});

describe("the federated schema", () => {
  it("links Federation 2 and keeps the entity's key and the shareable value types", async () => {
    const sdl = await subgraphSdl(await probeSubgraph.buildSchema());
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@tag"])');
    expect(sdl).toMatch(/type ProbeEmployee\s+@key\(fields: "id"\)/);
    expect(sdl).toMatch(/type PageInfo\s+@shareable/);
    expect(sdl).toMatch(/type Translation\s+@shareable/);
    expect(sdl).toContain("scalar Date");
  });

  it("the SDL composes into a supergraph without errors or hints", async () => {
    const sdl = await subgraphSdl(await probeSubgraph.buildSchema());
    const result = composeServices([{ name: "probe", url: "http://probe.invalid/graphql", typeDefs: parse(sdl) }]);
    expect(result.errors ?? []).toEqual([]);
    expect((result.hints ?? []).map((h) => h.toString())).toEqual([]);
  });

  it("the gateway reads the same SDL over HTTP through _service", async () => {
    const res = await gql(`{ _service { sdl } }`);
    expect(`${res.data._service.sdl.trim()}\n`).toBe(await subgraphSdl(await probeSubgraph.buildSchema()));
  });

  it("entities are resolved by reference through the request's loaders: one call for the batch, null for an unknown id", async () => {
    const ids = probe.directory.company.employees.slice(0, 3).map((e) => e.id);
    probe.directory.stats.reset();
    const res = await gql(`query($r: [_Any!]!) { _entities(representations: $r) { ... on ProbeEmployee { id givenName } } }`, {
      r: [...ids, "999999"].map((id) => ({ __typename: "ProbeEmployee", id })),
    });
    expect(res.data._entities.map((e: { id: string } | null) => e?.id ?? null)).toEqual([...ids, null]);
    expect(res.data._entities[0].givenName).toBe(probe.directory.company.employees[0]!.givenName);
    expect(probe.directory.stats.snapshot().byRoute).toEqual({ "GET /service-api/employees": 1 });
  });
});

describe("totalCount only when selected", () => {
  it.each([
    ["directly", `{ employees(first: 2) { totalCount nodes { id } } }`],
    ["through a fragment", `{ employees(first: 2) { ...Counted } } fragment Counted on ProbeEmployeeConnection { totalCount }`],
    ["through an inline fragment", `{ employees(first: 2) { ... on ProbeEmployeeConnection { totalCount } } }`],
  ])("is answered when selected %s", async (_, query) => {
    expect((await gql(query)).data.employees.totalCount).toBe(probe.directory.company.employees.length);
  });

  it("is not asked for when not selected, also when another alias of the same field selects it", async () => {
    const asked: boolean[] = [];
    const schema = buildSchema(`type Page { totalCount: Int, items: [Int] } type Query { page: Page }`);
    const rootValue = { page: (_: unknown, __: unknown, info: GraphQLResolveInfo) => (asked.push(selects(info, "totalCount")), { totalCount: 1, items: [] }) };
    await graphql({ schema, rootValue, source: `{ a: page { items } b: page { totalCount } c: page { ... on Page { items } } }` });
    expect(asked).toEqual([false, true, false]);
  });
});

describe("field resolvers of a subgraph schema", () => {
  it("leaves a plain property to graphql-js's default resolver, keeps resolver methods, root fields and renamed properties", async () => {
    const { loadSubgraphModule } = await import("../helpers/stack.js");
    const { isObjectType } = await import("graphql");
    const people = await (await loadSubgraphModule("people")).buildSchema();
    const employee = people.getType("Employee");
    if (!isObjectType(employee)) throw new Error("no Employee type");
    // a property of the REST object, read as it is
    expect(employee.getFields().givenName!.resolve).toBeUndefined();
    // resolved by a method of EmployeeResolver
    expect(employee.getFields().manager!.resolve).toBeTypeOf("function");
    expect(people.getQueryType()!.getFields().employee!.resolve).toBeTypeOf("function");
    const legacy = await (await loadSubgraphModule("legacy-time")).buildSchema();
    const contract = legacy.getType("WorkContract");
    if (!isObjectType(contract)) throw new Error("no WorkContract type");
    // a property named otherwise than its field (`trialPeriodEndDate` in the legacy payload)
    expect(contract.getFields().trialPeriodEndsOn!.resolve).toBeTypeOf("function");
  });
});
