import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway } from "../../gateway/gateway.js";
import { Logger } from "../../platform/log.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { watchDirectoryRequests } from "../helpers/stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { parsePrometheus, sumOf, type Sample } from "../../harness/prometheus.js";

/**
 * `GET /metrics` on the gateway's and the subgraphs' ports (tracing off, the default): Prometheus
 * text that a scraper parses, whose upstream counter moves by exactly the requests the directory
 * counted, with bounded labels; and the request id, kept from the client or made, carried to the
 * directory and answered.
 */

const stack = useGatewayStack();
const operations = loadOperations();
let demo: Demo;

/** headers of the requests the directory received */
const directory = watchDirectoryRequests(() => stack.directory.port);
const received = directory.headers;

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});
afterAll(() => directory.stop());

async function scrape(url = stack.gateway.url): Promise<{ text: string; samples: Sample[]; types: Map<string, string> }> {
  const res = await fetch(new URL("/metrics", url));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, ...parsePrometheus(text) };
}

describe("/metrics", () => {
  it("after the five operations of operations/: the upstream counter moved by exactly the requests the directory counted, each operation counted by name and outcome", async () => {
    for (const operation of operations) {
      const before = (await scrape()).samples;
      stack.resetStats();
      const response = await stack.query(operation.source, variablesOf(demo, operation));
      expect(response.errors, operation.name).toBeUndefined();
      const counted = stack.stats().total;
      const after = (await scrape()).samples;
      expect(counted, operation.name).toBeGreaterThan(0);
      expect(sumOf(after, "upstream_requests_total") - sumOf(before, "upstream_requests_total"), operation.name).toBe(counted);
      const labels = { component: "gateway", operation: operation.name, outcome: "success" };
      expect(sumOf(after, "graphql_operations_total", labels) - sumOf(before, "graphql_operations_total", labels)).toBe(1);
      expect(sumOf(after, "graphql_operation_duration_seconds_count", labels) - sumOf(before, "graphql_operation_duration_seconds_count", labels)).toBe(1);
      // each subgraph counted its part of the operation under the gateway's operation name
      expect(sumOf(after, "graphql_operations_total", { operation: operation.name }) - sumOf(before, "graphql_operations_total", { operation: operation.name })).toBeGreaterThan(1);
    }
    const { text, samples, types } = await scrape();
    expect(types.get("graphql_operation_duration_seconds")).toBe("histogram");
    expect(types.get("upstream_requests_total")).toBe("counter");
    expect(sumOf(samples, "gateway_subgraph_fetches_total", { status: "200" })).toBeGreaterThan(0);
    expect(sumOf(samples, "graphql_operations_in_flight")).toBe(0);
    expect(sumOf(samples, "upstream_etag_cache_entries")).toBeGreaterThan(0);
    for (const api of ["current", "legacy", "token"]) expect(sumOf(samples, "upstream_breaker_state", { api, state: "closed" }), api).toBe(1);
    // the process's own metrics
    expect(sumOf(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(types.has("nodejs_eventloop_lag_seconds")).toBe(true);
    console.log(
      "/metrics after the five operations (process metrics left out):\n" +
        text
          .split("\n")
          .filter((l) => !/^(# (HELP|TYPE) )?(process_|nodejs_)/.test(l) && !/_bucket\{/.test(l))
          .join("\n"),
    );
  });

  it("a second EmployeeProfile revalidates with the ETag cache: its 304s are counted as 304 attempts and as not-modified answers", async () => {
    const profile = operations.find((o) => o.name === "EmployeeProfile")!;
    const before = (await scrape()).samples;
    await stack.query(profile.source, variablesOf(demo, profile));
    const after = (await scrape()).samples;
    const notModified = sumOf(after, "upstream_not_modified_total") - sumOf(before, "upstream_not_modified_total");
    expect(notModified).toBeGreaterThan(0);
    expect(sumOf(after, "upstream_requests_total", { status: "304" }) - sumOf(before, "upstream_requests_total", { status: "304" })).toBe(notModified);
  });

  it("labels are bounded: route templates without ids, operation names from a bounded set", async () => {
    await stack.query(`query Ad_hoc_${Date.now()} { employee(id: "10") { id } }`);
    // a legacy reference list, whose address carries no API version (/directory/api/work-contract-…)
    const listed = await stack.query(`{ employee(id: "10") { applicableEmployment { workContract { hiringType { id name } } } } }`);
    expect(listed.errors).toBeUndefined();
    const { samples } = await scrape();
    const routes = samples.filter((s) => s.name === "upstream_requests_total").map((s) => s.labels.route!);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route).toMatch(/^(\/[A-Za-z0-9.-]+|\/\{id\})+$/);
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)/);
    for (const s of samples.filter((s) => s.labels.attempt !== undefined)) expect(["1", "2", "3", "4", "5"]).toContain(s.labels.attempt);
    for (const s of samples.filter((s) => s.labels.operation !== undefined)) expect(s.labels.operation).toMatch(/^[_A-Za-z][_0-9A-Za-z]*$/);
  });

  it("an operation refused by a limit is counted by the limit's name, with no upstream call", async () => {
    const before = (await scrape()).samples;
    stack.resetStats();
    let deep = "id";
    for (let i = 0; i < 20; i++) deep = `manager { ${deep} }`;
    const response = await stack.query(`query TooDeep { employee(id: "10") { ${deep} } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("OPERATION_LIMIT_EXCEEDED");
    const limit = String(response.errors![0]!.extensions!.limit);
    const after = (await scrape()).samples;
    expect(sumOf(after, "graphql_refusals_total", { component: "gateway", limit }) - sumOf(before, "graphql_refusals_total", { component: "gateway", limit })).toBe(1);
    expect(stack.stats().total).toBe(0);
  });

  it("each subgraph's port answers the process's registry (one registry per process)", async () => {
    for (const subgraph of Object.values(stack.subgraphs)) {
      const { samples } = await scrape(subgraph!.url);
      expect(sumOf(samples, "graphql_operations_total", { component: "gateway" })).toBeGreaterThan(0);
      expect(sumOf(samples, "graphql_operations_total", { component: subgraph!.name })).toBeGreaterThan(0);
    }
  });
});

describe("the request id", () => {
  const QUERY = JSON.stringify({ query: '{ employee(id: "10") { id } }' });
  async function post(headers: Record<string, string>): Promise<Response> {
    return fetch(`${stack.gateway.url}graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: QUERY });
  }

  it("a well-formed x-request-id of the client is answered and carried to the subgraphs and on to the directory", async () => {
    received.length = 0;
    const res = await post({ "x-request-id": "01J9Z-checkout.page:42" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("01J9Z-checkout.page:42");
    expect(received.length).toBeGreaterThan(0);
    for (const headers of received) expect(headers["x-request-id"]).toBe("01J9Z-checkout.page:42");
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["with spaces", "a b"],
    ["with a quote and braces", '"}{"'],
    ["too long", "x".repeat(129)],
    ["a header injection attempt", "abc%0d%0aset-cookie:x"],
  ])("%s: a new one (a UUID) is made and answered", async (_what, value) => {
    const res = await post(value === undefined ? {} : { "x-request-id": value });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("the gateway's log lines of a request carry its id, given or made, though it keeps no scope for its requests: the operation, a refused one, an unlisted document", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const gateway = await startGateway(
      loadGatewayConfig({ ...stack.gatewayEnv, GRAPHQL_MAX_DEPTH: "3", GATEWAY_TRUSTED_DOCUMENTS: "log" }),
      new Logger("gateway", "info", (line) => lines.push(JSON.parse(line) as Record<string, unknown>)),
    );
    try {
      const send = (query: string, headers: Record<string, string> = {}) =>
        fetch(`${gateway.url}graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query }) });
      const given = await send('{ employee(id: "10") { id } }', { "x-request-id": "page-7" });
      expect(given.status).toBe(200);
      const made = await send('{ employee(id: "10") { givenName } }');
      const madeId = made.headers.get("x-request-id");
      expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
      const deep = await send('{ employee(id: "10") { manager { manager { manager { id } } } } }', { "x-request-id": "page-8" });
      expect(deep.status).toBe(400);
      const ofRequest = (id: string | null) => lines.filter((l) => l.requestId === id).map((l) => l.msg);
      expect(ofRequest("page-7")).toEqual(["document not in the trusted documents", "operation"]);
      expect(ofRequest(madeId)).toEqual(["document not in the trusted documents", "operation"]);
      expect(ofRequest("page-8")).toEqual(["document not in the trusted documents", "operation"]);
      expect(lines.find((l) => l.requestId === "page-8" && l.msg === "operation")).toMatchObject({ limit: "depth" });
      expect(lines.filter((l) => l.requestId === undefined && l.msg !== "listening")).toEqual([]);
    } finally {
      await gateway.close();
    }
  });

  it("a subgraph answers the id it was given, or one of its own", async () => {
    const subgraph = stack.subgraphs.people!.url;
    const given = await fetch(subgraph, { method: "POST", headers: { "content-type": "application/json", "x-request-id": "direct-1" }, body: QUERY });
    expect(given.headers.get("x-request-id")).toBe("direct-1");
    const made = await fetch(subgraph, { method: "POST", headers: { "content-type": "application/json" }, body: QUERY });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
