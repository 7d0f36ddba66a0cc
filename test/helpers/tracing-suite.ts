import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway, type RunningGateway } from "../../gateway/gateway.js";
import { Logger } from "../../platform/log.js";
import { startTracing, type OtlpProtocol, type Tracing } from "../../platform/tracing.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf } from "./operations.js";
import { SPAN_KIND, SPAN_STATUS, spanTree, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./otlp.js";
import { startStack, watchDirectoryRequests, type Stack } from "./stack.js";
import { processMetrics } from "../../platform/metrics.js";

/** a REST call's client span (a subgraph's), not the gateway's request to a subgraph */
const isRestCall = (s: ReceivedSpan) => s.kind === SPAN_KIND.client && s.attributes["directory_graph.upstream.api"] !== undefined;

/**
 * The traces the stack exports, received by an OTLP/HTTP receiver of the test (otlp.ts), for
 * EmployeeProfile through the gateway: one trace from the client's `traceparent` through the
 * gateway's spans, each subgraph's and one client span per REST call, nothing secret in it; and
 * the log lines of the operation joined by its request id and trace id. A tracer provider is
 * registered once per process: each protocol runs in a file of its own (vitest runs every file
 * of the slow project in its own process).
 */
export function tracingSuite(protocol: OtlpProtocol): void {
  let receiver: OtlpReceiver;
  let tracing: Tracing | null;
  let stack: Stack;
  let gateway: RunningGateway;
  const lines: Array<Record<string, unknown>> = [];
  const collect = (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>);
  /** headers the directory received */
  const directory = watchDirectoryRequests(() => stack?.directory.port ?? -1);
  const received = directory.headers;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await startTracing({ url: receiver.url, protocol, serviceName: "directory-graph-test" });
    stack = await startStack({ subgraphs: ["people", "organisation", "legacy-time"], logger: (name) => new Logger(name, "info", collect) });
    gateway = await startGateway(
      loadGatewayConfig({
        GATEWAY_PORT: "0",
        PEOPLE_URL: stack.subgraphs.people!.url,
        ORGANISATION_URL: stack.subgraphs.organisation!.url,
        LEGACY_TIME_URL: stack.subgraphs["legacy-time"]!.url,
      }),
      new Logger("gateway", "info", collect),
    );
  });

  afterAll(async () => {
    directory.stop();
    await gateway?.close();
    await stack?.close();
    await tracing?.shutdown();
    await receiver?.close();
  });

  describe(`tracing over OTLP/HTTP (${protocol})`, () => {
    const traceId = randomBytes(16).toString("hex");
    const clientSpanId = randomBytes(8).toString("hex");
    const requestId = `profile-${randomBytes(4).toString("hex")}`;
    let spans: ReceivedSpan[] = [];
    let upstreamCalls = 0;
    let answer: { status: number; headers: Headers; body: { data?: unknown; errors?: unknown[] } };

    beforeAll(async () => {
      expect(tracing).not.toBeNull();
      const operation = operationNamed(loadOperations(), "EmployeeProfile");
      const variables = variablesOf(pickDemoData(stack.directory.company), operation);
      const before = receiver.spans.length;
      stack.resetStats();
      received.length = 0;
      const res = await fetch(`${gateway.url}graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          traceparent: `00-${traceId}-${clientSpanId}-01`,
          tracestate: "frontend=checkout",
          "x-request-id": requestId,
        },
        body: JSON.stringify({ query: operation.source, variables, operationName: operation.name }),
      });
      answer = { status: res.status, headers: res.headers, body: (await res.json()) as typeof answer.body };
      upstreamCalls = stack.stats().total;
      await tracing!.flush();
      spans = receiver.spans.slice(before);
      console.log(`EmployeeProfile (${protocol}), ${upstreamCalls} upstream calls:\n${spanTree(spans.filter((s) => s.traceId === traceId))}`);
    });

    it("the operation succeeds and answers the client's request id", () => {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.headers.get("x-request-id")).toBe(requestId);
      expect(receiver.contentTypes.every((t) => t.includes(protocol === "http/json" ? "json" : "protobuf"))).toBe(true);
    });

    it("one trace covers the gateway's spans, each subgraph's and the REST calls, under the client's span", () => {
      // every span the operation made is in the client's trace
      expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
      const roots = spans.filter((s) => s.parentSpanId === clientSpanId);
      expect(roots).toHaveLength(1);
      const root = roots[0]!;
      expect(root).toMatchObject({ kind: SPAN_KIND.server, name: "query EmployeeProfile", service: "directory-graph-test" });
      expect(root.attributes).toMatchObject({ "directory_graph.component": "gateway", "graphql.operation.name": "EmployeeProfile", "http.response.status_code": 200 });
      // a tree: every other span's parent is a span of the trace
      const ids = new Set(spans.map((s) => s.spanId));
      for (const span of spans.filter((s) => s !== root)) expect(ids.has(span.parentSpanId), `${span.name}'s parent`).toBe(true);
      const names = spans.map((s) => s.name);
      expect(names).toEqual(expect.arrayContaining(["gateway.request", "gateway.plan", "gateway.execute", "gateway.fetch"]));
      // each subgraph request is a server span under the gateway's CLIENT span of that request,
      // itself under one of the gateway's fetches
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const subgraphSpans = spans.filter((s) => s.kind === SPAN_KIND.server && s !== root);
      // EmployeeProfile reads people and organisation (people provides the legacy work contract)
      expect(new Set(subgraphSpans.map((s) => s.attributes["directory_graph.component"]))).toEqual(new Set(["people", "organisation"]));
      for (const span of subgraphSpans) {
        const hop = byId.get(span.parentSpanId)!;
        expect(hop).toMatchObject({ kind: SPAN_KIND.client, name: "POST" });
        const target = new URL(stack.subgraphs[span.attributes["directory_graph.component"] as "people"]!.url);
        expect(hop.attributes).toEqual({
          "http.request.method": "POST",
          "server.address": target.hostname,
          "server.port": Number(target.port),
          "url.full": target.href,
          "directory_graph.subgraph": span.attributes["directory_graph.component"],
          "http.response.status_code": 200,
        });
        expect(["gateway.fetch", "gateway.request"]).toContain(byId.get(hop.parentSpanId)?.name);
        expect(span.name).toBe("query EmployeeProfile");
      }
    });

    it("the HTTP and resource conventions: server spans' url, address, client and user agent; the resource's service and SDK", () => {
      const root = spans.find((s) => s.parentSpanId === clientSpanId)!;
      const gatewayUrl = new URL(gateway.url);
      expect(root.attributes).toMatchObject({
        "http.request.method": "POST",
        "http.route": "/graphql",
        "url.path": "/graphql",
        "url.scheme": "http",
        "server.address": gatewayUrl.hostname,
        "server.port": Number(gatewayUrl.port),
        "client.address": "127.0.0.1",
        "user_agent.original": "node",
        "network.protocol.version": "1.1",
      });
      expect(root.status).toBe(SPAN_STATUS.unset);
      for (const span of spans.filter((s) => s.kind === SPAN_KIND.server)) {
        expect(span.attributes).toMatchObject({ "url.path": "/graphql", "http.route": "/graphql", "client.address": "127.0.0.1" });
        expect(typeof span.attributes["server.port"]).toBe("number");
      }
      expect(root.resource).toMatchObject({
        "service.name": "directory-graph-test",
        "service.version": expect.stringMatching(/^\d+\.\d+\.\d+/),
        "service.instance.id": expect.stringMatching(/^[0-9a-f-]{36}$/),
        "telemetry.sdk.language": "nodejs",
        "telemetry.sdk.name": "opentelemetry",
        "telemetry.sdk.version": expect.any(String),
      });
    });

    it("@apollo/gateway's attributes are namespaced or dropped; a first attempt has no resend count", () => {
      const fetches = spans.filter((s) => s.name === "gateway.fetch");
      expect(fetches.length).toBeGreaterThan(0);
      for (const span of fetches) expect(["people", "organisation", "legacy-time"]).toContain(span.attributes["directory_graph.subgraph"]);
      for (const span of spans) {
        expect(span.attributes, span.name).not.toHaveProperty("service");
        expect(span.attributes, span.name).not.toHaveProperty("operationName");
        expect(span.attributes, span.name).not.toHaveProperty("http.request.resend_count");
      }
      expect(spans.find((s) => s.name === "gateway.request")?.attributes["graphql.operation.name"]).toBe("EmployeeProfile");
    });

    it("one client span per REST call the directory counted, under a subgraph's span, with its route template, status, attempt and cache outcome", () => {
      const clients = spans.filter(isRestCall);
      expect(upstreamCalls).toBeGreaterThan(0);
      expect(clients).toHaveLength(upstreamCalls);
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (const span of clients) {
        expect(byId.get(span.parentSpanId)?.kind).toBe(SPAN_KIND.server);
        const template = String(span.attributes["url.template"]);
        expect(span.name).toBe(`${span.attributes["http.request.method"]} ${template}`);
        // a template, never the URL: no id, no query string
        expect(template).not.toMatch(/\/\d+(\/|$)|\?/);
        expect(span.attributes["http.response.status_code"]).toBe(200);
        expect(span.attributes["directory_graph.upstream.attempt"]).toBe(1);
        expect(span.attributes["directory_graph.etag.cache_hit"]).toBe(false);
        expect(["current", "legacy", "token"]).toContain(span.attributes["directory_graph.upstream.api"]);
      }
      // the directory received the trace context of each client span, and the client's tracestate
      expect(received).toHaveLength(upstreamCalls);
      const clientIds = new Set(clients.map((s) => s.spanId));
      for (const headers of received) {
        const [, trace, parent] = String(headers.traceparent).split("-");
        expect(trace).toBe(traceId);
        expect(clientIds.has(parent!)).toBe(true);
        expect(headers.tracestate).toBe("frontend=checkout");
        expect(headers["x-request-id"]).toBe(requestId);
      }
    });

    it("no attribute, event or span name holds a token, a key, or a value of the demo's personal data", () => {
      const texts = spans.flatMap((s) => [s.name, ...values(s.attributes), ...s.events.flatMap((e) => [e.name, ...values(e.attributes)])]);
      const secrets = ["demo-secret", "demo-api-key", "Bearer", "application="];
      for (const headers of received) secrets.push(String(headers.authorization).replace(/^\S+\s+/, ""));
      const personal = leaves(answer.body.data).filter((v) => v.length >= 4 && !/^\d+$/.test(v) && !/^[A-Z_]+$/.test(v));
      expect(personal.length).toBeGreaterThan(5);
      for (const text of texts) {
        for (const secret of secrets) expect(text, "a secret in a span").not.toContain(secret);
        for (const value of personal) expect(text, `a personal value in a span: ${value}`).not.toContain(value);
      }
    });

    it("the gateway's log line and each subgraph's line of the operation share its request id and trace id", () => {
      const ofOperation = lines.filter((l) => l.msg === "operation" && l.requestId === requestId);
      const components = new Set(ofOperation.map((l) => l.component));
      expect(components).toEqual(new Set(["gateway", "people", "organisation"]));
      for (const line of ofOperation) {
        expect(line.traceId).toBe(traceId);
        expect(line.spanId).toMatch(/^[0-9a-f]{16}$/);
      }
      // the gateway's line carries the root span's id: a search by span id lands on it
      const root = spans.find((s) => s.parentSpanId === clientSpanId)!;
      expect(ofOperation.find((l) => l.component === "gateway")!.spanId).toBe(root.spanId);
    });

    it("the same operation again: the calls answered 304 from the ETag cache say so", async () => {
      const operation = operationNamed(loadOperations(), "EmployeeProfile");
      const { spans: again } = await traced(tracing!, receiver, `${gateway.url}graphql`, operation.source, variablesOf(pickDemoData(stack.directory.company), operation));
      const clients = again.filter(isRestCall);
      const hits = clients.filter((s) => s.attributes["directory_graph.etag.cache_hit"] === true);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(hit.attributes).toMatchObject({ "http.response.status_code": 304, "directory_graph.etag.revalidating": true });
    });

    it("the gateway sends the plan's fetches and nothing beside them: no request ahead of the plan in the trace", async () => {
      const operation = operationNamed(loadOperations(), "EmployeeProfile");
      const variables = variablesOf(pickDemoData(stack.directory.company), operation);
      const { spans, body } = await traced(tracing!, receiver, `${gateway.url}graphql`, operation.source, variables);
      expect(body.errors).toBeUndefined();
      const served = spans.filter((s) => s.kind === SPAN_KIND.server && s.attributes["directory_graph.component"] !== "gateway").map((s) => s.name);
      expect(served.length).toBeGreaterThan(0);
      for (const name of served) expect(name).toBe("query EmployeeProfile");
    });

    it("retries: one client span per attempt with its number and status, and a retry event on the subgraph's span", async () => {
      stack.directory.faults.set({ errorRate: 1, errorStatus: 503 });
      try {
        const { spans: failed, body } = await traced(tracing!, receiver, `${gateway.url}graphql`, '{ employee(id: "10") { id givenName email } }');
        expect(body.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
        const attempts = failed.filter(isRestCall);
        expect(attempts.map((s) => [s.attributes["directory_graph.upstream.attempt"], s.attributes["http.request.resend_count"], s.attributes["http.response.status_code"]])).toEqual([
          [1, undefined, 503],
          [2, 1, 503],
          [3, 2, 503],
        ]);
        // an answer with errors: the operation's server spans say so, with the error's code
        const servers = failed.filter((s) => s.kind === SPAN_KIND.server);
        expect(servers.map((s) => s.attributes["directory_graph.component"]).sort()).toEqual(["gateway", "people"]);
        for (const server of servers) {
          expect(server.status).toBe(SPAN_STATUS.error);
          expect(server.attributes["error.type"]).toBe("UPSTREAM_UNAVAILABLE");
          expect(server.attributes["http.response.status_code"]).toBe(200);
        }
        const subgraph = failed.find((s) => s.kind === SPAN_KIND.server && s.attributes["directory_graph.component"] === "people")!;
        const retries = subgraph.events.filter((e) => e.name === "upstream.retry");
        expect(retries.map((e) => [e.attributes["directory_graph.upstream.attempt"], e.attributes["directory_graph.upstream.cause"]])).toEqual([
          [2, "503"],
          [3, "503"],
        ]);
      } finally {
        stack.directory.faults.clear();
      }
    });
  });

  describe("refusals as span events and metrics", () => {
    let small: Stack;
    beforeAll(async () => {
      // a call budget of 2 (the token and one read) and a breaker that opens after one failure
      small = await startStack({ subgraphs: ["people"], env: { DIRECTORY_CALL_BUDGET: "2", DIRECTORY_BREAKER_FAILURES: "1", DIRECTORY_RETRIES: "0" } });
    });
    afterAll(async () => small?.close());

    it("the call budget's refusal is an event of the subgraph's span and one refusal in the metrics", async () => {
      const before = (await processMetrics().refusals.get()).values.find((v) => v.labels.component === "people" && v.labels.limit === "upstreamBudget")?.value ?? 0;
      const { spans: refused, body } = await traced(tracing!, receiver, small.subgraphs.people!.url, "{ employees(first: 5) { edges { node { id manager { givenName } } } } }");
      expect(body.errors?.[0]?.extensions?.code).toBe("UPSTREAM_BUDGET_EXCEEDED");
      const server = refused.find((s) => s.kind === SPAN_KIND.server)!;
      expect(server.events.map((e) => e.name)).toContain("upstream.upstreamBudget");
      const after = (await processMetrics().refusals.get()).values.find((v) => v.labels.component === "people" && v.labels.limit === "upstreamBudget")?.value ?? 0;
      expect(after - before).toBe(1);
    });

    it("an open breaker's refusal is an event of the subgraph's span", async () => {
      small.directory.faults.set({ errorRate: 1, errorStatus: 503 });
      try {
        // the failure that opens the breaker, then a request it refuses
        await traced(tracing!, receiver, small.subgraphs.people!.url, '{ employee(id: "10") { id } }');
        const { spans: refused, body } = await traced(tracing!, receiver, small.subgraphs.people!.url, '{ employee(id: "11") { id } }');
        expect(body.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
        expect(refused.filter(isRestCall)).toEqual([]);
        const server = refused.find((s) => s.kind === SPAN_KIND.server)!;
        expect(server.events.find((e) => e.name === "upstream.breaker")?.attributes).toEqual({ "directory_graph.upstream.api": "current" });
      } finally {
        small.directory.faults.clear();
      }
    });
  });
}

/** POSTs an operation with a new trace of its own; answers the trace's id, its spans once flushed, and the answer */
async function traced(
  tracing: Tracing,
  receiver: OtlpReceiver,
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ traceId: string; spans: ReceivedSpan[]; body: { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> } }> {
  const traceId = randomBytes(16).toString("hex");
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as Awaited<ReturnType<typeof traced>>["body"];
  await tracing.flush();
  return { traceId, spans: receiver.spans.filter((s) => s.traceId === traceId), body };
}

function values(attributes: Record<string, unknown>): string[] {
  return Object.values(attributes).map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
}

/** every string of an answer's data */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}
