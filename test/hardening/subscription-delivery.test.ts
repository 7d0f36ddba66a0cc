import { afterEach, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, gatewayWs, publishUntil, until } from "../helpers/subscriptions.js";

/**
 * Every accepted subscription delivers what it asked (gateway/subscriptions.ts): aliases and
 * fragments at every level (the event is read by response key, not by field name), and an event
 * whose node read fails told to the subscriber rather than dropped.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  stack.directory.faults.clear();
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string): DirectoryChange => ({
  id: `alias-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: { first_name: "Old" },
});

const ALIASED = `subscription Aliased {
  c: employeeChanged(ids: ["31"]) {
    e: eventId
    t: topic
    ...Facts
    n: employee { i: id g: givenName ... on Employee { fam: familyName } ...Names m: manager { mg: givenName } }
  }
}
fragment Facts on EmployeeChange { at: occurredAt }
fragment Names on Employee { again: givenName }`;

describe("aliases in subscription documents", () => {
  it.each(["ws", "sse"] as const)("deliver the event under the client's keys at every level (%s)", async (transport) => {
    const sub =
      transport === "ws"
        ? collect((sink) => gatewayWs(stack.gateway.url, disposers).subscribe({ query: ALIASED }, sink))
        : collect((sink) => gatewaySse(stack.gateway.url, disposers).subscribe({ query: ALIASED }, sink));
    await publishUntil(stack.feed, () => change("31"), () => sub.results.length > 0 || sub.error !== null);
    expect(sub.error, JSON.stringify(sub.error)).toBeNull();
    const event = sub.results[0];
    expect(event.errors, JSON.stringify(event.errors)).toBeUndefined();
    const c = event.data.c;
    expect(c.e).toMatch(/^alias-/);
    expect(c.t).toBe("employee.updated");
    expect(c.at).toBe("2026-06-15T10:00:00.000Z");
    expect(c.n.i).toBe("31");
    expect(typeof c.n.g).toBe("string");
    expect(c.n.again).toBe(c.n.g);
    expect(typeof c.n.fam).toBe("string");
    expect(c.n.m === null || typeof c.n.m.mg === "string").toBe(true);
  });
});

describe("a failed node read", () => {
  it("is delivered as an error naming the event, and the subscription stays open", async () => {
    const sub = collect((sink) => gatewaySse(stack.gateway.url, disposers).subscribe({ query: `subscription { employeeChanged(ids: ["32"]) { eventId employee { id } } }` }, sink));
    await publishUntil(stack.feed, () => change("32"), () => sub.results.length > 0);
    stack.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const failing = change("32");
    await stack.feed.publish(failing);
    await until(() => sub.results.some((r) => r.errors?.[0]?.extensions?.eventId === failing.id), 30_000);
    const told = sub.results.find((r) => r.errors?.[0]?.extensions?.eventId === failing.id);
    expect(told.data).toBeNull();
    expect(told.errors[0].extensions).toMatchObject({ id: "32", topic: "employee.updated" });
    expect(sub.error).toBeNull();
    expect(sub.complete).toBe(false);
    stack.directory.faults.clear();
    const after = change("32");
    await stack.feed.publish(after);
    await until(() => sub.results.some((r) => r.data?.employeeChanged?.eventId === after.id), 30_000);
  }, 60_000);
});

describe("file links in subscription events", () => {
  it.each(["ws", "sse"] as const)("name the gateway's origin, as a query's do, and open there (%s)", async (transport) => {
    const query = `subscription { employeeChanged(ids: ["7"]) { eventId employee { id portrait { downloadUrl } } } }`;
    const sub =
      transport === "ws"
        ? collect((sink) => gatewayWs(stack.gateway.url, disposers).subscribe({ query }, sink))
        : collect((sink) => gatewaySse(stack.gateway.url, disposers).subscribe({ query }, sink));
    await publishUntil(stack.feed, () => change("7"), () => sub.results.length > 0 || sub.error !== null);
    expect(sub.error, JSON.stringify(sub.error)).toBeNull();
    const link: string = sub.results[0].data.employeeChanged.employee.portrait.downloadUrl;
    const own = stack.gateway.url.replace(/\/$/, "");
    const asked = (await stack.query(`{ employee(id: "7") { portrait { downloadUrl } } }`)).data.employee.portrait.downloadUrl as string;
    expect(asked.startsWith(`${own}/files/`), asked).toBe(true);
    // before: the people subgraph's own origin (its /files/ route, past the gateway's limits)
    expect(link.startsWith(`${own}/files/`), link).toBe(true);
    for (const sub of Object.values(stack.subgraphs)) expect(link).not.toContain(new URL(sub!.url).host);
    const file = await fetch(link);
    expect(file.status).toBe(200);
    await file.arrayBuffer();
  });
});
