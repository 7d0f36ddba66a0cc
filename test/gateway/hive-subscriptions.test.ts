import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHive, type ServedHive } from "../helpers/hive.js";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Hive Gateway serves the subscriptions of the committed supergraph (docs/gateways.md): it
 * subscribes to the people subgraph over SSE (its HTTP executor's way) and resolves the event's
 * entity fields across subgraphs with its own query plans; a client of Hive over SSE receives them.
 */

const stack = useGatewayStack({ secret: "hive-subscriptions-secret" });
let hive: ServedHive;
let hiveUrl: string;

beforeAll(async () => {
  hive = await serveHive(stack.gatewayEnv);
  hiveUrl = hive.url;
});

afterAll(async () => hive?.close());

describe("Hive Gateway on the committed supergraph", () => {
  it("serves a subscription whose event carries cross-subgraph fields", async () => {
    const controller = new AbortController();
    const response = await fetch(hiveUrl, {
      method: "POST",
      signal: controller.signal,
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: `subscription { employeeChanged(ids: ["50"]) { topic id employee { id givenName applicableJobPosition { department { name } } } } }` }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    let text = "";
    let n = 0;
    const change = (): DirectoryChange => ({ id: `hive-${++n}`, topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", resource: { type: "employee", id: "50" }, establishmentIds: ["1"], previousAttributes: null });
    const reading = (async () => {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        text += new TextDecoder().decode(chunk.value);
        if (/data: \{.*"employeeChanged"/.test(text)) return;
      }
    })();
    for (let i = 0; i < 200 && !/data: \{.*"employeeChanged"/.test(text); i++) {
      await stack.feed.publish(change());
      await new Promise((r) => setTimeout(r, 50));
    }
    await Promise.race([reading, new Promise((r) => setTimeout(r, 2000))]);
    controller.abort();
    const line = text.split("\n").find((l) => l.startsWith("data: {") && l.includes("employeeChanged"));
    expect(line, text.slice(0, 500)).toBeDefined();
    const event = JSON.parse(line!.slice(6));
    expect(event.errors, JSON.stringify(event.errors)).toBeUndefined();
    expect(event.data.employeeChanged.employee.id).toBe("50");
    expect(typeof event.data.employeeChanged.employee.applicableJobPosition.department.name).toBe("string");
  }, 30_000);
});
