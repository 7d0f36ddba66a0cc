import { networkInterfaces } from "node:os";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { directoryToken, get } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/**
 * The admin routes of the in-process service (docs/decisions.md#test-and-demo-hooks): request
 * statistics and fault injection, on loopback only, themselves neither counted nor faulted; and
 * the HTTP behaviour every route shares (404, 405, HEAD, bodies too large or not JSON).
 */

const directory = useDirectory({ employees: 20, today: "2026-06-15" });
let token: string;

beforeAll(async () => {
  token = await directoryToken(directory.url);
});
afterEach(async () => {
  await admin("DELETE", "/_admin/faults");
});

const LEGACY_AUTH = { authorization: "service application=demo-api-key" };

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${directory.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const setFaults = (settings: Record<string, unknown>) => admin("PUT", "/_admin/faults", settings);
const employee = () => get(directory.url, token, "/service-api/employees/1");

async function timed<T>(call: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await call();
  return performance.now() - start;
}

describe("request statistics", () => {
  it("count the requests of each route under its pattern, the current and the legacy API alike", async () => {
    await admin("POST", "/_admin/stats/reset");
    await employee();
    await get(directory.url, token, "/service-api/employees/2");
    await fetch(`${directory.url}/api/v3/users/1`, { headers: LEGACY_AUTH });
    expect((await admin("GET", "/_admin/stats")).body).toEqual({
      total: 3,
      byRoute: { "GET /service-api/employees/{id}": 2, "GET /api/v3/users/{id}": 1 },
    });
  });

  it("count requests to unknown addresses under (unmatched)", async () => {
    await admin("POST", "/_admin/stats/reset");
    await fetch(`${directory.url}/nowhere`);
    await fetch(`${directory.url}/service-api/employees`, { method: "DELETE" });
    expect((await admin("GET", "/_admin/stats")).body.byRoute).toEqual({ "GET (unmatched)": 1, "DELETE (unmatched)": 1 });
  });

  it("do not count the admin routes themselves", async () => {
    await admin("POST", "/_admin/stats/reset");
    await admin("GET", "/_admin/stats");
    await admin("GET", "/_admin/faults");
    expect((await admin("GET", "/_admin/stats")).body).toEqual({ total: 0, byRoute: {} });
  });

  it("start over from zero on reset, which answers the emptied statistics", async () => {
    await employee();
    const reset = await admin("POST", "/_admin/stats/reset");
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ total: 0, byRoute: {} });
    expect(directory.stats.snapshot()).toEqual({ total: 0, byRoute: {} });
  });
});

