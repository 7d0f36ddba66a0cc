import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GraphQLError } from "graphql";
import { PRODUCTION_LIMITS } from "../../directory/limits.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { useUpstreamFixture } from "./fixture.js";

/**
 * The request budget (pacer.ts, DIRECTORY_REQUEST_BUDGET) against the twin at production's limits:
 * what the twin received is counted, never how long anything took.
 */

/** the error a read ends with: the budget's GraphQLError, or the upstream's */
async function failure(promise: Promise<unknown>): Promise<{ code: unknown; retryAfter: unknown }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GraphQLError) return { code: err.extensions.code, retryAfter: err.extensions.retryAfter };
    const e = err as { code?: unknown; retryAfter?: unknown };
    return { code: e.code, retryAfter: e.retryAfter };
  }
  throw new Error("the read did not fail");
}

const apiRequests = (byRoute: Record<string, number>) => Object.entries(byRoute).filter(([route]) => route !== "POST /connect/token").reduce((n, [, count]) => n + count, 0);

describe("production's budget, 50 in any 60 s", () => {
  const fx = useUpstreamFixture({ employees: 120, today: "2026-06-15", limits: PRODUCTION_LIMITS });
  let ids: string[];
  beforeAll(() => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });

  it("is the default, sends the twin at most the interactive share, answers the rest RATE_LIMITED with retryAfter at once, and keeps the background share", async () => {
    const defaults = loadUpstreamConfig({ DIRECTORY_BASE_URL: "https://directory.example.com", DIRECTORY_CLIENT_ID: "c", DIRECTORY_CLIENT_SECRET: "s", DIRECTORY_API_KEY: "k" });
    expect(defaults.requestBudget).toEqual({ requests: 50, windowSeconds: 60, background: 10 });
    expect(loadUpstreamConfig({}).requestBudget).toEqual(defaults.requestBudget);
    // the poll takes a tenth of the budget at most: 5 reads a minute
    expect(defaults.events?.pollMs).toBe(12_000);

    const upstream = fx.client({ requestBudget: defaults.requestBudget, retries: 0 });
    fx.reset();
    // 60 readers at once, each with the default deadline (10 s): a slot frees only 60 s after it was taken
    const outcomes = await Promise.all(
      ids.slice(0, 60).map((id) =>
        upstream
          .session()
          .current.read(`/employees/${id}`)
          .then(() => ({ code: "ok", retryAfter: undefined }), (err) => failure(Promise.reject(err))),
      ),
    );
    const answered = outcomes.filter((o) => o.code === "ok");
    const limited = outcomes.filter((o) => o.code === "RATE_LIMITED");
    expect(answered).toHaveLength(40);
    expect(limited).toHaveLength(20);
    for (const o of limited) expect(o.retryAfter).toBeGreaterThanOrEqual(1);
    // none waited for its deadline (DEADLINE_EXCEEDED), none reached the twin's own limit (a 429)
    expect(apiRequests(fx.stats().byRoute)).toBe(40);

    // background work has a share of its own that frontends cannot take
    const background = upstream.session({ background: true });
    expect(await background.current.read(`/employees/${ids[70]}`)).toMatchObject({ id: ids[70] });
    expect((await failure(upstream.session().current.read(`/employees/${ids[71]}`))).code).toBe("RATE_LIMITED");
    expect(apiRequests(fx.stats().byRoute)).toBe(41);
  });
});

