import { request } from "node:http";
import { describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { until } from "../helpers/subscriptions.js";

/**
 * An SSE subscriber that stops reading is closed SUBSCRIBER_TOO_SLOW as a graphql-ws one is
 * (gateway/subscriptions.ts), though graphql-sse's handler takes every result at once into its own
 * array: the gateway counts what it handed against what the handler wrote.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTION_QUEUE: "3", GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });

const EVENTS = 40;
const big = (i: number): DirectoryChange => ({
  id: `slow-${i}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: "51" },
  establishmentIds: ["1"],
  // ~512 KB an event: a few fill the sockets' buffers
  previousAttributes: { note: "x".repeat(512 * 1024) },
});

describe("a slow SSE subscriber", () => {
  it("that stops reading is closed SUBSCRIBER_TOO_SLOW instead of being kept every event", async () => {
    const url = new URL("/graphql/stream", stack.gateway.url);
    const chunks: Buffer[] = [];
    let ended = false;
    const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" } }, resolve);
      req.on("error", reject);
      req.end(JSON.stringify({ query: `subscription { employeeChanged(ids: ["51"]) { eventId previousAttributes } }` }));
    });
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => (ended = true));
    // subscribed: a first small change heard
    let first = 0;
    for (; first < 200 && !Buffer.concat(chunks).includes("event: next"); first++) {
      await stack.feed.publish({ ...big(-first), previousAttributes: null });
      await new Promise((r) => setTimeout(r, 30));
    }
    res.pause();
    for (let i = 0; i < EVENTS; i++) await stack.feed.publish(big(i));
    // a while for the gateway to hand them on (the outcome holds however far it got: the sockets are full after a few)
    await new Promise((r) => setTimeout(r, 2000));
    res.resume();
    await until(() => ended || Buffer.concat(chunks).includes("SUBSCRIBER_TOO_SLOW"), 60_000);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text).toContain("SUBSCRIBER_TOO_SLOW");
    const bigOnes = text.split("event: next").filter((part) => part.includes('"note"')).length;
    expect(bigOnes).toBeLessThan(EVENTS);
    res.destroy();
  }, 120_000);
});
