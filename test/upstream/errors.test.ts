import { GraphQLError, locatedError } from "graphql";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { UpstreamError, errorExtensions, toGraphQLError } from "../../subgraphs/shared/upstream/index.js";
import { upstreamError, useUpstreamFixture } from "./fixture.js";

describe("upstream errors", () => {
  const fx = useUpstreamFixture({ employees: 20 }, { retries: 0 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
    await fx.upstream.session().current.read(`/employees/${ids[0]}`); // token cached before faults
  });
  afterEach(() => fx.directory.faults.clear());

  it.each([
    [400, "BAD_USER_INPUT"],
    [401, "UNAUTHENTICATED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [412, "CONFLICT"],
    [429, "RATE_LIMITED"],
    [500, "UPSTREAM_UNAVAILABLE"],
    [502, "UPSTREAM_UNAVAILABLE"],
    [503, "UPSTREAM_UNAVAILABLE"],
    [504, "UPSTREAM_UNAVAILABLE"],
  ])("an upstream %i becomes the GraphQL code %s", async (status, code) => {
    fx.directory.faults.set({ errorRate: 1, errorStatus: status });
    const err = await upstreamError(fx.upstream.session().legacy.get(`/api/v3/users/${ids[0]}`, { fields: "id,name" }));
    expect(err.status).toBe(status);
    expect(err.code).toBe(code);
    const gql = toGraphQLError(err);
    expect(gql.extensions).toMatchObject({ code, upstream: { method: "GET", path: `/users/${ids[0]}`, status } });
  });

  it("the message names the call and its status, never the query string, key or token", async () => {
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const err = await upstreamError(fx.upstream.session().current.read(`/employees/${ids[0]}`, { search: "secret-looking" }));
    expect(err.message).toBe(`GET /employees/${ids[0]} failed: 503 Service Unavailable`);
    const serialised = JSON.stringify([err.message, toGraphQLError(err).toJSON()]);
    expect(serialised).not.toMatch(/secret-looking|demo-api-key|demo-secret|Bearer/);
  });

  it("a 400 keeps the problem details' field errors and detail", async () => {
    const err = await upstreamError(fx.upstream.session().current.page("/employees", { status: "bogus" }));
    expect(err.code).toBe("BAD_USER_INPUT");
    expect(err.fields?.status?.[0]).toContain("bogus");
    expect(err.detail).toBe("invalid query parameters");
    expect(toGraphQLError(err).extensions.fields).toEqual(err.fields);
  });

  it("a 404 on a read is null, on a legacy get it is NOT_FOUND", async () => {
    const session = fx.upstream.session();
    expect(await session.current.read("/employees/999999")).toBeNull();
    expect(await session.legacy.getOrNull("/api/v3/users/999999")).toBeNull();
    const err = await upstreamError(session.legacy.get("/api/v3/users/999999"));
    expect(err.code).toBe("NOT_FOUND");
    expect(err.detail).toBeTypeOf("string");
  });

  it("a scope the token lacks is FORBIDDEN", async () => {
    const upstream = fx.client({ clientId: "demo-limited", scopes: ["employees.readonly"] });
    const err = await upstreamError(upstream.session().current.page("/legal-entities"));
    expect(err.code).toBe("FORBIDDEN");
    expect(err.status).toBe(403);
  });

  it("a wrong API key is UNAUTHENTICATED and the key is not repeated", async () => {
    const upstream = fx.client({ apiKey: "wrong-key" });
    const err = await upstreamError(upstream.session().legacy.get(`/api/v3/users/${ids[0]}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(toGraphQLError(err).toJSON())).not.toContain("wrong-key");
  });

  it("a 429 carries retryAfter into the extensions", () => {
    const err = new UpstreamError({ method: "GET", path: "/service-api/employees?id=1", status: 429, reason: "http", retryAfter: 30 });
    expect(err.path).toBe("/service-api/employees");
    expect(errorExtensions(err)).toEqual({
      code: "RATE_LIMITED",
      upstream: { method: "GET", path: "/employees", status: 429 },
      retryAfter: 30,
    });
  });
});

describe("toGraphQLError", () => {
  it("passes a GraphQLError of our own through", () => {
    const own = new GraphQLError("no such employee", { extensions: { code: "NOT_FOUND" } });
    expect(toGraphQLError(own)).toBe(own);
  });

  it("maps an UpstreamError that graphql-js wrapped with a path, keeping the path", () => {
    const upstream = new UpstreamError({ method: "GET", path: "/service-api/employees/1", status: 403, reason: "http" });
    const wrapped = locatedError(upstream, undefined, ["employee", "manager"]);
    const mapped = toGraphQLError(wrapped);
    expect(mapped.path).toEqual(["employee", "manager"]);
    expect(mapped.extensions.code).toBe("FORBIDDEN");
  });

  it("turns any other error into INTERNAL_SERVER_ERROR without its message", () => {
    const mapped = toGraphQLError(new Error("connection string postgres://user:pw@db"));
    expect(mapped.message).toBe("Internal server error");
    expect(mapped.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR" });
    expect(toGraphQLError(locatedError(new TypeError("x is undefined"), undefined, ["a"])).extensions.code).toBe("INTERNAL_SERVER_ERROR");
    expect(toGraphQLError("a string").extensions.code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("adds the upstream's detail and field errors for a bad input", () => {
    const err = new UpstreamError({
      method: "PUT",
      path: "/api/v3/timeentries/4",
      status: 400,
      reason: "http",
      summary: "Bad Request",
      detail: "Rule 3: a time entry lasts at most 24h",
      rule: 3,
      fields: { duration: ["must be at most 24h"] },
    });
    const mapped = toGraphQLError(err);
    expect(mapped.message).toBe("PUT /timeentries/4 failed: 400 Bad Request: Rule 3: a time entry lasts at most 24h");
    expect(mapped.extensions).toEqual({
      code: "BAD_USER_INPUT",
      upstream: { method: "PUT", path: "/timeentries/4", status: 400 },
      fields: { duration: ["must be at most 24h"] },
      rule: 3,
    });
  });

  it("a forward-mode call without credentials reads as UNAUTHENTICATED", () => {
    const err = new UpstreamError({ method: "GET", path: "/service-api/employees", status: null, reason: "unauthenticated" });
    expect(toGraphQLError(err).extensions).toMatchObject({ code: "UNAUTHENTICATED", upstream: { status: null } });
  });
});
