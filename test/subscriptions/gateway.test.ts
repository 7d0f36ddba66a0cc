import { afterEach, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "../helpers/subgraph.js";
import { collect, gatewaySse, gatewayWs, until, publishUntil as publishChanges } from "../helpers/subscriptions.js";

/**
 * The gateway's subscriptions (gateway/subscriptions.ts): a client over graphql-ws or graphql-sse
 * receives a change published on the feed with the node's fields resolved across subgraphs.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTIONS_PER_CLIENT: "3", GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "200", GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32, ::1" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string, over: Partial<DirectoryChange> = {}): DirectoryChange => ({
  id: `gw-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: { first_name: "Old" },
  ...over,
});

const CROSS = `subscription Changed($ids: [ID!]) { employeeChanged(ids: $ids) { topic id previousAttributes employee { id givenName applicableJobPosition { department { id name } } manager { givenName } } } }`;

function sse(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const client = gatewaySse(stack.gateway.url, disposers, headers);
  return collect((sink) => client.subscribe({ query, variables }, sink));
}

function ws(query: string, variables: Record<string, unknown> = {}, connectionParams: Record<string, unknown> = {}) {
  const client = gatewayWs(stack.gateway.url, disposers, connectionParams);
  return collect((sink) => client.subscribe({ query, variables }, sink));
}


/** publishes until the subscriber(s) hear something (test/helpers/subscriptions.ts) */
const publishUntil = (make: () => DirectoryChange, heard: () => boolean) => publishChanges(stack.feed, make, heard);

describe("gateway subscriptions", () => {
  it("graphql-ws and graphql-sse clients receive a change with cross-subgraph fields", async () => {
    const overWs = ws(CROSS, { ids: ["10"] });
    const overSse = sse(CROSS, { ids: ["10"] });
    await publishUntil(() => change("10"), () => overWs.results.length > 0 && overSse.results.length > 0);
    for (const sub of [overWs, overSse]) {
      expect(sub.error, JSON.stringify(sub.error)).toBeNull();
      const event = sub.results[0];
      expect(event.errors, JSON.stringify(event.errors)).toBeUndefined();
      const payload = event.data.employeeChanged;
      expect(payload).toMatchObject({ topic: "employee.updated", id: "10", previousAttributes: { first_name: "Old" } });
      expect(payload.employee.id).toBe("10");
      expect(typeof payload.employee.givenName).toBe("string");
      // department is the organisation subgraph's: resolved across subgraphs
      expect(typeof payload.employee.applicableJobPosition?.department?.name).toBe("string");
    }
  });

  it("one event costs a few upstream calls per subscriber, not one per field", async () => {
    const sub = sse(CROSS.replace("{ topic", "{ eventId topic"), { ids: ["11"] });
    // every warm-up change read and delivered before counting: they are read in order, so the last one published comes last
    let last = "";
    await publishUntil(() => { const made = change("11"); last = made.id; return made; }, () => sub.results.length > 0);
    await until(() => sub.results.some((r) => r.data?.employeeChanged?.eventId === last));
    const before = sub.results.length;
    stack.resetStats();
    await stack.feed.publish(change("11"));
    await until(() => sub.results.length > before);
    const calls = apiCalls(stack).total;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThanOrEqual(6);
  });

  it("filters reach the subgraph: an unwanted id or topic is not delivered", async () => {
    const sub = ws(`subscription { employeeChanged(ids: ["12"], topics: ["employee.deleted"]) { eventId id topic employee { id } } }`);
    // the warm-up's changes, told apart by id: on a loaded machine one may arrive after the others were published
    const warmUp = new Set<string>();
    await publishUntil(() => {
      const made = change("12", { topic: "employee.deleted" });
      warmUp.add(made.id);
      return made;
    }, () => sub.results.length > 0);
    await stack.feed.publish(change("13", { topic: "employee.deleted" }));
    await stack.feed.publish(change("12", { topic: "employee.updated" }));
    await stack.feed.publish(change("12", { topic: "employee.deleted", id: "last-one" }));
    const heard = () => sub.results.map((r) => r.data.employeeChanged).filter((c) => !warmUp.has(c.eventId));
    await until(() => heard().some((c) => c.eventId === "last-one"));
    await new Promise((r) => setTimeout(r, 200));
    expect(heard()).toEqual([{ eventId: "last-one", id: "12", topic: "employee.deleted", employee: null }]);
  });

  it("refuses the subscriptions of a client beyond GATEWAY_SUBSCRIPTIONS_PER_CLIENT with a clear error", async () => {
    // a client of its own (the count is per verified token, else per address: here the forwarded one)
    const headers = { "x-forwarded-for": "192.0.2.77" };
    const open = [0, 1, 2].map(() => sse(CROSS, { ids: ["14"] }, headers));
    await publishUntil(() => change("14"), () => open.every((s) => s.results.length > 0));
    const refused = sse(CROSS, { ids: ["14"] }, headers);
    await until(() => refused.results.length > 0 || refused.error !== null);
    const error = refused.results[0]?.errors?.[0];
    expect(error?.message).toContain("Too many subscriptions");
    expect(error?.extensions?.code).toBe("RATE_LIMITED");
  });

  it("refuses a query sent as a subscription, and an invalid document, before any upstream call", async () => {
    // the events of the tests before it resolved
    await new Promise((r) => setTimeout(r, 500));
    stack.resetStats();
    const query = sse(`{ employee(id: "10") { id } }`);
    const invalid = ws(`subscription { employeeChanged { nope } }`);
    await until(() => (query.results.length > 0 || query.error !== null) && (invalid.results.length > 0 || invalid.error !== null));
    expect(JSON.stringify(query.results[0] ?? query.error)).toContain("send queries and mutations to /graphql");
    expect(JSON.stringify(invalid.results[0] ?? invalid.error)).toContain("nope");
    expect(apiCalls(stack).total).toBe(0);
  });
});
