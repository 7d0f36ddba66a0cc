import { randomBytes } from "node:crypto";
import { createClient } from "graphql-sse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTracing, type Tracing } from "../../platform/tracing.js";
import { startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { SPAN_KIND, spanTree, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp.js";

/**
 * The trace of one directory event (docs/observability.md#traces), received by the OTLP receiver
 * of the test: the legacy PUT the `updateLegacyUser` mutation sends (in the mutation's trace), the
 * people subgraph's `directory event` ingestion span (a root), and the gateway's `subscription
 * event` delivery span (a root) with the node read under it, down to the subgraphs and the
 * directory; the two roots carry the same `directory_graph.event.id`. A tracer provider is
 * registered once per process: this file is in vitest's `slow` project (a process of its own).
 */

let receiver: OtlpReceiver;
let tracing: Tracing | null;
let stack: GatewayStack;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ url: receiver.url, protocol: "http/protobuf", serviceName: "directory-graph-test" });
  stack = await startGatewayStack({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20" } });
});

afterAll(async () => {
  await stack?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the trace of one directory event", () => {
  it("the legacy PUT, the ingestion and the delivery with its node read, joined by the event id", async () => {
    expect(tracing).not.toBeNull();
    const heard: any[] = [];
    const client = createClient({ url: stack.gateway.url.replace(/\/$/, "") + "/graphql/stream", retryAttempts: 0 });
    try {
      client.subscribe(
        { query: `subscription Watch { employeeChanged(ids: ["20"]) { eventId employee { givenName applicableJobPosition { department { name } } } } }` },
        { next: (r) => heard.push(r), error: () => {}, complete: () => {} },
      );
      // writes (each in a trace of the test's) until the subscriber hears one (set up asynchronously)
      const writes = new Map<string, string>();
      for (let i = 0; i < 6 && heard.length === 0; i++) {
        const traceId = randomBytes(16).toString("hex");
        const name = `Tracy${i}`;
        writes.set(name, traceId);
        const res = await fetch(`${stack.gateway.url}graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` },
          body: JSON.stringify({ query: `mutation Rename($name: String!) { updateLegacyUser(id: "20", input: { firstName: $name }) { __typename } }`, variables: { name } }),
        });
        expect(((await res.json()) as any).data.updateLegacyUser.__typename).toBe("Employee");
        for (let w = 0; w < 250 && heard.length === 0; w++) await sleep(10);
      }
      expect(heard.length, "the subscriber heard a write").toBeGreaterThan(0);
      const { eventId, employee } = heard[0].data.employeeChanged;
      const mutationTrace = writes.get(employee.givenName)!;
      expect(mutationTrace).toBeDefined();

      await sleep(200);
      await tracing!.flush();
      const spans = receiver.spans;
      const withEvent = (name: string) => spans.filter((s) => s.name === name && s.attributes["directory_graph.event.id"] === eventId);
      // the write: the legacy PUT of the legacy-time subgraph, in the mutation's trace
      const put = spans.find((s) => s.traceId === mutationTrace && s.kind === SPAN_KIND.client && s.attributes["url.template"] === "/api/v3/users/{id}" && s.attributes["http.request.method"] === "PUT");
      expect(put, "the legacy PUT's span").toBeDefined();
      // the ingestion: one received
      const ingested = withEvent("directory event");
      expect(ingested).toHaveLength(1);
      expect(ingested[0]!.attributes).toMatchObject({ "directory_graph.event.topic": "employee.updated", "directory_graph.event.mode": "poll", "directory_graph.event.outcome": "received" });
      // the delivery at the gateway, and the node read under it, down to the directory
      const delivered = withEvent("subscription event");
      expect(delivered).toHaveLength(1);
      const delivery = delivered[0]!;
      expect(delivery.parentSpanId).toBe("");
      expect(delivery.attributes).toMatchObject({ "directory_graph.component": "gateway", "directory_graph.subscription.outcome": "delivered", "directory_graph.event.topic": "employee.updated" });
      const read = spans.filter((s) => s.traceId === delivery.traceId);
      expect(read.map((s) => s.name)).toEqual(expect.arrayContaining(["query GatewaySubscriptionEvent", "gateway.request", "gateway.fetch", "POST"]));
      expect(read.find((s) => s.name === "query GatewaySubscriptionEvent" && s.kind === SPAN_KIND.internal)?.parentSpanId).toBe(delivery.spanId);
      expect(new Set(read.filter((s) => s.kind === SPAN_KIND.server).map((s) => s.attributes["directory_graph.component"]))).toEqual(new Set(["people", "organisation"]));
      expect(read.some((s) => s.kind === SPAN_KIND.client && s.attributes["directory_graph.upstream.api"] !== undefined)).toBe(true);

      const tree = (traceId: string, only?: (s: ReceivedSpan) => boolean) => spanTree(spans.filter((s) => s.traceId === traceId && (only?.(s) ?? true)));
      console.log(
        [
          `event ${eventId} (employee.updated of employee 20)`,
          `1. the write (trace ${mutationTrace}):`,
          tree(mutationTrace),
          `2. the ingestion (trace ${ingested[0]!.traceId}), directory_graph.event.id=${eventId}:`,
          tree(ingested[0]!.traceId),
          `3. the delivery and its node read (trace ${delivery.traceId}), directory_graph.event.id=${eventId}:`,
          tree(delivery.traceId),
        ].join("\n"),
      );
    } finally {
      client.dispose();
    }
  });
});
