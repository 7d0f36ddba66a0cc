import { beforeAll, describe, expect, test } from "vitest";
import { TODAY, addDays, useLegacy } from "./legacy-helpers.js";

const BASE = "/api/v3/axisSections";
const FLAT_FIELDS = ["id", "code", "name", "multilingualName", "axisId", "description", "ownerId", "startOn", "endOn", "active", "isPublic"].sort();

const api = useLegacy();
let all: any[];

beforeAll(async () => {
  all = (await api.get(BASE)).body.data.items;
});

const one = async (id: number) => (await api.get(`${BASE}/${id}`)).body.data;
const ofAxis = (axisId: number) => all.filter((s) => s.axisId === axisId);
/** Sections are taken so that a test that changes one does not disturb another. */
const used = new Set<number>();
function take(axisId: number, predicate: (s: any) => boolean = () => true): any {
  const s = all.find((x) => x.axisId === axisId && !used.has(x.id) && predicate(x));
  if (!s) throw new Error(`no section of axis ${axisId} left`);
  used.add(s.id);
  return s;
}

/** The PUT body that restates a section as it is. */
function bodyOf(s: any): Record<string, unknown> {
  return {
    code: s.code,
    multilingualName: s.multilingualName,
    axisId: s.axisId,
    description: s.description,
    ownerId: s.ownerId,
    endOn: s.endOn,
    active: s.active,
    isPublic: s.isPublic,
    parentAxisSections: s.parentAxisSections.map((p: any) => ({ id: p.id })),
  };
}