describe("fault injection", () => {
  it("has no faults until some are set, and answers the settings in force", async () => {
    const none = { latencyMs: 0, jitterMs: 0, errorRate: 0, errorStatus: 503, rateLimitRequests: 0, rateLimitWindowSeconds: 60, hangRate: 0, partialEmbedRate: 0, missingEmbedRate: 0, overrunItems: 0 };
    expect((await admin("GET", "/_admin/faults")).body).toEqual(none);
    const set = await setFaults({ latencyMs: 10 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ...none, latencyMs: 10 });
    expect((await admin("GET", "/_admin/faults")).body).toEqual({ ...none, latencyMs: 10 });
  });

  it("latencyMs delays every request by that much", async () => {
    await setFaults({ latencyMs: 150 });
    expect(await timed(employee)).toBeGreaterThanOrEqual(145);
  });

  it("jitterMs adds a random delay to each request: eight times spread apart", async () => {
    await setFaults({ jitterMs: 200 });
    const times: number[] = [];
    for (let i = 0; i < 8; i++) times.push(await timed(employee));
    // eight uniform draws from 0..200 ms all within 20 ms of each other: about 1 in 100 000
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(20);
  });

  it("errorRate 1 answers every request with errorStatus, in the style of its API", async () => {
    await setFaults({ errorRate: 1, errorStatus: 502 });
    const current = await employee();
    expect(current.status).toBe(502);
    expect(current.headers.get("content-type")).toContain("application/problem+json");
    expect(current.body).toMatchObject({ status: 502, title: "Bad Gateway" });
    const legacy = await fetch(`${directory.url}/api/v3/users/1`, { headers: LEGACY_AUTH });
    expect(legacy.status).toBe(502);
    expect(await legacy.json()).toEqual({ status: 502, message: "Bad Gateway" });
  });

  it("errorRate answers a share of the requests with the error, 503 by default", async () => {
    await setFaults({ errorRate: 0.5 });
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) statuses.add((await employee()).status);
    expect(statuses).toEqual(new Set([200, 503]));
  });

  it("rateLimitRequests answers 429 with Retry-After beyond that many requests in its window", async () => {
    await setFaults({ rateLimitRequests: 3, rateLimitWindowSeconds: 1 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => employee()));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(limited).toHaveLength(2);
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.body).toMatchObject({ status: 429, title: "Too Many Requests" });
  });

  it("hangRate 1 leaves every request unanswered, while the admin routes still answer", async () => {
    await setFaults({ hangRate: 1 });
    await expect(fetch(`${directory.url}/service-api/employees/1`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect((await admin("GET", "/_admin/faults")).body.hangRate).toBe(1);
  });

  it("clearing the faults cuts the requests left hanging", async () => {
    const before = directory.faults.hung;
    await setFaults({ hangRate: 1 });
    const hung = fetch(`${directory.url}/service-api/employees/1`).then(
      () => "answered",
      () => "cut",
    );
    // the request has reached the directory and hangs there
    while (directory.faults.hung === before) await new Promise((r) => setTimeout(r, 10));
    expect((await admin("DELETE", "/_admin/faults")).status).toBe(200);
    expect(await hung).toBe("cut");
  });

  it("overrunItems aborts a list answer of more items than that with 408, and answers smaller ones", async () => {
    await setFaults({ overrunItems: 5 });
    const over = await get(directory.url, token, "/service-api/employees?limit=6");
    expect(over.status).toBe(408);
    expect(over.body).toMatchObject({ status: 408, title: "Request Timeout" });
    const within = await get(directory.url, token, "/service-api/employees?limit=5");
    expect(within.status).toBe(200);
    expect((within.body as { items: unknown[] }).items).toHaveLength(5);
    // a single read is no list: answered
    expect((await employee()).status).toBe(200);
  });

  it("partialEmbedRate 1 serves every embedded representation as id, type and url; missingEmbedRate 1 leaves them out", async () => {
    const list = async () => (await get(directory.url, token, "/service-api/employees?limit=3&include=embedded")).body as any;
    const whole = await list();
    const positions = Object.values<any>(whole.embedded["job-position"]);
    expect(positions.length).toBeGreaterThan(0);
    expect(positions[0]).toHaveProperty("jobTitle");
    await setFaults({ partialEmbedRate: 1 });
    const partial = await list();
    expect(partial.items).toEqual(whole.items);
    for (const byId of Object.values<any>(partial.embedded)) {
      for (const representation of Object.values<any>(byId)) expect(Object.keys(representation).sort()).toEqual(["id", "type", "url"]);
    }
    await setFaults({ missingEmbedRate: 1 });
    const missing = await list();
    expect(missing.items).toEqual(whole.items);
    for (const byId of Object.values<any>(missing.embedded)) expect(byId).toEqual({});
  });

  it("DELETE ends every fault", async () => {
    await setFaults({ errorRate: 1 });
    const cleared = await admin("DELETE", "/_admin/faults");
    expect(cleared.status).toBe(200);
    expect(cleared.body.errorRate).toBe(0);
    expect((await employee()).status).toBe(200);
  });

  it("a PUT replaces the settings: what it leaves out is back to none", async () => {
    await setFaults({ errorRate: 1 });
    await setFaults({ latencyMs: 1 });
    expect((await employee()).status).toBe(200);
  });

  it("faults do not touch the admin routes", async () => {
    // a latency no admin answer comes near even on a busy machine: one that waited it would take longer
    await setFaults({ errorRate: 1, latencyMs: 10_000 });
    const start = performance.now();
    expect((await admin("GET", "/_admin/stats")).status).toBe(200);
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});

describe("bad fault settings", () => {
  const cases: Array<[string, unknown, string]> = [
    ["a negative latency", { latencyMs: -1 }, "latencyMs"],
    ["a latency beyond ten minutes", { latencyMs: 600_001 }, "latencyMs"],
    ["a jitter that is not a number", { jitterMs: "50" }, "jitterMs"],
    ["an error rate above 1", { errorRate: 1.5 }, "errorRate"],
    ["an error status that is no error", { errorStatus: 200 }, "errorStatus"],
    ["an error status that is not a whole number", { errorStatus: 503.5 }, "errorStatus"],
    ["a rate limit that is not a whole number", { rateLimitRequests: 0.5 }, "rateLimitRequests"],
    ["a negative hang rate", { hangRate: -0.1 }, "hangRate"],
    ["an unknown setting", { latency: 100 }, "latency"],
  ];

  it.each(cases)("%s is a 400 problem naming the setting, and changes nothing", async (_name, settings, key) => {
    await setFaults({ latencyMs: 5 });
    const res = await setFaults(settings as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 400, title: "Bad Request", detail: "invalid fault settings" });
    expect(Object.keys(res.body.errors)).toEqual([key]);
    expect((await admin("GET", "/_admin/faults")).body.latencyMs).toBe(5);
  });

  it("every bad setting of a request is named at once", async () => {
    const res = await setFaults({ errorRate: 2, hangRate: 2, nope: 1 });
    expect(Object.keys(res.body.errors).sort()).toEqual(["errorRate", "hangRate", "nope"]);
  });

  it.each([
    ["an array", [1]],
    ["null", null],
  ])("a body that is %s is a 400", async (_name, body) => {
    const res = await admin("PUT", "/_admin/faults", JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("fault settings must be a JSON object");
  });

  it("no body is a 400", async () => {
    expect((await admin("PUT", "/_admin/faults")).status).toBe(400);
  });

  it("a body that is not JSON is a 400 problem", async () => {
    const res = await admin("PUT", "/_admin/faults", "{latencyMs: 5");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, detail: "The request body is not valid JSON." });
  });

  it("a body over 1 MiB is a 413, and the connection is closed", async () => {
    const res = await fetch(`${directory.url}/_admin/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: `{"latencyMs": 0, "pad": "${"x".repeat(1 << 20)}"}`,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toMatchObject({ status: 413, title: "Payload Too Large" });
  });
});

describe("HTTP behaviour shared by every route", () => {
  it("HEAD answers the status and headers of GET without a body", async () => {
    const res = await fetch(`${directory.url}/_admin/stats`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.text()).toBe("");
  });

  it("an unknown admin address is a 404 problem", async () => {
    const res = await admin("GET", "/_admin/nothing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, title: "Not Found" });
  });

  it("an unknown address is a 404 in the style of its API", async () => {
    expect((await get(directory.url, token, "/service-api/nothing")).body).toMatchObject({ status: 404, title: "Not Found" });
    const legacy = await fetch(`${directory.url}/api/v3/nothing`, { headers: LEGACY_AUTH });
    expect(legacy.status).toBe(404);
    expect(await legacy.json()).toEqual({ status: 404, message: "Not Found" });
  });

  it("another method on a known address is a 405 naming the allowed ones", async () => {
    const res = await admin("POST", "/_admin/stats");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    const faults = await admin("POST", "/_admin/faults");
    expect(faults.headers.get("allow")).toBe("DELETE, GET, HEAD, PUT");
    const api = await fetch(`${directory.url}/service-api/employees/1`, { method: "DELETE" });
    expect(api.status).toBe(405);
    expect(api.headers.get("allow")).toBe("GET, HEAD");
  });
});

// the admin routes must be out of reach of other machines: this needs an address that is not loopback
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address;

describe.skipIf(external === undefined)("reached from another address than loopback", () => {
  const open = useDirectory({ employees: 5, today: "2026-06-15", host: "0.0.0.0" });

  it("the admin routes do not exist, while the APIs answer", async () => {
    const remote = `http://${external}:${open.port}`;
    expect((await fetch(`${remote}/_admin/stats`)).status).toBe(404);
    expect((await fetch(`${remote}/_admin/faults`, { method: "DELETE" })).status).toBe(404);
    expect((await fetch(`${remote}/api/v3/users/1`, { headers: LEGACY_AUTH })).status).toBe(200);
    expect((await fetch(`${open.url}/_admin/stats`)).status).toBe(200);
  });
});
