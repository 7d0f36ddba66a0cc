import { beforeAll, describe, expect, it } from "vitest";
import { startDirectory } from "../../directory/server.js";
import { directoryToken, get, ids } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

const directory = useDirectory({ employees: 300, today: "2026-06-15" });
let token: string;

beforeAll(async () => {
  token = await directoryToken(directory.url);
});

const list = (query: string, headers: Record<string, string | null> = {}) => get(directory.url, token, `/service-api/employees${query}`, headers);

describe("collection envelope", () => {
  it("has type, url and items only, without include: links and totalCount only when asked", async () => {
    const { status, body } = await list("?limit=3");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["type", "url", "items"]);
    expect(body.type).toBe("employees");
    expect(body.url).toBe(`${directory.url}/service-api/employees?limit=3`);
    expect(body.items).toHaveLength(3);
  });

  it("adds totalCount and embedded when included, in the documented order", async () => {
    const { body } = await list("?limit=3&include=totalCount,embedded,links");
    expect(Object.keys(body)).toEqual(["type", "url", "totalCount", "items", "links", "embedded"]);
    expect(body.totalCount).toBe(300);
  });

  it("items carry links only when links are included", async () => {
    const { body } = await list("?limit=2&include=totalCount");
    expect(body.items[0]).not.toHaveProperty("links");
    const withLinks = await list("?limit=2&include=links");
    expect(withLinks.body.items[0]).toHaveProperty("links");
  });

  it("embedded is an empty object when the resource has nothing to embed", async () => {
    const { body } = await get(directory.url, token, "/service-api/probationary-periods?limit=2&include=embedded");
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.embedded).toEqual({});
  });

  it("returns 25 items by default", async () => {
    const { body } = await list("");
    expect(body.items).toHaveLength(25);
    expect(ids(body.items)).toEqual(Array.from({ length: 25 }, (_, i) => String(i + 1)));
  });

  it("limit=0 returns no items but the totalCount", async () => {
    const { body } = await list("?limit=0&include=totalCount,links");
    expect(body.items).toEqual([]);
    expect(body.totalCount).toBe(300);
    expect(body.links).toEqual({ prev: null, next: null });
  });

  it("links are left out of a page that has a next one unless asked, and totalCount unless asked", async () => {
    const without = await list("?limit=5");
    expect(without.body).not.toHaveProperty("links");
    expect(without.body).not.toHaveProperty("totalCount");
    const asked = await list("?limit=5&include=links");
    expect(asked.body.links.next.href).toEqual(expect.any(String));
    expect(asked.body).not.toHaveProperty("totalCount");
    // the next page's address keeps the include, so a client following it keeps its links
    expect(new URL(asked.body.links.next.href).searchParams.get("include")).toBe("links");
    const second = await get(directory.url, token, asked.body.links.next.href);
    expect(second.body.links.prev).not.toBeNull();
  });

  it("totalCount counts the filtered items across all pages", async () => {
    const expected = directory.company.employees.filter((e) => e.email === null).length;
    const { body } = await list("?email=null&limit=1&include=totalCount");
    expect(body.totalCount).toBe(expected);
  });
});

