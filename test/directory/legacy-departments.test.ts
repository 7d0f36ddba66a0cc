import { beforeAll, describe, expect, test } from "vitest";
import type { Company } from "../../directory/data/model.js";
import { Expect, directoryToken, getAll } from "./current-helpers.js";
import { useLegacy } from "./legacy-helpers.js";

const api = useLegacy();
let company: Company;
let expected: Expect;

beforeAll(async () => {
  company = api.directory.company;
  expected = new Expect(company);
});

async function allDepartments(): Promise<any[]> {
  const ids = company.departments.map((d) => d.id);
  const items: any[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    items.push(...(await api.get(`/api/v3/departments?id=${ids.slice(i, i + 100).join(",")}`)).body.data.items);
  }
  return items;
}

describe("GET /api/v3/departments/{id}", () => {
  test("a department is wrapped in data and carries the legacy fields", async () => {
    const d = company.departments.find((x) => x.parentId !== null && x.managerId !== null)!;
    const head = company.employees.find((e) => e.id === d.managerId)!;
    const res = await api.get(`/api/v3/departments/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: Number(d.id),
      name: d.name,
      code: d.remoteId,
      // the parent's place in the tree, as the reference writes it: a string
      parentId: expect.stringMatching(new RegExp(`/${d.parentId}/$`)),
      currentUsersCount: expect.any(Number),
      level: d.level,
      isActive: !d.isArchived,
      headID: Number(head.id),
      head: { id: Number(head.id), name: `${head.givenName} ${head.familyName}`, url: `${api.directory.url}/api/v3/users/${head.id}` },
      url: `${api.directory.url}/api/v3/departments/${d.id}`,
    });
  });

  test("hierarchy is the path of ids from the root", async () => {
    const deepest = [...company.departments].sort((a, b) => b.level - a.level)[0]!;
    const path: string[] = [];
    for (let d: (typeof company.departments)[number] | undefined = deepest; d; d = company.departments.find((x) => x.id === d!.parentId)) {
      path.unshift(d.id);
    }
    const res = await api.get(`/api/v3/departments/${deepest.id}`);
    expect(res.body.data.hierarchy).toBe(`/${path.join("/")}/`);
    expect(path.length).toBe(deepest.level);
  });

  test("users are everyone whose applicable job position is there, currentUsers the active ones", async () => {
    const departments = await allDepartments();
    for (const d of departments) {
      const members = company.employees.filter((e) => expected.applicableJobPosition(e.id)?.departmentId === String(d.id));
      expect(d.users.map((u: any) => u.id)).toEqual(members.map((e) => Number(e.id)));
      expect(d.currentUsers.map((u: any) => u.id)).toEqual(members.filter((e) => expected.employeeStatus(e.id) === "active").map((e) => Number(e.id)));
    }
    expect(departments.some((d) => d.users.length > d.currentUsers.length)).toBe(true);
  });

  test("the current API answers the same active members through its department filter", async () => {
    const d = (await allDepartments()).sort((a, b) => b.currentUsers.length - a.currentUsers.length)[0]!;
    const token = await directoryToken(api.directory.url);
    const { items } = await getAll(api.directory.url, token, `/service-api/employees?applicableJobPosition.department.id=${d.id}&status=active&limit=100`);
    expect(items.map((e: any) => Number(e.id)).sort((a: number, b: number) => a - b)).toEqual(d.currentUsers.map((u: any) => u.id));
  });

  test("sortOrder ranks siblings from 1 and position, in the documented range, orders the whole tree depth first", async () => {
    const departments = await allDepartments();
    const byParent = new Map<number | null, any[]>();
    for (const d of departments) byParent.set(d.parentId, [...(byParent.get(d.parentId) ?? []), d]);
    const parentOf = (d: any) => (d.parentId === "/" ? null : Number(d.parentId.split("/").at(-2)));
    for (const siblings of byParent.values()) {
      expect(siblings.map((d) => d.sortOrder).sort((a, b) => a - b)).toEqual(siblings.map((_, i) => i + 1));
    }
    expect(departments.every((d) => Number.isInteger(d.position) && d.position >= 1e19 && d.position <= 1e20)).toBe(true);
    const walk = [...departments].sort((a, b) => a.position - b.position);
    expect(new Set(walk.map((d) => d.position)).size).toBe(departments.length);
    // depth first: a department comes right after its parent or after a descendant of its parent's earlier child
    walk.forEach((d, i) => {
      if (parentOf(d) !== null) expect(walk.slice(0, i).some((x) => x.id === parentOf(d))).toBe(true);
      if (i > 0) expect(d.hierarchy.startsWith(walk[i - 1].hierarchy) || d.level <= walk[i - 1].level).toBe(true);
    });
  });

  test("the list takes the v3 conventions: fields (with collection.count), orderBy and paging", async () => {
    const departments = await allDepartments();
    // descending turns the whole order, ties by id included
    const byName = [...departments].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : b.id - a.id));
    const res = await api.get("/api/v3/departments?fields=id,name,head[id],collection.count&orderBy=name,desc&paging=2,3");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      items: byName.slice(2, 5).map((d) => ({ id: d.id, name: d.name, head: d.head === null ? null : { id: d.head.id } })),
      count: departments.length,
    });
    expect((await api.get("/api/v3/departments?fields=collection.count")).body).toEqual({ data: { count: departments.length } });
  });

  test("a single department takes fields", async () => {
    const d = (await allDepartments())[3]!;
    const res = await api.get(`/api/v3/departments/${d.id}?fields=id,hierarchy,currentUsers[id]`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: d.id, hierarchy: d.hierarchy, currentUsers: d.currentUsers.map((u: any) => ({ id: u.id })) });
  });

  test.each([
    ["an unknown field", "/api/v3/departments?fields=id,salary", "salary"],
    ["an order on a field that is no value", "/api/v3/departments?orderBy=users,asc", "orderby"],
    ["a direction that is neither asc nor desc", "/api/v3/departments?orderBy=name,up", "orderby"],
    ["paging without a limit", "/api/v3/departments?paging=10", "paging"],
    ["a page above 1000", "/api/v3/departments?paging=0,1001", "paging"],
    ["collection.count on one department", "/api/v3/departments/1?fields=id,collection.count", "collection.count"],
    ["an unknown field on one department", "/api/v3/departments/1?fields=salary", "salary"],
  ])("%s is a 400 naming it", async (_name, path, mentioned) => {
    const res = await api.get(path);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(mentioned);
  });

  test("the departments have the ids and names of the current API's departments", async () => {
    const token = await directoryToken(api.directory.url);
    const current = (await getAll(api.directory.url, token, "/service-api/departments?limit=100")).items;
    const legacy = await allDepartments();
    expect(legacy.map((d) => [d.id, d.name, d.level])).toEqual(
      current.map((d: any) => [Number(d.id), d.name, d.level]).sort((a: any, b: any) => a[0] - b[0]),
    );
  });

  test("an unknown department is a 404", async () => {
    const res = await api.get("/api/v3/departments/9999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: expect.stringContaining("9999") });
  });

  test("a department id that is not an integer is a 400", async () => {
    expect((await api.get("/api/v3/departments/x")).status).toBe(400);
  });
});

describe("GET /api/v3/departments", () => {
  test("answers the requested departments in data.items, by id, leaving unknown ids out", async () => {
    const res = await api.get("/api/v3/departments?id=3,1,9999");
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((d: any) => d.id)).toEqual([1, 3]);
  });

  test("without id the list pages every department; headId and parentId filter it", async () => {
    const all = (await api.get("/api/v3/departments")).body.data.items;
    expect(all).toHaveLength(company.departments.length);
    const child = company.departments.find((d) => d.parentId !== null && d.managerId !== null)!;
    const underParent = (await api.get(`/api/v3/departments?parentId=${child.parentId}`)).body.data.items;
    expect(underParent.map((d: any) => d.id).sort((a: number, b: number) => a - b)).toEqual(
      company.departments.filter((d) => d.parentId === child.parentId).map((d) => Number(d.id)).sort((a, b) => a - b),
    );
    const headed = (await api.get(`/api/v3/departments?headId=${child.managerId}`)).body.data.items;
    expect(headed.every((d: any) => d.headID === Number(child.managerId))).toBe(true);
    expect((await api.get("/api/v3/departments?paging=1,2")).body.data.items.map((d: any) => d.id)).toEqual(all.slice(1, 3).map((d: any) => d.id));
  });

  test("more than 100 ids is a 400", async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    expect((await api.get(`/api/v3/departments?id=${ids}`)).status).toBe(400);
  });

  test("an unknown query parameter is a 400", async () => {
    expect((await api.get("/api/v3/departments?id=1&name=x")).status).toBe(400);
  });
});
