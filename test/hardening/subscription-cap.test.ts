import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { subscriptionCapOf } from "../../gateway/subscriptions.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, gatewayWs, publishUntil, until } from "../helpers/subscriptions.js";

/**
 * The replica's cap of open subscriptions (GATEWAY_SUBSCRIPTIONS_MAX): past it a subscription is
 * refused by either transport, and the replica goes on serving queries and the subscriptions it holds.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTIONS_MAX: "2", GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

const QUERY = `subscription { employeeChanged(ids: ["41"]) { eventId } }`;

describe("the replica's subscription cap", () => {
  it("refuses the subscription past GATEWAY_SUBSCRIPTIONS_MAX by either transport and stays up", async () => {
    const ws = gatewayWs(stack.gateway.url, disposers);
    const held = [0, 1].map(() => collect((sink) => ws.subscribe({ query: QUERY }, sink)));
    // both held open: each hears a change
    await publishUntil(stack.feed, () => ({ id: `cap-${Date.now()}-${Math.random()}`, topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", resource: { type: "employee", id: "41" }, establishmentIds: ["1"], previousAttributes: null }), () => held.every((s) => s.results.length > 0));
    const overWs = collect((sink) => ws.subscribe({ query: QUERY }, sink));
    const overSse = collect((sink) => gatewaySse(stack.gateway.url, disposers).subscribe({ query: QUERY }, sink));
    await until(() => [overWs, overSse].every((s) => s.error !== null || s.results.length > 0));
    for (const refused of [overWs, overSse]) {
      const errors = (Array.isArray(refused.error) ? refused.error : (refused.results[0]?.errors ?? [])) as Array<{ extensions?: Record<string, unknown> }>;
      expect(JSON.stringify(refused)).toContain("GATEWAY_SUBSCRIPTIONS_MAX");
      expect(errors.some((e) => e.extensions?.limit === "subscriptionsPerReplica") || JSON.stringify(refused).includes("subscriptionsPerReplica")).toBe(true);
    }
    for (const s of held) expect(s.error).toBeNull();
    const answer = await stack.gql(stack.gateway.url, `{ employee(id: "41") { id } }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.employee.id).toBe("41");
    for (const s of held) expect(s.complete).toBe(false);
  });

  it("the documented default and the manifest's cap follow the heap limit", () => {
    const doc = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
    const row = doc.split("\n").find((line) => line.startsWith("| `GATEWAY_SUBSCRIPTIONS_MAX` |"))!;
    const cap = subscriptionCapOf(259 * 1024 * 1024);
    expect(row).toContain(`259 MiB gives ${cap.toLocaleString("en").replace(/,/g, " ")}`);
    // the gateway's manifest states the cap of its 512Mi pod, where V8 sizes the heap at 259 MiB
    const manifest = readFileSync(new URL("../../deploy/kubernetes/gateway.yaml", import.meta.url), "utf8");
    expect(manifest).toMatch(/limits: \{ memory: 512Mi \}/);
    expect(manifest).toContain(`{ name: GATEWAY_SUBSCRIPTIONS_MAX, value: "${cap}" }`);
  });
});
