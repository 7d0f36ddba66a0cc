import { describe, expect, it } from "vitest";
import { PRODUCTION_LIMITS } from "../../directory/limits.js";
import { directoryToken, get, postToken } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/**
 * The twin at production's limits, as `npm start` runs it (directory/limits.ts): 50 requests in
 * any 60 s for the tenant, both APIs together and the token endpoint apart; 408 past 5 s; 431
 * over 8 KB of headers. Outcomes are counted, never timed.
 */

const LEGACY_AUTH = { authorization: "service application=demo-api-key" };
const DEMO = { grant_type: "client_credentials", client_id: "demo-client", client_secret: "demo-secret" };

describe("the request limit", () => {
  const directory = useDirectory({ employees: 20, today: "2026-06-15", limits: PRODUCTION_LIMITS });

  it("lets 50 requests through across both APIs, not counting the token endpoint, and answers the 51st with 429 and Retry-After", async () => {
    const token = await directoryToken(directory.url);
    const legacy = () => fetch(`${directory.url}/api/v3/users/1`, { headers: LEGACY_AUTH }).then((r) => r.status);
    const current = () => get(directory.url, token, "/service-api/employees/1").then((a) => a.status);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push(await current(), await legacy());
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    // the token endpoint is on another host in production: still answered, still not counted
    for (let i = 0; i < 3; i++) expect((await postToken(directory.url, DEMO)).status).toBe(200);

    const refused = await get(directory.url, token, "/service-api/employees/2");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body).toMatchObject({ status: 429, title: "Too Many Requests" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // the legacy API shares the tenant's window
    expect(await legacy()).toBe(429);
    expect(directory.stats.snapshot().byRoute["POST /connect/token"]).toBe(4);
  });
});

describe("the admin's request limit", () => {
  const directory = useDirectory({ employees: 20, today: "2026-06-15", limits: { requests: 0 } });

  it("takes N per W seconds in place of the configured limit, the token endpoint apart", async () => {
    const token = await directoryToken(directory.url);
    directory.faults.set({ rateLimitRequests: 2, rateLimitWindowSeconds: 3600 });
    expect((await postToken(directory.url, DEMO)).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(directory.url, token, "/service-api/employees/1")).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await get(directory.url, token, "/service-api/employees/1");
    // the oldest slot frees an hour after it was taken
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    directory.faults.clear();
    expect((await get(directory.url, token, "/service-api/employees/1")).status).toBe(200);
  });
});

describe("the request duration and header limits", () => {
  const directory = useDirectory({ employees: 20, today: "2026-06-15", limits: { ...PRODUCTION_LIMITS, requests: 0 } });

  it("aborts a request running over 5 s with 408", { timeout: 30_000 }, async () => {
    const token = await directoryToken(directory.url);
    directory.faults.set({ latencyMs: 4000 });
    expect((await get(directory.url, token, "/service-api/employees/1")).status).toBe(200);
    directory.faults.set({ latencyMs: 8000 });
    const aborted = await get(directory.url, token, "/service-api/employees/1");
    directory.faults.clear();
    expect(aborted.status).toBe(408);
    expect(aborted.body).toMatchObject({ status: 408, title: "Request Timeout" });
  });

  it("refuses headers over 8 KB with 431, and takes them under", async () => {
    const token = await directoryToken(directory.url);
    expect((await get(directory.url, token, "/service-api/employees/1", { "x-padding": "a".repeat(7000) })).status).toBe(200);
    const refused = await get(directory.url, token, "/service-api/employees/1", { "x-padding": "a".repeat(9000) });
    expect(refused.status).toBe(431);
    expect(refused.body).toMatchObject({ status: 431 });
  });
});
