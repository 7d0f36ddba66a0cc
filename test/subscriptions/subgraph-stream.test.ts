import { createClient, type Client } from "graphql-sse";
import { publishUntil as publishChanges } from "../helpers/subscriptions.js";
import { afterEach, describe, expect, it } from "vitest";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useStack } from "../helpers/stack.js";

/**
 * The people subgraph's subscriptions over GraphQL over SSE (subgraphs/shared/graphql/subscriptions.ts):
 * a change published on the feed reaches a subscriber with the changed record read as a graph node.
 */

const stack = useStack({ subgraphs: ["people"], subscriptionQueue: 3 });
const clients: Client[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.dispose();
});

let seq = 0;
export const change = (resourceId: string, over: Partial<DirectoryChange> = {}): DirectoryChange => ({
  id: `evt-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: { first_name: "Old" },
  ...over,
});

function streamUrl() {
  return stack.subgraphs.people!.url.replace(/\/graphql$/, "/graphql/stream");
}

/** subscribes and collects; `ready` resolves once the server has the subscription (the feed has a listener) */
function subscribe(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const client = createClient({ url: streamUrl(), headers, retryAttempts: 0 });
  clients.push(client);
  const results: any[] = [];
  let error: unknown = null;
  let complete = false;
  client.subscribe({ query, variables }, { next: (r) => results.push(r), error: (e) => (error = e), complete: () => (complete = true) });
  return { results, get error() { return error; }, get complete() { return complete; } };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};


/** publishes until the subscriber(s) hear something (test/helpers/subscriptions.ts) */
const publishUntil = (make: () => DirectoryChange, heard: () => boolean) => publishChanges(stack.feed, make, heard, 100);

describe("people subgraph subscriptions over SSE", () => {
  it("an employee change carries the employee as it is now, and the event's facts", async () => {
    const sub = subscribe(`subscription { employeeChanged(ids: ["10"]) { eventId topic occurredAt id previousAttributes employee { id givenName applicableEmployment { id } } } }`);
    await publishUntil(() => change("10"), () => sub.results.length > 0);
    const event = sub.results[0];
    expect(event.errors).toBeUndefined();
    expect(event.data.employeeChanged).toMatchObject({ topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", id: "10", previousAttributes: { first_name: "Old" } });
    expect(event.data.employeeChanged.employee.id).toBe("10");
    expect(typeof event.data.employeeChanged.employee.givenName).toBe("string");
  });

  it("filters: ids, topics, establishments and the type; a deleted record has a null node", async () => {
    const sub = subscribe(`subscription { employeeChanged(topics: ["employee.deleted"], establishmentIds: ["2"]) { id topic employee { id } } }`);
    await publishUntil(() => change("11", { topic: "employee.deleted", establishmentIds: ["2"] }), () => sub.results.length > 0);
    const before = sub.results.length;
    await stack.feed.publish(change("12", { topic: "employee.updated", establishmentIds: ["2"] }));
    await stack.feed.publish(change("13", { topic: "employee.deleted", establishmentIds: ["1"] }));
    await stack.feed.publish(change("14", { topic: "employment.deleted", resource: { type: "employment", id: "14" }, establishmentIds: ["2"] }));
    await stack.feed.publish(change("15", { topic: "employee.deleted", establishmentIds: ["3", "2"] }));
    await until(() => sub.results.length > before);
    await new Promise((r) => setTimeout(r, 100));
    const ids = sub.results.map((r) => r.data.employeeChanged.id);
    expect(new Set(ids)).toEqual(new Set(["11", "15"]));
    expect(sub.results.every((r) => r.data.employeeChanged.employee === null && r.data.employeeChanged.topic === "employee.deleted")).toBe(true);
  });

  it("refuses a bad topic before subscribing, and a query on the stream endpoint", async () => {
    const bad = subscribe(`subscription { employeeChanged(topics: ["employment.updated"]) { id } }`);
    await until(() => bad.results.length > 0 || bad.error !== null);
    expect(JSON.stringify(bad.results[0]?.errors ?? bad.error)).toContain("employee.deleted");
    const response = await fetch(streamUrl(), { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify({ query: `{ employee(id: "10") { id } }` }) });
    const body = await response.text();
    expect(body).toContain("subscriptions only");
    expect(body).not.toContain('"employee"');
  });
});
