import { afterEach, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, gatewayWs, publishUntil, until } from "../helpers/subscriptions.js";

/**
 * The read of each event's node (gateway/subscriptions.ts) is a query the gateway builds from the
 * subscription's selection. A subscription within every limit has an event read within them too
 * (the gateway adds no alias of its own), and one whose event read would be past a limit is refused
 * when it subscribes with that limit's error: never accepted and then every event dropped.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string): DirectoryChange => ({
  id: `limits-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: null,
});

/** `n` aliases in the node's selection (GRAPHQL_MAX_ALIASES is 30) */
const aliased = (n: number) => `subscription { employeeChanged(ids: ["34"]) { eventId employee { id ${Array.from({ length: n }, (_, i) => `a${i}: givenName`).join(" ")} } } }`;

describe("the event read within the subscription's limits", () => {
  it.each(["ws", "sse"] as const)("29 aliases: every event is delivered (%s)", async (transport) => {
    const query = aliased(29);
    const sub = transport === "ws" ? collect((sink) => gatewayWs(stack.gateway.url, disposers).subscribe({ query }, sink)) : collect((sink) => gatewaySse(stack.gateway.url, disposers).subscribe({ query }, sink));
    await publishUntil(stack.feed, () => change("34"), () => sub.results.length > 0 || sub.error !== null || sub.complete);
    expect(sub.error, JSON.stringify(sub.error)).toBeNull();
    const events = [change("34"), change("34"), change("34")];
    const before = sub.results.length;
    for (const e of events) await stack.feed.publish(e);
    // before: 0 of 3 delivered (the read had 31 aliases, refused by the subgraph, and each event dropped)
    await until(() => events.every((e) => sub.results.some((r) => r.data?.employeeChanged?.eventId === e.id)), 30_000);
    for (const r of sub.results.slice(before)) {
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data.employeeChanged.employee.a28).toBe(r.data.employeeChanged.employee.a0);
    }
  }, 60_000);
});