describe("paging links", () => {
  it("prev is null on the first page and next keeps every other parameter", async () => {
    const { body } = await list("?limit=10&status=active&sort=-id&include=links");
    expect(body.links.prev).toBeNull();
    const next = new URL(body.links.next.href);
    expect(`${next.origin}${next.pathname}`).toBe(`${directory.url}/service-api/employees`);
    expect(next.searchParams.get("limit")).toBe("10");
    expect(next.searchParams.get("status")).toBe("active");
    expect(next.searchParams.get("sort")).toBe("-id");
    expect(next.searchParams.get("page")).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it("next leads to the following items and prev back to the same previous page", async () => {
    const first = await list("?limit=10&sort=familyName&include=links");
    const second = await get(directory.url, token, first.body.links.next.href);
    expect(second.body.links.prev).not.toBeNull();
    const back = await get(directory.url, token, second.body.links.prev.href);
    expect(ids(back.body.items)).toEqual(ids(first.body.items));
    expect(back.body.links.prev).toBeNull();
    expect(back.body.links.next).not.toBeNull();
    const allTwenty = ids((await list("?limit=20&sort=familyName")).body.items);
    expect([...ids(first.body.items), ...ids(second.body.items)]).toEqual(allTwenty);
  });

  it("the last page has no next link", async () => {
    const { body } = await list("?limit=100&sort=-id&id=1,2,3&include=links");
    expect(ids(body.items)).toEqual(["3", "2", "1"]);
    expect(body.links).toEqual({ prev: null, next: null });
  });

  it("a page that exactly fills the list has no next link", async () => {
    const first = await list("?limit=2&id=1,2,3,4&include=links");
    const second = await get(directory.url, token, first.body.links.next.href);
    expect(ids(second.body.items)).toEqual(["3", "4"]);
    expect(second.body.links.next).toBeNull();
  });
});

describe("bad parameters", () => {
  const cases: Array<[string, string, string]> = [
    ["a limit above 100", "?limit=101", "limit"],
    ["a negative limit", "?limit=-1", "limit"],
    ["a limit that is not a number", "?limit=ten", "limit"],
    ["an unknown include", "?include=totalCount,everything", "include"],
    ["an unknown parameter", "?familyName=Smith", "familyName"],
    ["a repeated parameter", "?id=1&id=2", "id"],
    ["more than 100 entries in a list", `?id=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`, "id"],
    ["an empty entry in a list", "?id=1,,2", "id"],
    ["a malformed date", "?applicableEmployment.startsOn=15/06/2026", "applicableEmployment.startsOn"],
    ["a malformed range", "?applicableEmployment.startsOn.between=2026-01-01", "applicableEmployment.startsOn.between"],
    ["a range with a bad bound", "?applicableEmployment.startsOn.between=2026-01-01--2026-13-01", "applicableEmployment.startsOn.between"],
    ["a range ending before it starts", "?applicableEmployment.endsOn.between=2026-02-01--2026-01-31", "applicableEmployment.endsOn.between"],
    ["an unknown enum value", "?status=retired", "status"],
    ["an unknown sort", "?sort=birthDay", "sort"],
    ["a garbage cursor", "?page=not-a-cursor", "page"],
  ];

  it.each(cases)("%s is a 400 problem naming the parameter", async (_name, query, param) => {
    const { status, body, headers } = await list(query);
    expect(status).toBe(400);
    expect(headers.get("content-type")).toContain("application/problem+json");
    expect(body).toMatchObject({ type: expect.any(String), title: "Bad Request", status: 400 });
    expect(Object.keys(body.errors)).toEqual([param]);
    expect(body.errors[param][0]).toEqual(expect.any(String));
  });

  it("exactly 100 entries are accepted", async () => {
    const { status, body } = await list(`?limit=100&id=${Array.from({ length: 100 }, (_, i) => i + 1).join(",")}`);
    expect(status).toBe(200);
    expect(body.items).toHaveLength(100);
  });

  it("every bad parameter of a request is reported at once", async () => {
    const { body } = await list("?limit=500&status=nope&sort=x");
    expect(Object.keys(body.errors).sort()).toEqual(["limit", "sort", "status"]);
  });

  it("a tampered cursor is a 400 bad cursor", async () => {
    const { body } = await list("?limit=5&include=links");
    const next = new URL(body.links.next.href);
    const [payload, mac] = next.searchParams.get("page")!.split(".");
    const decoded = JSON.parse(Buffer.from(payload!, "base64url").toString());
    decoded.i = "200";
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString("base64url")}.${mac}`;
    const answer = await list(`?limit=5&page=${forged}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.page[0]).toContain("bad cursor");
  });

  it("a cursor used with another sort is a 400 bad cursor", async () => {
    const { body } = await list("?limit=5&sort=familyName&include=links");
    const page = new URL(body.links.next.href).searchParams.get("page")!;
    const answer = await list(`?limit=5&sort=createdAt&page=${page}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.page[0]).toContain("bad cursor");
  });

  it("a cursor of another running service is a 400", async () => {
    const other = await startDirectory({ limits: { requests: 0 }, employees: 30, today: "2026-06-15" });
    try {
      const otherToken = await directoryToken(other.url);
      const { body } = await get(other.url, otherToken, "/service-api/employees?limit=5&include=links");
      const page = new URL(body.links.next.href).searchParams.get("page")!;
      expect((await list(`?limit=5&page=${page}`)).status).toBe(400);
    } finally {
      await other.close();
    }
  });

  it("a single read accepts only include", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees/1?limit=3");
    expect(status).toBe(400);
    expect(body.errors).toHaveProperty("limit");
  });
});

describe("ETags and preconditions", () => {
  it("every 200 carries a weak ETag", async () => {
    const { headers } = await list("?limit=2");
    expect(headers.get("etag")).toMatch(/^W\/"[\w-]+"$/);
  });

  it("the ETag changes with the body", async () => {
    const a = await list("?limit=2");
    const b = await list("?limit=3");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    const again = await list("?limit=2");
    expect(again.headers.get("etag")).toBe(a.headers.get("etag"));
  });

  it("If-None-Match with the current tag answers 304 without a body", async () => {
    const { headers } = await get(directory.url, token, "/service-api/employees/7");
    const etag = headers.get("etag")!;
    const res = await fetch(`${directory.url}/service-api/employees/7`, {
      headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01", "if-none-match": etag },
    });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(etag);
    expect(await res.text()).toBe("");
  });

  it("If-None-Match with another tag answers 200", async () => {
    const { status } = await get(directory.url, token, "/service-api/employees/7", { "if-none-match": 'W/"stale"' });
    expect(status).toBe(200);
  });

  it("If-Match with a stale tag answers 412", async () => {
    const { status, body } = await get(directory.url, token, "/service-api/employees/7", { "if-match": 'W/"stale"' });
    expect(status).toBe(412);
    expect(body).toMatchObject({ status: 412, title: "Precondition Failed" });
  });

  it("If-Match with the current tag (or *) answers 200", async () => {
    const { headers } = await get(directory.url, token, "/service-api/employees/7");
    expect((await get(directory.url, token, "/service-api/employees/7", { "if-match": headers.get("etag")! })).status).toBe(200);
    expect((await get(directory.url, token, "/service-api/employees/7", { "if-match": "*" })).status).toBe(200);
  });

  it("preconditions apply to lists as well", async () => {
    const { headers } = await list("?limit=4");
    expect((await list("?limit=4", { "if-none-match": headers.get("etag")! })).status).toBe(304);
  });

  it("preconditions are ignored on an error", async () => {
    const { status } = await get(directory.url, token, "/service-api/employees/999999", { "if-match": 'W/"stale"' });
    expect(status).toBe(404);
  });

  it("HEAD answers the headers of GET without a body", async () => {
    const { headers } = await get(directory.url, token, "/service-api/employees/8");
    const head = await get(directory.url, token, "/service-api/employees/8", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(headers.get("etag"));
    expect(head.body).toBeUndefined();
  });
});

describe("request statistics", () => {
  it("a list and a single read are counted under their route patterns", async () => {
    await fetch(`${directory.url}/_admin/stats/reset`, { method: "POST" });
    await list("?limit=1");
    await get(directory.url, token, "/service-api/employees/2");
    const stats = (await (await fetch(`${directory.url}/_admin/stats`)).json()) as any;
    expect(stats.byRoute).toEqual({ "GET /service-api/employees": 1, "GET /service-api/employees/{id}": 1 });
  });
});

describe("after a legacy write", () => {
  it("a renamed employee is found by the new name and sorted under it at once", async () => {
    // warm the search index and the familyName order first: they must not go stale
    await list("?search=zzyzx");
    await list("?sort=-familyName&limit=1");
    const res = await fetch(`${directory.url}/api/v3/users/5`, {
      method: "PUT",
      headers: { authorization: "service application=demo-api-key", "content-type": "application/json" },
      body: JSON.stringify({ lastName: "Zzyzx" }),
    });
    expect(res.status).toBe(200);
    expect(ids((await list("?search=zzyzx")).body.items)).toEqual(["5"]);
    expect(ids((await list("?sort=-familyName&limit=1")).body.items)).toEqual(["5"]);
    expect((await get(directory.url, token, "/service-api/employees/5")).body.familyName).toBe("Zzyzx");
  });

  it("a changed email and employee number are served at once, under a new ETag", async () => {
    const before = await get(directory.url, token, "/service-api/employees/6");
    expect(before.body.email).not.toBeNull();
    // warm the email index first: it must not go stale
    expect(ids((await list(`?email=${encodeURIComponent(before.body.email)}`)).body.items)).toEqual(["6"]);
    const res = await fetch(`${directory.url}/api/v3/users/6`, {
      method: "PUT",
      headers: { authorization: "service application=demo-api-key", "content-type": "application/json" },
      body: JSON.stringify({ mail: "renamed.six@example.com", employeeNumber: "X-0006" }),
    });
    expect(res.status).toBe(200);
    expect((await list(`?email=${encodeURIComponent(before.body.email)}`)).body.items).toEqual([]);
    expect(ids((await list("?email=renamed.six@example.com")).body.items)).toEqual(["6"]);
    const after = await get(directory.url, token, "/service-api/employees/6", { "if-none-match": before.headers.get("etag")! });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ email: "renamed.six@example.com", employeeNumber: "X-0006" });
  });
});
