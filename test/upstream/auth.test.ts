import { beforeAll, describe, expect, it } from "vitest";
import { upstreamError, useUpstreamFixture } from "./fixture.js";
import { directoryToken } from "../helpers/stack.js";
import { sleep } from "../../subgraphs/shared/upstream/util.js";

describe("client-credentials authentication", () => {
  const fx = useUpstreamFixture({ employees: 60 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("fifty concurrent calls make one token request", async () => {
    const upstream = fx.client();
    fx.reset();
    const session = upstream.session();
    const read = await Promise.all(ids.slice(0, 50).map((id) => session.current.read<{ id: string }>(`/employees/${id}`)));
    expect(read.map((e) => e?.id)).toEqual(ids.slice(0, 50));
    expect(fx.stats().byRoute["POST /connect/token"]).toBe(1);
    expect(fx.stats().byRoute["GET /service-api/employees/{id}"]).toBe(50);
    expect(session.calls.byRoute["POST /connect/token"]).toBe(1);
    expect(session.calls.total).toBe(51);
  });

  it("later sessions reuse the cached token", async () => {
    const upstream = fx.client();
    await upstream.session().current.read(`/employees/${ids[0]}`);
    fx.reset();
    const session = upstream.session();
    await session.current.read(`/employees/${ids[1]}`);
    expect(fx.stats().byRoute["POST /connect/token"]).toBeUndefined();
    expect(session.calls).toEqual({ total: 1, byRoute: { "GET /service-api/employees/{id}": 1 } });
  });

  it("every current-API call carries the Api-Version the service requires", async () => {
    // the service answers 400 to a call without it, so a successful list proves the header
    const page = await fx.upstream.session().current.page<{ id: string }>("/employees", { limit: 3 });
    expect(page.items).toHaveLength(3);
  });

  it("a wrong client secret is UNAUTHENTICATED after one token request and no resource call", async () => {
    const upstream = fx.client({ clientSecret: "wrong" });
    fx.reset();
    const err = await upstreamError(upstream.session().current.read(`/employees/${ids[0]}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(err.status).toBe(401);
    expect(err.path).toBe("/connect/token");
    expect(err.message).not.toContain("wrong");
    expect(fx.stats()).toEqual({ total: 1, byRoute: { "POST /connect/token": 1 } });
  });

  it("a scope the client was not granted makes the token request UNAUTHENTICATED with the OAuth error code", async () => {
    const upstream = fx.client({ clientId: "demo-limited", scopes: ["legal-entities.readonly"] });
    const err = await upstreamError(upstream.session().current.page("/legal-entities"));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(err.status).toBe(400);
    expect(err.detail).toBe("invalid_scope");
  });
});

describe("an expired token", () => {
  // a negative margin makes the client keep a token past its expiry, so the service says 401
  const fx = useUpstreamFixture({ employees: 30, tokenLifetimeSeconds: 1 }, { tokenRefreshMarginMs: -60_000 });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("a 401 fetches one fresh token and retries the call once", async () => {
    const upstream = fx.client();
    await upstream.session().current.read(`/employees/${ids[0]}`);
    await sleep(1100);
    fx.reset();
    const session = upstream.session();
    const employee = await session.current.read<{ id: string }>(`/employees/${ids[1]}`);
    expect(employee?.id).toBe(ids[1]);
    expect(fx.stats().byRoute).toEqual({ "GET /service-api/employees/{id}": 2, "POST /connect/token": 1 });
  });

  it("twenty calls failing with the same expired token share one refresh", async () => {
    const upstream = fx.client();
    await upstream.session().current.read(`/employees/${ids[0]}`);
    await sleep(1100);
    fx.reset();
    const session = upstream.session();
    const read = await Promise.all(ids.slice(0, 20).map((id) => session.current.read<{ id: string }>(`/employees/${id}`)));
    expect(read.every((e, i) => e?.id === ids[i])).toBe(true);
    expect(fx.stats().byRoute["POST /connect/token"]).toBe(1);
    expect(fx.stats().byRoute["GET /service-api/employees/{id}"]).toBe(40);
  });
});

describe("a token the upstream refuses even fresh", () => {
  // tokens that expire as they are issued: every call with one is a 401
  const fx = useUpstreamFixture({ employees: 5, tokenLifetimeSeconds: 0 });

  it("a 401 refreshes the token once, then fails UNAUTHENTICATED instead of looping", async () => {
    const id = fx.directory.company.employees[0]!.id;
    const upstream = fx.client();
    fx.reset();
    const err = await upstreamError(upstream.session().current.read(`/employees/${id}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(err.status).toBe(401);
    expect(fx.stats().byRoute).toEqual({ "POST /connect/token": 2, "GET /service-api/employees/{id}": 2 });
  });
});

describe("forward mode", () => {
  const fx = useUpstreamFixture({ employees: 20 }, { auth: "forward", clientId: null, clientSecret: null });
  let ids: string[];
  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("the caller's Authorization header is forwarded and no token is requested", async () => {
    const token = await directoryToken(fx.directory.url, "demo-client");
    fx.reset();
    const session = fx.upstream.session({ authorization: `Bearer ${token}` });
    expect(session.forwarded).toBe(true);
    const employee = await session.current.read<{ id: string }>(`/employees/${ids[0]}`);
    expect(employee?.id).toBe(ids[0]);
    expect(fx.stats()).toEqual({ total: 1, byRoute: { "GET /service-api/employees/{id}": 1 } });
  });

  it("a session without Authorization is UNAUTHENTICATED without calling the upstream", async () => {
    fx.reset();
    const session = fx.upstream.session();
    const err = await upstreamError(session.current.read(`/employees/${ids[0]}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(err.reason).toBe("unauthenticated");
    expect(err.status).toBeNull();
    expect(session.calls.total).toBe(0);
    expect(fx.stats().total).toBe(0);
  });

  it("a 401 for the caller's token is UNAUTHENTICATED, with no refresh and no retry", async () => {
    fx.reset();
    const err = await upstreamError(fx.upstream.session({ authorization: "Bearer not-a-token" }).current.read(`/employees/${ids[0]}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(err.status).toBe(401);
    expect(err.message).not.toContain("not-a-token");
    expect(fx.stats()).toEqual({ total: 1, byRoute: { "GET /service-api/employees/{id}": 1 } });
  });

  it("a token the directory refused is refused again without a call, by the current and the legacy API alike", async () => {
    await upstreamError(fx.upstream.session({ authorization: "Bearer refused-once" }).current.read(`/employees/${ids[0]}`));
    fx.reset();
    const session = fx.upstream.session({ authorization: "Bearer refused-once" });
    const current = await upstreamError(session.current.read(`/employees/${ids[1]}`));
    expect(current.code).toBe("UNAUTHENTICATED");
    expect(current.status).toBe(401);
    const legacy = await upstreamError(session.legacy.getOrNull(`/api/v3/users/${ids[0]}`));
    expect(legacy.code).toBe("UNAUTHENTICATED");
    expect(fx.stats().total).toBe(0);
  });

  it("the legacy API is still called with the application key, for a caller with credentials", async () => {
    const token = await directoryToken(fx.directory.url, "demo-client");
    const session = fx.upstream.session({ authorization: `Bearer ${token}` });
    const user = await session.legacy.getOrNull<{ data: { id: number } }>(`/api/v3/users/${ids[0]}`);
    expect(user?.data.id).toBe(Number(ids[0]));
  });

  it("no legacy call is made for a caller without credentials", async () => {
    fx.reset();
    const err = await upstreamError(fx.upstream.session().legacy.getOrNull(`/api/v3/users/${ids[0]}`));
    expect(err.code).toBe("UNAUTHENTICATED");
    expect(fx.stats().total).toBe(0);
  });
});