describe("GET /api/v3/axisSections", () => {
  test("three axes: cost centres, projects under them, tasks under projects, ordered by id", () => {
    expect(new Set(all.map((s) => s.axisId))).toEqual(new Set([1, 2, 3]));
    expect(all.map((s) => s.id)).toEqual([...all.map((s) => s.id)].sort((a, b) => a - b));
    for (const s of all) {
      if (s.axisId === 1) expect(s.parentAxisSections).toEqual([]);
      else expect(s.parentAxisSections.map((p: any) => p.axisId)).toEqual([s.axisId - 1]);
    }
  });

  test("some sections are inactive, with an end in the past", () => {
    const inactive = all.filter((s) => !s.active);
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.every((s) => s.endOn !== null && s.endOn < `${TODAY}T00:00:00`)).toBe(true);
  });

  test("axisId filters by axis", async () => {
    const items = (await api.get(`${BASE}?axisId=3`)).body.data.items;
    expect(items.map((s: any) => s.id)).toEqual(ofAxis(3).map((s) => s.id));
  });

  test("id filters by a list of ids and combines with axisId", async () => {
    const [cc, project] = [ofAxis(1)[0], ofAxis(2)[0]];
    expect((await api.get(`${BASE}?id=${project.id},${cc.id}`)).body.data.items.map((s: any) => s.id)).toEqual([cc.id, project.id]);
    expect((await api.get(`${BASE}?id=${project.id},${cc.id}&axisId=2`)).body.data.items.map((s: any) => s.id)).toEqual([project.id]);
  });

  test("takes the v3 conventions: fields (with collection.count), orderBy and paging", async () => {
    const byCode = [...all].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.id - b.id));
    const res = await api.get(`${BASE}?fields=id,code,parentAxisSections[id],collection.count&orderBy=code,asc&paging=1,4`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      items: byCode.slice(1, 5).map((s) => ({ id: s.id, code: s.code, parentAxisSections: s.parentAxisSections.map((p: any) => ({ id: p.id })) })),
      count: all.length,
    });
    expect((await api.get(`${BASE}?axisId=1&fields=collection.count`)).body).toEqual({ data: { count: ofAxis(1).length } });
  });

  test.each([
    ["an unknown field", "fields=id,budget"],
    ["an order on an unknown field", "orderBy=budget,asc"],
    ["paging beyond 1000", "paging=0,1001"],
    ["an id of 0", "id=0"],
    ["more than 100 ids", `id=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`],
    ["an axisId that is no integer", "axisId=tasks"],
    ["an unknown parameter", "active=true"],
  ])("%s is a 400", async (_name, query) => {
    const res = await api.get(`${BASE}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.any(String) });
  });
});

describe("GET /api/v3/axisSections/{id}", () => {
  test("a section carries its fields, its parent and its children without further nesting", async () => {
    const project = ofAxis(2)[0];
    const s = await one(project.id);
    expect(Object.keys(s).sort()).toEqual([...FLAT_FIELDS, "childrenAxisSections", "parentAxisSections"].sort());
    expect(s.multilingualName).toMatch(new RegExp(`^\\[en-US\\]${s.name}\\|\\[fr-FR\\][^|]+$`));
    expect(s.parentAxisSections).toHaveLength(1);
    expect(Object.keys(s.parentAxisSections[0]).sort()).toEqual(FLAT_FIELDS);
    expect(s.childrenAxisSections.length).toBeGreaterThan(0);
    for (const child of s.childrenAxisSections) {
      expect(Object.keys(child).sort()).toEqual(FLAT_FIELDS);
      expect(child.axisId).toBe(3);
    }
  });

  test("an unknown section is a 404", async () => {
    const res = await api.get(`${BASE}/99999`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: expect.stringContaining("99999") });
  });

  test("an id that is not an integer >= 1 is a 400", async () => {
    expect((await api.get(`${BASE}/0`)).status).toBe(400);
  });

  test("a query parameter is a 400 naming it", async () => {
    const res = await api.get(`${BASE}/1?axisId=1`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("'axisId'");
  });
});

describe("PUT /api/v3/axisSections/{id}", () => {
  test("replaces the section and answers it", async () => {
    const task = take(3);
    const body = {
      ...bodyOf(task),
      code: `${task.code}-X`,
      multilingualName: { "en-US": "Code review", "fr-FR": "Revue de code", "de-DE": "Code-Review" },
      description: "Reviews of colleagues' changes",
      endOn: "2026-12-31T00:00:00",
      isPublic: false,
    };
    const res = await api.put(`${BASE}/${task.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ...body,
      multilingualName: "[en-US]Code review|[fr-FR]Revue de code|[de-DE]Code-Review",
      id: task.id,
      name: "Code review",
      parentAxisSections: [{ id: task.parentAxisSections[0].id }],
    });
    expect(await one(task.id)).toEqual(res.body.data);
  });

  test("a renamed child shows under its parent", async () => {
    const task = take(3);
    await api.put(`${BASE}/${task.id}`, { ...bodyOf(task), multilingualName: { "en-US": "Renamed task" } });
    const parent = await one(task.parentAxisSections[0].id);
    expect(parent.childrenAxisSections.find((c: any) => c.id === task.id).name).toBe("Renamed task");
  });

  test("a task moves to another project", async () => {
    const task = take(3);
    const project = ofAxis(2).find((p) => p.id !== task.parentAxisSections[0].id)!;
    const res = await api.put(`${BASE}/${task.id}`, { ...bodyOf(task), parentAxisSections: [{ id: project.id }] });
    expect(res.status).toBe(200);
    expect((await one(project.id)).childrenAxisSections.map((c: any) => c.id)).toContain(task.id);
    expect((await one(task.parentAxisSections[0].id)).childrenAxisSections.map((c: any) => c.id)).not.toContain(task.id);
  });

  test("active and isPublic default to true", async () => {
    const task = take(3, (s) => !s.isPublic || !s.active);
    const { active: _a, isPublic: _p, ...body } = bodyOf(task);
    const res = await api.put(`${BASE}/${task.id}`, body);
    expect(res.body.data).toMatchObject({ active: true, isPublic: true });
  });

  test("deactivating a section locks the time entries that use it (rule 6)", async () => {
    const owners = Array.from({ length: 60 }, (_, i) => i + 1).join(",");
    const entries = (await api.get(`/api/v3/timeentries?ownerId=${owners}&startsAt=between,${addDays(TODAY, -7)},${TODAY}&paging=0,1000`)).body.data.items;
    const activeIds = new Set(all.filter((s) => s.active).map((s) => s.id));
    const entry = entries.find((e: any) => e.axisSections?.length === 3 && e.axisSections.every((s: any) => activeIds.has(s.id)) && !used.has(e.axisSections[2].id));
    const task = all.find((s) => s.id === entry.axisSections[2].id)!;
    used.add(task.id);
    expect((await api.put(`${BASE}/${task.id}`, { ...bodyOf(task), active: false })).status).toBe(200);
    const body = { id: entry.id, ownerId: entry.ownerId, unit: entry.unit, startsAt: entry.startsAt, duration: entry.duration, creationSource: entry.creationSource, axisSections: entry.axisSections, timeTypeId: entry.timeTypeId };
    const res = await api.put(`/api/v3/timeentries/${entry.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.rule).toBe(6);
  });

  const bad: Array<[string, (s: any) => Record<string, unknown>, string]> = [
    ["no code", (s) => ({ ...bodyOf(s), code: undefined }), "code is required"],
    ["no multilingualName", (s) => ({ ...bodyOf(s), multilingualName: undefined }), "multilingualName is required"],
    ["no axisId", (s) => ({ ...bodyOf(s), axisId: undefined }), "axisId is required"],
    ["an empty code", (s) => ({ ...bodyOf(s), code: "" }), "code"],
    ["a code another task uses", (s) => ({ ...bodyOf(s), code: ofAxis(3).find((x) => x.id !== s.id && !used.has(x.id))!.code }), "already used"],
    ["a name with [", (s) => ({ ...bodyOf(s), multilingualName: { "en-US": "Design [v2]" } }), "must not contain"],
    ["a name with |", (s) => ({ ...bodyOf(s), multilingualName: { "en-US": "Design | Build" } }), "must not contain"],
    ["a name with /", (s) => ({ ...bodyOf(s), multilingualName: { "fr-FR": "Analyse/Conception" } }), "must not contain"],
    ["a name with a backslash", (s) => ({ ...bodyOf(s), multilingualName: { "en-US": "Design\\Build" } }), "must not contain"],
    ["a blank name", (s) => ({ ...bodyOf(s), multilingualName: { "en-US": "  " } }), "multilingualName"],
    ["a name that is a string", (s) => ({ ...bodyOf(s), multilingualName: "Design" }), "multilingualName"],
    ["no name at all", (s) => ({ ...bodyOf(s), multilingualName: {} }), "multilingualName"],
    ["a key that is no language tag", (s) => ({ ...bodyOf(s), multilingualName: { english: "Design" } }), "language tag"],
    ["an unknown axis", (s) => ({ ...bodyOf(s), axisId: 9 }), "axisId"],
    ["an axisId of 0", (s) => ({ ...bodyOf(s), axisId: 0 }), "axisId"],
    ["a task without a parent", (s) => ({ ...bodyOf(s), parentAxisSections: [] }), "exactly one parent"],
    ["a task under a cost centre", (s) => ({ ...bodyOf(s), parentAxisSections: [{ id: ofAxis(1)[0].id }] }), "must be a section of axis 2"],
    ["a task with two parents", (s) => ({ ...bodyOf(s), parentAxisSections: ofAxis(2).slice(0, 2).map((p) => ({ id: p.id })) }), "exactly one parent"],
    ["a parent that does not exist", (s) => ({ ...bodyOf(s), parentAxisSections: [{ id: 99_999 }] }), "99999"],
    ["a parent id of 0", (s) => ({ ...bodyOf(s), parentAxisSections: [{ id: 0 }] }), "parentAxisSections"],
    ["an unknown owner", (s) => ({ ...bodyOf(s), ownerId: 999_999 }), "ownerId"],
    ["an endOn with an offset", (s) => ({ ...bodyOf(s), endOn: "2026-12-31T00:00:00Z" }), "endOn"],
    ["an endOn that is no date", (s) => ({ ...bodyOf(s), endOn: "soon" }), "endOn"],
    ["active that is no boolean", (s) => ({ ...bodyOf(s), active: "no" }), "active"],
    ["a description that is no string", (s) => ({ ...bodyOf(s), description: 3 }), "description"],
    ["an unknown field", (s) => ({ ...bodyOf(s), colour: "red" }), "colour"],
    ["an id that differs from the path", (s) => ({ ...bodyOf(s), id: s.id + 1 }), "id"],
    ["a valid rename beside an invalid field", (s) => ({ ...bodyOf(s), multilingualName: { "en-US": "Fine" }, axisId: 0 }), "axisId"],
  ];

  test("the section sent back as read is accepted: read-only fields (name, children, startOn) are ignored, the string name is read", async () => {
    const task = all.find((s) => s.axisId === 3 && !used.has(s.id))!;
    used.add(task.id);
    const before = await one(task.id);
    const res = await api.put(`${BASE}/${task.id}`, { ...before, name: "Ignored", childrenAxisSections: [], startOn: "2000-01-01T00:00:00" });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(before);
    const renamed = await api.put(`${BASE}/${task.id}`, { ...before, multilingualName: "[en-US]Pairing|[fr-FR]Binôme" });
    expect(renamed.body.data).toMatchObject({ name: "Pairing", multilingualName: "[en-US]Pairing|[fr-FR]Binôme" });
  });

  test.each(bad)("%s is a 400 that changes nothing", async (_name, makeBody, mentioned) => {
    const task = all.find((s) => s.axisId === 3 && !used.has(s.id))!;
    const before = await one(task.id);
    const res = await api.put(`${BASE}/${task.id}`, makeBody(before));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.stringContaining(mentioned) });
    expect(await one(task.id)).toEqual(before);
  });

  test("a cost centre takes no parent", async () => {
    const cc = ofAxis(1)[0];
    const res = await api.put(`${BASE}/${cc.id}`, { ...bodyOf(cc), parentAxisSections: [{ id: ofAxis(1)[1].id }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("have no parent");
  });

  test("a project with tasks cannot move to another axis", async () => {
    const project = ofAxis(2)[0];
    const res = await api.put(`${BASE}/${project.id}`, { ...bodyOf(project), axisId: 3, parentAxisSections: [{ id: ofAxis(2)[1].id }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("children");
    expect((await one(project.id)).axisId).toBe(2);
  });

  test("an unknown section is a 404", async () => {
    const task = ofAxis(3)[0];
    expect((await api.put(`${BASE}/99999`, bodyOf(task))).status).toBe(404);
  });

  test("an id that is not an integer >= 1 is a 400", async () => {
    expect((await api.put(`${BASE}/0`, {})).status).toBe(400);
  });

  test("a body that is not an object is a 400", async () => {
    const res = await api.put(`${BASE}/${ofAxis(3)[0].id}`, "Design");
    expect(res.status).toBe(400);
  });

  test("a query parameter is a 400, and nothing changes", async () => {
    const task = take(3);
    const res = await api.put(`${BASE}/${task.id}?axisId=3`, { ...bodyOf(task), code: `${task.code}-Q` });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("'axisId'");
    expect((await one(task.id)).code).toBe(task.code);
  });
});
