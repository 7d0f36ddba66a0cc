import { createClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { RedisFeed, type DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { redisAvailable, useReplicasWithRedis } from "../helpers/replicas.js";

/**
 * Two replicas (gateway and subgraphs each) on a real Redis: a change published on either
 * replica's feed reaches every subscriber of both, once.
 */
describe.runIf(redisAvailable())("subscriptions across replicas", () => {
  const replicas = useReplicasWithRedis();
  const disposers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });

  it("a change published on one replica is delivered once to each subscriber on both", async () => {
    const bed = replicas.bed;
    const [a, b] = bed.replicas;
    await Promise.all(bed.replicas.map((r) => (r.feed as RedisFeed).subscribed()));
    expect(a!.feed).toBeInstanceOf(RedisFeed);
    const query = `subscription { employeeChanged(ids: ["30"]) { eventId employee { id givenName applicableJobPosition { department { name } } } } }`;
    const subscribers = [a!, b!, a!, b!].map((replica, i) => {
      const heard: any[] = [];
      if (i < 2) {
        const client = createClient({ url: replica.gateway.url.replace(/\/$/, "") + "/graphql/stream", retryAttempts: 0 });
        disposers.push(() => client.dispose());
        client.subscribe({ query }, { next: (r) => heard.push(r), error: () => {}, complete: () => {} });
      } else {
        const client = createWsClient({ url: replica.gateway.url.replace(/^http/, "ws").replace(/\/$/, "") + "/graphql", webSocketImpl: WebSocket, retryAttempts: 0 });
        disposers.push(() => client.dispose());
        client.subscribe({ query }, { next: (r) => heard.push(r), error: () => {}, complete: () => {} });
      }
      return heard;
    });
    // warm-up: until every subscriber hears (the subscriptions are set up asynchronously)
    let n = 0;
    const change = (): DirectoryChange => ({ id: `rep-${++n}`, topic: "employee.updated", occurredAt: "2026-06-15T10:00:00.000Z", resource: { type: "employee", id: "30" }, establishmentIds: ["1"], previousAttributes: null });
    for (let i = 0; i < 200 && !subscribers.every((h) => h.length > 0); i++) {
      await a!.feed.publish(change());
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 500));
    for (const heard of subscribers) heard.length = 0;
    // one change on replica b, then one on replica a
    const onB = change();
    await b!.feed.publish(onB);
    const onA = change();
    await a!.feed.publish(onA);
    // the same directory event published again (ingested by both replicas): heard once
    await b!.feed.publish(onA);
    const end = Date.now() + 8000;
    while (!subscribers.every((h) => h.length >= 2) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    for (const heard of subscribers) {
      expect(heard.map((r) => r.data.employeeChanged.eventId)).toEqual([onB.id, onA.id]);
      expect(typeof heard[0].data.employeeChanged.employee.applicableJobPosition.department.name).toBe("string");
    }
  }, 30_000);
});
