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

/**
 * The same end to end, nothing published by hand: both replicas' people subgraphs poll the
 * directory's events (sharing the position and the ids seen on Redis); a legacy write through
 * replica A's gateway reaches a subscriber on A and one on B, over each transport, once each.
 */
describe.runIf(redisAvailable())("a legacy write across replicas", () => {
  const replicas = useReplicasWithRedis({ env: { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "20" } });
  const disposers: Array<() => unknown> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });

  it("an updateLegacyUser through replica A is heard once by each subscriber on A and on B", async () => {
    const [a, b] = replicas.bed.replicas;
    // both replicas hear the feed, and the ingestion has passed once (its first pass starts at the newest event)
    await Promise.all(replicas.bed.replicas.map((r) => (r.feed as RedisFeed).subscribed()));
    const polls = () => replicas.bed.directory.stats.snapshot().byRoute["GET /service-api/events"] ?? 0;
    for (const end = Date.now() + 10_000; polls() < 2 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    const query = `subscription { employeeChanged(ids: ["31"]) { eventId previousAttributes employee { givenName applicableJobPosition { department { name } } } } }`;
    const errors: unknown[] = [];
    const subscribers = [a!, b!, a!, b!].map((replica, i) => {
      const heard: any[] = [];
      const sink = { next: (r: any) => heard.push(r), error: (e: unknown) => errors.push(e instanceof Error ? e.message : e), complete: () => {} };
      if (i < 2) {
        const client = createClient({ url: replica.gateway.url.replace(/\/$/, "") + "/graphql/stream", retryAttempts: 0 });
        disposers.push(() => client.dispose());
        client.subscribe({ query }, sink);
      } else {
        const client = createWsClient({ url: replica.gateway.url.replace(/^http/, "ws").replace(/\/$/, "") + "/graphql", webSocketImpl: WebSocket, retryAttempts: 0 });
        disposers.push(() => client.dispose());
        client.subscribe({ query }, sink);
      }
      return heard;
    });
    const write = async (name: string) => {
      const res = await a!.query(`mutation($name: String!) { updateLegacyUser(id: "31", input: { firstName: $name }) { __typename } }`, { name });
      expect(res.data?.updateLegacyUser?.__typename, JSON.stringify(res.errors)).toBe("Employee");
    };
    const waitAll = async (count: number, ms: number) => {
      const end = Date.now() + ms;
      while (!subscribers.every((h) => h.length >= count) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    };
    // warm-up: writes until every subscriber hears (the subscriptions are set up asynchronously)
    for (let i = 0; i < 6 && !subscribers.every((h) => h.length > 0); i++) {
      await write(`Warm${i}`);
      await waitAll(1, 2500);
    }
    expect(subscribers.map((h) => h.length).every((n) => n > 0), `every subscriber heard the warm-up: ${JSON.stringify({ heard: subscribers.map((h) => h.length), errors, polls: polls() })}`).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    for (const heard of subscribers) heard.length = 0;

    await write("Solveig");
    await waitAll(1, 8000);
    // both replicas poll the same events: a second delivery would come in this pause
    await new Promise((r) => setTimeout(r, 700));
    const eventIds = subscribers.map((heard) => {
      expect(heard.length).toBe(1);
      const payload = heard[0].data.employeeChanged;
      expect(payload.employee.givenName).toBe("Solveig");
      expect(typeof payload.employee.applicableJobPosition.department.name).toBe("string");
      return payload.eventId;
    });
    expect(new Set(eventIds).size).toBe(1);
  }, 45_000);
});
