import { describe, expect, test } from "vitest";
import { AUTH, useLegacy } from "./legacy-helpers.js";

/**
 * The legacy departments past their sunset: production stopped answering `/api/v3/departments`,
 * `/api/v3/departments/{id}` and `/api/v3/departments/tree` in September 2026 and documents no
 * status for them, so the in-process service answers 410 Gone with the legacy error body
 * (docs/decisions.md#legacy-departments-sunset). Departments are read through the current API.
 */

const api = useLegacy();

const ROUTES = [
  "/api/v3/departments",
  "/api/v3/departments?id=1,2,3",
  "/api/v3/departments?fields=id,position&orderby=position,asc",
  "/api/v3/departments/1",
  "/api/v3/departments/9999",
  "/api/v3/departments/x",
  "/api/v3/departments/tree",
  "/API/V3/DEPARTMENTS",
];

describe("GET /api/v3/departments* after the sunset", () => {
  test.each(ROUTES)("%s answers 410 Gone, with the legacy error body naming the current API", async (path) => {
    const res = await fetch(api.directory.url + path, { headers: AUTH });
    expect(res.status).toBe(410);
    expect(res.headers.get("sunset")).toBe("Tue, 01 Sep 2026 00:00:00 GMT");
    const body = (await res.json()) as { status: number; message: string };
    expect(body).toEqual({ status: 410, message: expect.stringContaining("/departments") });
    expect(body.message).toContain("September 2026");
  });

  test("the route is gone whatever the credentials: no key, or a wrong one, is 410 too", async () => {
    expect((await api.get("/api/v3/departments/1", {})).status).toBe(410);
    expect((await api.get("/api/v3/departments", { authorization: "service application=nope" })).status).toBe(410);
  });

  test("the departments are still read through the current API, same ids", async () => {
    const token = await (await import("./current-helpers.js")).directoryToken(api.directory.url);
    const res = await fetch(`${api.directory.url}/service-api/departments?limit=100`, { headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" } });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { items: Array<{ id: string }> }).items.map((d) => d.id).sort((a, b) => Number(a) - Number(b));
    expect(ids).toEqual(api.directory.company.departments.map((d) => d.id).sort((a, b) => Number(a) - Number(b)));
  });

  test("a legacy user still names its department, by the id the current API serves", async () => {
    const user = (await api.get("/api/v3/users/1?fields=id,departmentId,department")).body.data;
    expect(api.directory.company.departments.some((d) => d.id === String(user.departmentId))).toBe(true);
    expect(user.department.id).toBe(user.departmentId);
  });
});
