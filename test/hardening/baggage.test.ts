import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTracing, type Tracing } from "../../platform/tracing.js";
import { startGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp.js";
import { watchDirectoryRequests } from "../helpers/stack.js";

/**
 * With tracing on, a client's trace context is continued to the directory, and its `baggage` is
 * not (docs/security.md#baggage): the probe sent 7.4 KB of it, and every REST call carried
 * it. A tracer provider is registered once per process: this file has one of its own.
 */

describe("a client's baggage", () => {
  let receiver: OtlpReceiver;
  let tracing: Tracing | null;
  let stack: GatewayStack;
  const directory = watchDirectoryRequests(() => stack?.directory.port ?? -1);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await startTracing({ url: receiver.url, protocol: "http/json", serviceName: "directory-graph-test" });
    stack = await startGatewayStack();
  });
  afterAll(async () => {
    directory.stop();
    await stack?.close();
    await tracing?.shutdown();
    await receiver?.close();
  });

  it("is not forwarded on any REST call, while the trace context is", async () => {
    const traceId = randomBytes(16).toString("hex");
    const baggage = Array.from({ length: 130 }, (_, i) => `key${i}=${"v".repeat(50)}`).join(",");
    expect(baggage.length).toBeGreaterThan(7000);
    directory.headers.length = 0;
    const res = await fetch(stack.gateway.url, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`, baggage },
      body: JSON.stringify({ query: `{ employee(id: "10") { id givenName applicableJobPosition { id } } }` }),
    });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    const calls = directory.headers.filter((h) => !String(h["content-type"] ?? "").includes("x-www-form-urlencoded"));
    expect(calls.length).toBeGreaterThan(0);
    // tracing is on: the client's trace reaches the directory
    expect(calls.every((h) => String(h.traceparent).split("-")[1] === traceId)).toBe(true);
    expect(calls.map((h) => h.baggage).filter((b) => b !== undefined)).toEqual([]);
  });
});
