import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { Expect } from "../directory/current-helpers.js";
import { entitiesQuery, legacyGet, range, representations } from "./helpers.js";

/** Department.legacy and BusinessEstablishment.legacy. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});


describe("Department.legacy", () => {
  const LEGACY = "id legacy { name code remoteId hierarchy parent { id } position sortOrder level isActive head { id } manager { id } users { id } currentUsers { id } }";

  /** What the legacy view of each department must be, from the directory's own data (the current API's departments and job positions). */
  function expectedLegacy(): Map<string, Record<string, unknown>> {
    const company = stack.directory.company;
    const expect_ = new Expect(company);
    const ids = new Set(company.departments.map((d) => d.id));
    const children = new Map<string, typeof company.departments>();
    for (const d of company.departments) {
      const parent = d.parentId !== null && ids.has(d.parentId) ? d.parentId : "";
      children.set(parent, [...(children.get(parent) ?? []), d]);
    }
    for (const list of children.values()) list.sort((a, b) => a.sortOrder - b.sortOrder || Number(a.id) - Number(b.id));
    const out = new Map<string, Record<string, unknown>>();
    const walk = (parent: string, path: string) => {
      for (const d of children.get(parent) ?? []) {
        const members = company.employees
          .filter((e) => expect_.applicableJobPosition(e.id)?.departmentId === d.id)
          .sort((a, b) => Number(a.id) - Number(b.id));
        const head = d.managerId === null ? null : { id: d.managerId };
        out.set(d.id, {
          name: d.name,
          code: d.remoteId,
          remoteId: d.remoteId,
          hierarchy: `${path}${d.id}/`,
          parent: d.parentId === null ? null : { id: d.parentId },
          position: d.sortOrder + 1,
          sortOrder: out.size + 1,
          level: d.level,
          isActive: !d.isArchived,
          head,
          manager: head,
          users: members.map((e) => ({ id: e.id })),
          currentUsers: members.filter((e) => expect_.employeeStatus(e.id) === "active").map((e) => ({ id: e.id })),
        });
        walk(d.id, `${path}${d.id}/`);
      }
    };
    walk("", "/");
    return out;
  }

  it("derives every legacy field from the current API's department, its tree and its employees", async () => {
    const expected = expectedLegacy();
    const ids = [...expected.keys()];
    const d = stack.directory.company.departments.find((x) => x.parentId !== null && x.managerId !== null && (expected.get(x.id)!.users as unknown[]).length > 0);
    expect(d).toBeDefined();
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Department", LEGACY), { r: representations("Department", ids) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual(ids.map((id) => ({ id, legacy: expected.get(id) })));
    // the whole tree is one page of /departments; the members one /employees read (pages of 100 employees) for every department at once
    const calls = stack.stats().byRoute;
    expect(Object.keys(calls).some((route) => route.includes("/api/v3/departments"))).toBe(false);
    expect(calls["GET /service-api/departments"]).toBe(1);
    const employeePages = Math.ceil(stack.directory.company.employees.filter((e) => new Expect(stack.directory.company).applicableJobPosition(e.id)).length / 100);
    expect(calls["GET /service-api/employees"]).toBe(Math.max(1, employeePages));
    // beside the service token, the first call of this file's stack
    expect(Object.keys(calls).filter((route) => route !== "POST /connect/token").sort()).toEqual(["GET /service-api/departments", "GET /service-api/employees"]);
  });

  it("of one department reads it singly, and its tree from the same collection once", async () => {
    const d = stack.directory.company.departments.find((x) => x.level > 2)!;
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { name hierarchy sortOrder }"), { r: representations("Department", [d.id]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].legacy).toEqual({ name: d.name, hierarchy: expectedLegacy().get(d.id)!.hierarchy, sortOrder: expectedLegacy().get(d.id)!.sortOrder });
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/departments/{id}": 1, "GET /service-api/departments": 1 });
  });

  it("is null, without error, for a department the current API does not know", async () => {
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { name }"), { r: representations("Department", ["999999", "dept-x"]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([{ legacy: null }, { legacy: null }]);
  });

  it("of many departments costs one call, and never the legacy departments", async () => {
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { code }"), { r: representations("Department", range(1, 30)) });
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("deprecates code, which has no faithful source in the current API", async () => {
    const res = await stack.gql(url, `{ __type(name: "LegacyDepartment") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`);
    const fields = new Map((res.data.__type.fields as any[]).map((f) => [f.name, f]));
    expect(fields.get("code")).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringContaining("/api/v3/departments") });
    for (const name of ["name", "remoteId", "hierarchy", "level", "isActive", "parent", "position", "sortOrder", "manager", "users", "currentUsers"]) expect(fields.get(name)?.isDeprecated, name).toBe(false);
  });
});

describe("BusinessEstablishment.legacy", () => {
  const LEGACY = `id legacy { name code legalUnitId legalIdentificationNumber activityCode calendarId address { street zipCode city }
    timezoneId usersCount createdAt isArchived author { id } }`;

  it("reads the legacy establishment, archived ones included", async () => {
    const establishments = (await legacyGet(stack, "/organization/structure/api/establishments?isArchived=true,false")).items as any[];
    expect(establishments.some((e) => e.isArchived)).toBe(true);
    const ids = establishments.map((e) => e.id);
    const res = await stack.gql(url, entitiesQuery("BusinessEstablishment", LEGACY), { r: representations("BusinessEstablishment", ids) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual(
      establishments.map((e) => ({
        id: String(e.id),
        legacy: {
          name: e.name,
          code: e.code,
          legalUnitId: e.legalUnitId,
          legalIdentificationNumber: e.legalIdentificationNumber,
          activityCode: e.activityCode,
          calendarId: e.calendarId,
          address: e.address,
          timezoneId: e.timezoneId,
          usersCount: e.usersCount,
          createdAt: e.createdAt,
          isArchived: e.isArchived,
          author: e.author ? { id: String(e.author.id) } : null,
        },
      })),
    );
  });

  it("of every establishment costs one call", async () => {
    stack.resetStats();
    await stack.gql(url, entitiesQuery("BusinessEstablishment", "legacy { usersCount }"), { r: representations("BusinessEstablishment", range(1, 12)) });
    expect(stack.stats().byRoute).toEqual({ "GET /organization/structure/api/establishments": 1 });
  });

  it("is null, without error, for an establishment the legacy API does not know", async () => {
    const res = await stack.gql(url, entitiesQuery("BusinessEstablishment", "legacy { name }"), { r: representations("BusinessEstablishment", ["999999"]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([{ legacy: null }]);
  });
});
