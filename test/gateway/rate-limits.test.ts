import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { PRODUCTION_RATE_LIMITS } from "../../gateway/rate-limits.js";
import { loadSharedStateConfig } from "../../platform/shared-state.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Per-client limits at one gateway without Redis (test/replicas/ has them across replicas): a
 * refusal is 429 with Retry-After and one error naming the limit, costs no upstream call, and
 * touches no other client; the cost budget counts what the operation limits measure.
 */

const stack = useGatewayStack({
  gatewayEnv: { GATEWAY_RATE_LIMIT: "5", GATEWAY_COST_LIMIT: "60", GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32, ::1" },
});

async function post(query: string, address: string): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(stack.gateway.url, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.1, ${address}` }, body: JSON.stringify({ query }) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

describe("per-client rate limits", () => {
  it("refuses the sixth operation of a minute with 429, Retry-After, the limit named, and no upstream call", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(`{ __typename }`, "192.0.2.1")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    stack.resetStats();
    const refused = await post(`{ employee(id: "10") { id } }`, "192.0.2.1");
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      errors: [{ message: "Rate limit exceeded: at most 5 operations a minute for one client", extensions: { code: "RATE_LIMITED", limit: "operations", value: 5, retryAfter: Number(refused.retryAfter) } }],
    });
    expect(stack.stats().total).toBe(0);
    // the client is the address before the trusted proxy (the last one of X-Forwarded-For that is not trusted)
    expect((await post(`{ __typename }`, "192.0.2.2")).status).toBe(200);
  });

  it("counts the operation's cost: a page of 30 employees with two fields each (a cost above 60) is over a budget of 60", async () => {
    const cheap = await post(`{ employee(id: "10") { id } }`, "192.0.2.3");
    expect(cheap.status).toBe(200);
    const costly = await post(`{ employees(first: 30) { nodes { id givenName } } }`, "192.0.2.4");
    expect(costly.status).toBe(429);
    expect(costly.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "cost", value: 60 });
  });
});

describe("configuration", () => {
  it("off outside production, on in production, each settable", () => {
    expect(loadGatewayConfig({}).rateLimits).toMatchObject({ operations: 0, writes: 0, cost: 0 });
    expect(loadGatewayConfig({ NODE_ENV: "production" }).rateLimits).toMatchObject(PRODUCTION_RATE_LIMITS);
    expect(loadGatewayConfig({ NODE_ENV: "production", GATEWAY_WRITE_RATE_LIMIT: "0" }).rateLimits.writes).toBe(0);
  });

  it.each([
    [{ GATEWAY_RATE_LIMIT: "-1" }, /GATEWAY_RATE_LIMIT must be an integer/],
    [{ GATEWAY_COST_LIMIT: "lots" }, /GATEWAY_COST_LIMIT must be an integer/],
    [{ GATEWAY_TRUSTED_PROXIES: "10.0.0.0/33" }, /GATEWAY_TRUSTED_PROXIES must be a comma-separated list/],
    [{ GATEWAY_TRUSTED_PROXIES: "proxy.example.com" }, /GATEWAY_TRUSTED_PROXIES must be a comma-separated list/],
    [{ REDIS_URL: "http://cache:6379" }, /REDIS_URL must be a redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: "not a url :secret@" }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$/],
    [{ REDIS_KEY_PREFIX: "a b" }, /REDIS_KEY_PREFIX must be/],
    [{ REDIS_TIMEOUT_MS: "0" }, /REDIS_TIMEOUT_MS must be an integer from 10/],
  ])("refuses %o with a message naming the variable", (env, message) => {
    expect(() => loadGatewayConfig(env)).toThrow(message);
  });

  it("reads the Redis settings and the upstream budget the same way in the subgraphs", () => {
    expect(loadSharedStateConfig({ REDIS_URL: "rediss://:pw@cache:6380/2" })).toEqual({ url: "rediss://:pw@cache:6380/2", prefix: "directory-graph:", timeoutMs: 200 });
    expect(loadUpstreamConfig({ DIRECTORY_REQUEST_BUDGET: "20/10", DIRECTORY_BACKGROUND_SHARE: "25", REDIS_KEY_PREFIX: "hr:" })).toMatchObject({ requestBudget: { requests: 20, windowSeconds: 10, background: 5 }, shared: { prefix: "hr:" } });
    expect(loadUpstreamConfig({ DIRECTORY_REQUEST_BUDGET: "off" }).requestBudget).toBeNull();
    expect(() => loadUpstreamConfig({ DIRECTORY_REQUEST_BUDGET: "fast" })).toThrow(/DIRECTORY_REQUEST_BUDGET must be off or N\/W/);
    // the per-second, per-API setting it replaces is refused by name, not silently ignored
    expect(() => loadUpstreamConfig({ DIRECTORY_RATE_LIMIT: "20" })).toThrow(/DIRECTORY_RATE_LIMIT is replaced by DIRECTORY_REQUEST_BUDGET/);
  });
});
