import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { entitiesQuery, legacyGet, representations } from "./helpers.js";

/** AxisSection: fields, translated name, the parent/children tree, the list, updateAxisSection. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;
let all: any[];

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  // the REST multilingualName is the string `[en-US]…|[fr-FR]…`: read here as an object
  all = (await legacyGet(stack, "/api/v3/axisSections")).data.items.map((s: any) => ({
    ...s,
    multilingualName: Object.fromEntries(s.multilingualName.split("|").map((entry: string) => [entry.slice(1, entry.indexOf("]")), entry.slice(entry.indexOf("]") + 1)])),
  }));
});

const FIELDS = "id code axisId description endsAt active isPublic name nameTranslations { language text } owner { id }";

function read(id: string, selection = FIELDS) {
  return stack.gql(url, `query($id: ID!) { axisSection(id: $id) { ${selection} } }`, { id });
}

/** A task (axis 3) with everything above it, from the legacy list. */
function task() {
  const t = all.find((s) => s.axisId === 3 && s.parentAxisSections.length === 1)!;
  const project = all.find((s) => s.id === t.parentAxisSections[0].id)!;
  const centre = all.find((s) => s.id === project.parentAxisSections[0].id)!;
  return { t, project, centre };
}

describe("AxisSection", () => {
  it("reads every field of the legacy axis section", async () => {
    const s = all.find((x) => x.ownerId !== null && x.description !== null)!;
    const res = await read(String(s.id));
    expect(res.errors).toBeUndefined();
    expect(res.data.axisSection).toEqual({
      id: String(s.id),
      code: s.code,
      axisId: s.axisId,
      description: s.description,
      endsAt: s.endOn,
      active: s.active,
      isPublic: s.isPublic,
      name: s.name,
      nameTranslations: Object.entries(s.multilingualName).map(([language, text]) => ({ language, text })),
      owner: { id: String(s.ownerId) },
    });
  });

  it("names itself in the language asked for, else in its invariant name", async () => {
    const s = all.find((x) => x.multilingualName["fr-FR"] && x.multilingualName["fr-FR"] !== x.name)!;
    const res = await read(String(s.id), `fr: name(lang: "fr-FR") base: name(lang: "fr") none: name(lang: "ja-JP") plain: name`);
    expect(res.data.axisSection).toEqual({ fr: s.multilingualName["fr-FR"], base: s.multilingualName["fr-FR"], none: s.name, plain: s.name });
  });

  it("hangs under its parent and lists its children", async () => {
    const { t, project, centre } = task();
    const res = await read(
      String(project.id),
      "parent { id parent { id } } parents { id } children { id code parent { id } } ",
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.axisSection.parent).toEqual({ id: String(centre.id), parent: null });
    expect(res.data.axisSection.parents).toEqual([{ id: String(centre.id) }]);
    expect(res.data.axisSection.children.map((c: any) => c.id)).toContain(String(t.id));
    expect(res.data.axisSection.children.every((c: any) => c.parent.id === String(project.id))).toBe(true);
  });

  it("walks up the tree from a task with one call per level", async () => {
    const { t, centre } = task();
    stack.resetStats();
    const res = await read(String(t.id), "parent { parent { code children { id } } }");
    expect(res.data.axisSection.parent.parent.code).toBe(centre.code);
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/axisSections": 3 });
  });

  it("is null, without error, for a section that does not exist", async () => {
    const res = await stack.gql(url, `{ a: axisSection(id: "999999") { id } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ a: null });
  });

  it("an id that is not a legacy integer is BAD_USER_INPUT before any upstream call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, `{ a: axisSection(id: "999999") { id } b: axisSection(id: "x") { id } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toContain("b.id");
    expect(stack.stats().total).toBe(0);
  });

  it("resolves 60 references in one call", async () => {
    stack.resetStats();
    const some = all.slice(0, 60);
    const res = await stack.gql(url, entitiesQuery("AxisSection", "id code"), { r: representations("AxisSection", some.map((s) => s.id)) });
    expect(res.data._entities).toEqual(some.map((s) => ({ id: String(s.id), code: s.code })));
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/axisSections": 1 });
  });
});

describe("Query.axisSections", () => {
  it("lists the sections of an axis, ordered by id, a page at a time", async () => {
    const centres = all.filter((s) => s.axisId === 1).map((s) => String(s.id));
    const first = await stack.gql(url, `{ axisSections(filter: { axisIds: [1] }, first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } }`);
    expect(first.data.axisSections.totalCount).toBe(centres.length);
    expect(first.data.axisSections.nodes.map((n: any) => n.id)).toEqual(centres.slice(0, 2));
    expect(first.data.axisSections.pageInfo.hasNextPage).toBe(true);
    const next = await stack.gql(url, `query($after: String) { axisSections(filter: { axisIds: [1] }, first: 100, after: $after) { nodes { id } } }`, {
      after: first.data.axisSections.pageInfo.endCursor,
    });
    expect(next.data.axisSections.nodes.map((n: any) => n.id)).toEqual(centres.slice(2));
  });

  it("filters by ids", async () => {
    const ids = all.slice(3, 6).map((s) => String(s.id));
    const res = await stack.gql(url, `query($ids: [ID!]) { axisSections(filter: { ids: $ids }) { nodes { id } } }`, { ids });
    expect(res.data.axisSections.nodes.map((n: any) => n.id)).toEqual(ids);
  });

  it("refuses more than 100 ids with BAD_USER_INPUT", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    const res = await stack.gql(url, `query($ids: [ID!]) { axisSections(filter: { ids: $ids }) { nodes { id } } }`, { ids });
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("refuses an axis id below 1 with BAD_USER_INPUT naming it, before any upstream call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, `{ axisSections(filter: { axisIds: [0] }) { nodes { id } } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(res.errors?.[0]?.message).toContain("filter.axisIds");
    expect(stack.stats().total).toBe(0);
  });

  it("answers an empty ids list with no section, without an upstream call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, `{ axisSections(filter: { ids: [] }) { totalCount nodes { id } } }`);
    expect(res.data.axisSections).toEqual({ totalCount: 0, nodes: [] });
    expect(stack.stats().total).toBe(0);
  });

  it("refuses a page size over 100 with BAD_USER_INPUT", async () => {
    const res = await stack.gql(url, `{ axisSections(first: 101) { nodes { id } } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

const UPDATE = `mutation($id: ID!, $input: AxisSectionInput!) {
  updateAxisSection(id: $id, input: $input) {
    __typename
    ... on AxisSection { id code description name nameTranslations { language text } active parent { id } }
    ... on MutationError { message fields }
  }
}`;

describe("updateAxisSection", () => {
  it("writes the given fields and keeps the others", async () => {
    const { project, centre } = task();
    const res = await stack.gql(url, UPDATE, {
      id: String(project.id),
      input: { description: "Renamed in a test", names: [{ language: "en-US", text: "Renamed project" }, { language: "de-DE", text: "Umbenannt" }] },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateAxisSection).toEqual({
      __typename: "AxisSection",
      id: String(project.id),
      code: project.code,
      description: "Renamed in a test",
      name: "Renamed project",
      nameTranslations: [
        { language: "en-US", text: "Renamed project" },
        { language: "de-DE", text: "Umbenannt" },
      ],
      active: project.active,
      parent: { id: String(centre.id) },
    });
    const back = (await legacyGet(stack, `/api/v3/axisSections/${project.id}`)).data;
    expect(back).toMatchObject({ code: project.code, description: "Renamed in a test", isPublic: project.isPublic, ownerId: project.ownerId });
  });

  it("returns a refusal as an InvalidInputError naming the field, and writes nothing", async () => {
    const { t, centre } = task();
    // a task must hang under a project, not a cost centre
    const res = await stack.gql(url, UPDATE, { id: String(t.id), input: { parentId: String(centre.id), description: "not written" } });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateAxisSection).toEqual({ __typename: "InvalidInputError", message: expect.stringMatching(/parent/i), fields: ["parentId"] });
    const back = (await legacyGet(stack, `/api/v3/axisSections/${t.id}`)).data;
    expect(back.description).toBe(t.description);
    expect(back.parentAxisSections.map((p: any) => p.id)).toEqual(t.parentAxisSections.map((p: any) => p.id));
  });

  it("refuses null for a required field before any upstream call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, UPDATE, { id: String(all[0].id), input: { code: null } });
    expect(res.data.updateAxisSection).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("code"), fields: ["code"] });
    expect(stack.stats().total).toBe(0);
  });

  it("answers a NotFoundError, as data, for a section that does not exist", async () => {
    const res = await stack.gql(url, UPDATE, { id: "999999", input: { active: false } });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateAxisSection).toEqual({ __typename: "NotFoundError", message: "Axis section 999999 does not exist.", fields: ["id"] });
  });
});
