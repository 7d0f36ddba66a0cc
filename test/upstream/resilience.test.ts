import { GraphQLError } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDirectory } from "../../directory/server.js";
import { Upstream, type UpstreamCallEvent } from "../../subgraphs/shared/upstream/index.js";
import { configFor, upstreamError, type Fixture, useUpstreamFixture } from "./fixture.js";

describe("retries, rate limits and timeouts", () => {
  const fx = useUpstreamFixture({ employees: 20 });
  let ids: string[];
  /** a client whose token is already cached, so faults hit only the calls under test */
  async function warmClient(overrides: Parameters<Fixture["client"]>[0] = {}): Promise<Upstream> {
    const upstream = fx.client(overrides);
    await upstream.session().current.read(`/employees/${ids[0]}`);
    return upstream;
  }

  beforeAll(async () => {
    ids = fx.directory.company.employees.map((e) => e.id);
  });
  afterEach(() => fx.directory.faults.clear());

  it("a 429 with Retry-After: 1 is retried after about a second", async () => {
    const upstream = await warmClient();
    const session = upstream.session();
    fx.directory.faults.set({ rateLimitRequests: 1, rateLimitWindowSeconds: 1 });
    await session.current.read(`/employees/${ids[0]}`);
    const started = Date.now();
    const employee = await session.current.read<{ id: string }>(`/employees/${ids[1]}`);
    const waited = Date.now() - started;
    expect(employee?.id).toBe(ids[1]);
    // a lower bound load cannot break: the retry was not sent before the Retry-After
    expect(waited).toBeGreaterThanOrEqual(900);
    // the upper bound only catches a wait in the wrong unit or repeated: 4 x the Retry-After leaves
    // 3 s for a loaded machine's scheduler, and the count below proves exactly one retry
    expect(waited).toBeLessThan(4 * 1000);
    expect(session.calls.byRoute["GET /service-api/employees/{id}"]).toBe(3);
  });

  it("a Retry-After beyond the cap is not waited for: RATE_LIMITED with retryAfter", async () => {
    const upstream = await warmClient({ maxRetryAfterSeconds: 0 });
    const session = upstream.session();
    fx.directory.faults.set({ rateLimitRequests: 1, rateLimitWindowSeconds: 1 });
    await session.current.read(`/employees/${ids[0]}`);
    const started = Date.now();
    const err = await upstreamError(session.current.read(`/employees/${ids[1]}`));
    // not waited for: the error came back before the Retry-After it names had passed (a client that
    // waited would take at least that), and nothing was sent again (the count below)
    expect(Date.now() - started).toBeLessThan(err.retryAfter! * 1000);
    expect(err.code).toBe("RATE_LIMITED");
    expect(err.status).toBe(429);
    expect(err.retryAfter).toBe(1);
    expect(session.calls.total).toBe(2);
  });

  it.each([502, 503, 504])("a GET answered %i is retried up to the configured retries", async (status) => {
    const upstream = await warmClient({ retries: 2 });
    const session = upstream.session();
    fx.directory.faults.set({ errorRate: 1, errorStatus: status });
    fx.reset();
    const err = await upstreamError(session.current.read(`/employees/${ids[0]}`));
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(err.status).toBe(status);
    expect(fx.stats().byRoute["GET /service-api/employees/{id}"]).toBe(3);
    expect(session.calls.total).toBe(3);
  });

  it("a retried GET succeeds once the upstream recovers", async () => {
    const upstream = await warmClient({ retries: 2 });
    // the fault is lifted as soon as the first attempt has failed
    const stop = upstream.onCall((event) => {
      if (event.status === 503) fx.directory.faults.clear();
    });
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const session = upstream.session();
    const employee = await session.current.read<{ id: string }>(`/employees/${ids[2]}`);
    stop();
    expect(employee?.id).toBe(ids[2]);
    expect(session.calls.total).toBe(2);
  });

  it("a 500 is not retried", async () => {
    const upstream = await warmClient({ retries: 2 });
    fx.directory.faults.set({ errorRate: 1, errorStatus: 500 });
    fx.reset();
    const err = await upstreamError(upstream.session().current.read(`/employees/${ids[0]}`));
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(fx.stats().total).toBe(1);
  });

  it("a PUT (idempotent) answered 503 is retried like a read; a 503 applied nothing, so the outcome is known", async () => {
    const upstream = fx.client({ retries: 2 });
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    fx.reset();
    const session = upstream.session();
    const err = await upstreamError(session.legacy.put(`/api/v3/timeentries/1`, { duration: "PT1H" }));
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(err.method).toBe("PUT");
    expect(fx.stats().total).toBe(3);
    expect(session.calls.total).toBe(3);
  });

  it("a POST answered 429 is not retried either", async () => {
    const upstream = await warmClient({ retries: 2 });
    fx.directory.faults.set({ errorRate: 1, errorStatus: 429 });
    fx.reset();
    const err = await upstreamError(upstream.session().current.post("/webhook-deliveries", { webhookEndpoint: { id: "1" } }));
    expect(err.code).toBe("RATE_LIMITED");
    expect(fx.stats().total).toBe(1);
  });

  it("a hanging upstream times out: a read is retried within the deadline, then UPSTREAM_UNAVAILABLE, reason timeout", async () => {
    const upstream = await warmClient({ timeoutMs: 200, retries: 2 });
    const attempts: UpstreamCallEvent[] = [];
    upstream.onCall((e) => attempts.push(e));
    fx.directory.faults.set({ hangRate: 1 });
    const session = upstream.session();
    const err = await upstreamError(session.current.read(`/employees/${ids[0]}`));
    // each attempt was cut by the configured timeout (200 ms), not the fixture's default (3000 ms)
    // nor the hang: measured per attempt in the client's own terms, and bounded by the default
    // timeout it must not have used, which leaves a loaded machine 2.8 s of slack per attempt
    expect(attempts.map((e) => [e.attempt, e.status])).toEqual([[1, null], [2, null], [3, null]]);
    for (const attempt of attempts) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(190);
      expect(attempt.durationMs).toBeLessThan(3000);
    }
    expect(err.reason).toBe("timeout");
    expect(err.status).toBeNull();
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(session.calls.total).toBe(3);
  });

  it("a hung write is sent once", async () => {
    const upstream = await warmClient({ timeoutMs: 200, retries: 2 });
    fx.directory.faults.set({ hangRate: 1 });
    const session = upstream.session();
    const err = await upstreamError(session.current.post("/webhook-deliveries", { webhookEndpoint: { id: "1" } }));
    expect(err.reason).toBe("timeout");
    expect(session.calls.total).toBe(1);
  });

  it("the request's deadline bounds a read and its retries: DEADLINE_EXCEEDED, however long the timeout", async () => {
    const upstream = await warmClient({ timeoutMs: 10_000, retries: 2 });
    fx.directory.faults.set({ hangRate: 1 });
    const session = upstream.session({ deadlineMs: 600 });
    expect(session.deadlineMs).toBe(600);
    const started = Date.now();
    const err = await session.current.read(`/employees/${ids[0]}`).catch((e: unknown) => e as GraphQLError);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(550);
    // cut by the deadline, not the 10 s timeout: 4 x the deadline tells the two apart by far and
    // leaves a loaded machine 1.8 s of slack
    expect(took).toBeLessThan(4 * 600);
    expect((err as GraphQLError).extensions).toMatchObject({ code: "DEADLINE_EXCEEDED", limit: 600 });
    // each attempt had a share of the deadline, so the hung one was retried in time
    expect(session.calls.total).toBeGreaterThan(1);
    // past the deadline, nothing more is sent
    fx.directory.faults.clear();
    const before = session.calls.total;
    expect(((await session.current.read(`/employees/${ids[0]}`).catch((e: unknown) => e)) as GraphQLError).extensions?.code).toBe("DEADLINE_EXCEEDED");
    expect(session.calls.total).toBe(before);
  });

  it("a deadline asked for is clamped to the configured maximum", async () => {
    const upstream = await warmClient({ deadlineMs: 2000 });
    expect(upstream.session({ deadlineMs: 60_000 }).deadlineMs).toBe(2000);
    expect(upstream.session().deadlineMs).toBe(2000);
    expect(upstream.session({ deadlineMs: 300 }).deadlineMs).toBe(300);
  });

  it("the circuit breaker: 5xx in a row open it for a while; 4xx never do; it closes once the upstream answers", async () => {
    const upstream = await warmClient({ retries: 0, breakerFailures: 3, breakerOpenMs: 400 });
    // a caller's bad requests (404s here) do not count
    for (let i = 0; i < 6; i++) expect(await upstream.session().current.read(`/employees/no-such-${i}`)).toBeNull();
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    for (let i = 0; i < 3; i++) expect((await upstreamError(upstream.session().current.read(`/employees/${ids[0]}`))).status).toBe(503);
    fx.reset();
    const open = await upstreamError(upstream.session().current.read(`/employees/${ids[0]}`));
    expect(open).toMatchObject({ reason: "circuit", code: "UPSTREAM_UNAVAILABLE", status: null });
    expect(open.message).toContain("not sent");
    expect(fx.stats().total).toBe(0);
    // the upstream recovers; after the open period one trial request closes the breaker
    fx.directory.faults.clear();
    await new Promise((r) => setTimeout(r, 450));
    expect(await upstream.session().current.read(`/employees/${ids[0]}`)).toMatchObject({ id: ids[0] });
    expect(await upstream.session().current.read(`/employees/${ids[1]}`)).toMatchObject({ id: ids[1] });
  });

  it("the call budget stops an operation instead of calling on: UPSTREAM_BUDGET_EXCEEDED", async () => {
    const upstream = await warmClient({ callBudget: 3 });
    const session = upstream.session();
    for (const id of ids.slice(0, 3)) await session.current.read(`/employees/${id}`);
    fx.reset();
    const err = (await session.current.read(`/employees/${ids[3]}`).catch((e: unknown) => e)) as GraphQLError;
    expect(err).toBeInstanceOf(GraphQLError);
    expect(err.extensions).toMatchObject({ code: "UPSTREAM_BUDGET_EXCEEDED", limit: 3 });
    expect(err.message).toContain("more than 3 calls");
    expect(fx.stats().total).toBe(0);
    // another session has its own budget
    await upstream.session().current.read(`/employees/${ids[3]}`);
  });

  it("every attempt is reported to the process-wide hook", async () => {
    const upstream = await warmClient({ retries: 1 });
    const events: UpstreamCallEvent[] = [];
    upstream.onCall((e) => events.push(e));
    fx.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await upstreamError(upstream.session().current.read(`/employees/${ids[0]}`));
    expect(events.map((e) => [e.route, e.status, e.attempt])).toEqual([
      ["GET /service-api/employees/{id}", 503, 1],
      ["GET /service-api/employees/{id}", 503, 2],
    ]);
    expect(upstream.totals.byRoute["GET /service-api/employees/{id}"]).toBe(3);
  });
});

describe("connection failures", () => {
  let upstream: Upstream;
  beforeAll(async () => {
    // a port that was just free and is closed again: connections are refused
    const gone = await startDirectory({ limits: { requests: 0 }, employees: 1 });
    const url = gone.url;
    await gone.close();
    upstream = new Upstream(configFor(url, { retries: 2, retryBaseDelayMs: 5 }));
  });
  afterAll(() => upstream.close());

  it("a refused connection is retried and then UPSTREAM_UNAVAILABLE with reason network", async () => {
    const session = upstream.session();
    const err = await upstreamError(session.legacy.get("/api/v3/users/1"));
    expect(err.reason).toBe("network");
    expect(err.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(err.message).toContain("ECONNREFUSED");
    expect(session.calls.total).toBe(3);
  });

  it("a write whose connection was refused is retried too: it never reached the upstream", async () => {
    const session = upstream.session();
    const err = await upstreamError(session.legacy.put("/api/v3/timeentries/1", {}));
    expect(err.reason).toBe("network");
    expect(session.calls.total).toBe(3);
  });
});
