import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { entitiesQuery, legacyGet, range, representations } from "./helpers.js";

/** Department.legacy and BusinessEstablishment.legacy. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
});


describe("Department.legacy", () => {
  const LEGACY = "id legacy { name code hierarchy parent { id } position sortOrder level isActive head { id } users { id } currentUsers { id } }";

  it("reads the legacy department, with references for its parent, head and members", async () => {
    const departments = (await legacyGet(stack, `/api/v3/departments?id=${range(1, 40).join(",")}`)).data.items as any[];
    const d = departments.find((x) => x.parentId !== "/" && x.headID !== null && x.users.length > 0)!;
    const tree = (await legacyGet(stack, "/api/v3/departments?fields=id,position")).data.items as any[];
    const treeRank = new Map(tree.sort((a, b) => a.position - b.position).map((x, i) => [x.id, i + 1]));
    const res = await stack.gql(url, entitiesQuery("Department", LEGACY), { r: representations("Department", [d.id]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0]).toEqual({
      id: String(d.id),
      legacy: {
        name: d.name,
        code: d.code,
        hierarchy: d.hierarchy,
        // the REST parentId is the parent's hierarchy path: its last id is the parent
        parent: { id: d.parentId.split("/").at(-2) },
        // the graph's position is the rank among siblings (the legacy sortOrder), its sortOrder the rank of the legacy position
        position: d.sortOrder,
        sortOrder: treeRank.get(d.id),
        level: d.level,
        isActive: d.isActive,
        head: { id: String(d.headID) },
        users: d.users.map((u: any) => ({ id: String(u.id) })),
        currentUsers: d.currentUsers.map((u: any) => ({ id: String(u.id) })),
      },
    });
  });

  it("is null, without error, for a department the legacy API does not know", async () => {
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { name }"), { r: representations("Department", ["999999", "dept-x"]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([{ legacy: null }, { legacy: null }]);
  });

  it("of many departments costs one call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { code }"), { r: representations("Department", range(1, 30)) });
    expect(res.errors).toBeUndefined();
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/departments": 1 });
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
