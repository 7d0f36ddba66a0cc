import { afterEach, describe, expect, it } from "vitest";
import type { ChangeListener, DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "../helpers/subgraph.js";
import { collect, gatewaySse, gatewayWs, publishUntil, until, type Received } from "../helpers/subscriptions.js";

/**
 * The fan-out (gateway/subscriptions.ts): the subscribers of one selection on a replica share one
 * upstream stream to people and one node read per event, whichever credentials each sends in
 * service mode (the read uses the facade's own).
 */

const SUBSCRIBERS = 1000;
const stack = useGatewayStack({ gatewayEnv: { GATEWAY_SUBSCRIPTIONS_PER_CLIENT: String(SUBSCRIBERS + 10), GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "0" } });
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string): DirectoryChange => ({
  id: `fan-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: { first_name: "Old" },
});

/** the subscriptions people serves now: each is one listener of the change feed (changesOf) */
function countPeopleStreams(): () => number {
  const feed = stack.feed;
  const listen = feed.listen.bind(feed);
  let live = 0;
  feed.listen = (listener: ChangeListener) => {
    live++;
    const stop = listen(listener);
    let stopped = false;
    disposers.push(() => {
      feed.listen = listen;
    });
    return () => {
      if (!stopped) live--;
      stopped = true;
      stop();
    };
  };
  return () => live;
}

const QUERY = `subscription Fan($ids: [ID!]) { employeeChanged(ids: $ids) { eventId id employee { id givenName } } }`;

describe("one change read once", () => {
  it(`${SUBSCRIBERS} subscribers of one selection cost one upstream stream and one node read per event, Authorization headers or not`, async () => {
    const streams = countPeopleStreams();
    const ws = gatewayWs(stack.gateway.url, disposers);
    const subs: Received[] = [];
    for (let i = 0; i < SUBSCRIBERS - 10; i++) subs.push(collect((sink) => ws.subscribe({ query: QUERY, variables: { ids: ["21"] } }, sink)));
    // in service mode each caller's own header does not make a read of its own
    for (let i = 0; i < 10; i++) {
      const sse = gatewaySse(stack.gateway.url, disposers, { authorization: `Bearer fan-out-${i}` });
      subs.push(collect((sink) => sse.subscribe({ query: QUERY, variables: { ids: ["21"] } }, sink)));
    }
    let last = "";
    await publishUntil(stack.feed, () => {
      const made = change("21");
      last = made.id;
      return made;
    }, () => subs.every((s) => s.results.length > 0), 400);
    // the warm-up's events are read in order: when the last one published is heard, none is left to read
    await until(() => subs.every((s) => s.results.some((r) => r.data?.employeeChanged?.eventId === last)), 30_000);
    for (const s of subs) expect(s.error, JSON.stringify(s.error)).toBeNull();
    expect(streams()).toBe(1);

    stack.resetStats();
    const event = change("21");
    await stack.feed.publish(event);
    await until(() => subs.every((s) => s.results.some((r) => r.data?.employeeChanged?.eventId === event.id)), 30_000);
    expect(apiCalls(stack).byRoute).toEqual({ "GET /service-api/employees": 1 });
    const delivered = subs.map((s) => s.results.find((r) => r.data?.employeeChanged?.eventId === event.id));
    expect(new Set(delivered.map((d) => JSON.stringify(d))).size).toBe(1);
    expect(delivered[0].data.employeeChanged.employee.id).toBe("21");
  }, 120_000);
});
