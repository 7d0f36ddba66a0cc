import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { expect, it } from "vitest";
import { processMetrics } from "../../platform/metrics.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";

const stack = useGatewayStack();
const open = async () => (await (processMetrics() as any).subscriptionsOpen.get()).values[0]?.value ?? 0;
const Q = `subscription { employeeChanged(ids: ["10"]) { id } }`;
/** A subscription ends on the server (its count, its upstream stream) when its client goes, by either transport. */
it.each(["ws", "sse"])("a subscription over %s ends when its client goes", async (kind) => {
  const base = stack.gateway.url.replace(/\/$/, "");
  let got = 0;
  let dispose: () => unknown;
  if (kind === "ws") {
    const c = createWsClient({ url: base.replace(/^http/, "ws") + "/graphql", webSocketImpl: WebSocket, retryAttempts: 0 });
    c.subscribe({ query: Q }, { next: () => got++, error: () => {}, complete: () => {} });
    dispose = () => c.dispose();
  } else {
    const c = createSseClient({ url: base + "/graphql/stream", retryAttempts: 0 });
    c.subscribe({ query: Q }, { next: () => got++, error: () => {}, complete: () => {} });
    dispose = () => c.dispose();
  }
  for (let i = 0; i < 100 && got === 0; i++) {
    await stack.feed.publish({ id: `l${kind}${i}`, topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", resource: { type: "employee", id: "10" }, establishmentIds: [], previousAttributes: null });
    await new Promise((r) => setTimeout(r, 30));
  }
  await dispose();
  await new Promise((r) => setTimeout(r, 500));
  expect(await open()).toBe(0);
});