describe("a 429 from the directory", () => {
  const fx = useUpstreamFixture({ employees: 20, today: "2026-06-15", limits: { requests: 0 } });
  afterEach(() => fx.directory.faults.clear());

  it("holds every caller until its Retry-After: none reaches the directory meanwhile", async () => {
    const upstream = fx.client({ requestBudget: { requests: 1000, windowSeconds: 60, background: 100 } });
    const ids = fx.directory.company.employees.map((e) => e.id);
    await upstream.session().current.read(`/employees/${ids[0]}`);
    // another integration of the tenant took the window: the twin allows one request an hour now
    fx.directory.faults.set({ rateLimitRequests: 1, rateLimitWindowSeconds: 3600 });
    await upstream.session().current.read(`/employees/${ids[1]}`);
    fx.reset();
    const first = await failure(upstream.session().current.read(`/employees/${ids[2]}`));
    expect(first.code).toBe("RATE_LIMITED");
    expect(fx.stats().total).toBe(1);
    // every later caller is held by the Retry-After, past its deadline: refused here, not sent
    const later = await Promise.all(ids.slice(3, 8).map((id) => failure(upstream.session().current.read(`/employees/${id}`))));
    expect(later.map((o) => o.code)).toEqual(Array(5).fill("RATE_LIMITED"));
    for (const o of later) expect(o.retryAfter).toBeGreaterThan(3000);
    expect(fx.stats().total).toBe(1);
  });
});

describe("a request the directory aborts after 5 s", () => {
  const fx = useUpstreamFixture({ employees: 20, today: "2026-06-15", limits: { ...PRODUCTION_LIMITS, requests: 0 } });
  afterEach(() => fx.directory.faults.clear());

  it("is retried (408 is the directory giving up, not a refusal)", { timeout: 60_000 }, async () => {
    const upstream = fx.client({ timeoutMs: 20_000, retries: 1, deadlineMs: 40_000 });
    const id = fx.directory.company.employees[0]!.id;
    await upstream.session().current.read(`/employees/${id}`);
    fx.directory.faults.set({ latencyMs: 8000 });
    fx.reset();
    const session = upstream.session({ deadlineMs: 40_000 });
    const err = await failure(session.current.read(`/employees/${fx.directory.company.employees[1]!.id}`));
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    // the first attempt and its retry, both aborted with 408
    expect(fx.stats().byRoute["GET /service-api/employees/{id}"]).toBe(2);
  });
});

describe("background work", () => {
  const fx = useUpstreamFixture({ employees: 20, today: "2026-06-15", limits: PRODUCTION_LIMITS });

  it("spends its own share only: once it is spent, frontends are still served and the poll is refused", async () => {
    const upstream = fx.client({ requestBudget: { requests: 10, windowSeconds: 60, background: 2 }, retries: 0 });
    const ids = fx.directory.company.employees.map((e) => e.id);
    fx.reset();
    const background = await Promise.all(ids.slice(0, 3).map((id) => upstream.session({ background: true }).current.read(`/employees/${id}`).then(() => "ok", (err) => failure(Promise.reject(err)).then((f) => f.code))));
    expect(background.filter((o) => o === "ok")).toHaveLength(2);
    expect(background.filter((o) => o === "RATE_LIMITED")).toHaveLength(1);
    for (const id of ids.slice(3, 11)) expect(await upstream.session().current.read(`/employees/${id}`)).toMatchObject({ id });
    expect(apiRequests(fx.stats().byRoute)).toBe(10);
  });
});

describe("held reference data kept warm", () => {
  const fx = useUpstreamFixture({ employees: 20, today: "2026-06-15", limits: PRODUCTION_LIMITS });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("revalidates in the background share: with the frontends' share spent, a held entry is still renewed", async () => {
    // the reference cache's clock (performance.now) alone is moved by the test
    vi.useFakeTimers({ toFake: ["performance"] });
    const upstream = fx.client({ requestBudget: { requests: 10, windowSeconds: 60, background: 2 }, referenceFreshMs: 60_000, retries: 0 });
    const ids = fx.directory.company.employees.map((e) => e.id);
    fx.reset();
    const departments = () => upstream.session().current.page("/departments", { limit: 100 });
    await departments(); // interactive: 1 of 8
    for (const id of ids.slice(0, 7)) await upstream.session().current.read(`/employees/${id}`); // interactive: 8 of 8
    expect((await failure(upstream.session().current.read(`/employees/${ids[8]}`))).code).toBe("RATE_LIMITED");
    vi.advanceTimersByTime(31_000); // past half the bound: answered from memory, renewed off the critical path
    await departments();
    await vi.waitFor(() => expect(fx.stats().byRoute["GET /service-api/departments"]).toBe(2));
    expect(apiRequests(fx.stats().byRoute)).toBe(9);
  });
});
