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
    const ids = (heard: any[]) => heard.map((r) => r.data.employeeChanged.eventId as string);
    // a change every subscriber hears marks a point in its stream: what came before it is behind.
    // It waits as long as the subscribers take (each event reads the employee again): a deadline of
    // its own would let a busy machine's slower subscriber keep its warm-up backlog into the assertions
    const heardBy = async (marker: DirectoryChange) => {
      while (!subscribers.every((h) => ids(h).includes(marker.id))) await new Promise((r) => setTimeout(r, 20));
    };
    for (let i = 0; i < 200 && !subscribers.every((h) => h.length > 0); i++) {
      await a!.feed.publish(change());
      await new Promise((r) => setTimeout(r, 30));
    }
    const warm = change();
    await a!.feed.publish(warm);
    await heardBy(warm);
    for (const heard of subscribers) heard.splice(0, ids(heard).indexOf(warm.id) + 1);
    // one change on replica b, then one on replica a
    const onB = change();
    await b!.feed.publish(onB);
    const onA = change();
    await a!.feed.publish(onA);
    // the same directory event published again (ingested by both replicas): heard once
    await b!.feed.publish(onA);
    // a last change: once every subscriber has heard it, a repeat of onA would have come before it
    const last = change();
    await a!.feed.publish(last);
    await heardBy(last);
    for (const heard of subscribers) {
      expect(ids(heard)).toEqual([onB.id, onA.id, last.id]);
      expect(typeof heard[0].data.employeeChanged.employee.applicableJobPosition.department.name).toBe("string");
    }
  }, 180_000);
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
    // a write every subscriber hears marks a point in its stream: what came before it is behind.
    // An event is told by its previous name (the employee is read when it is delivered, so a
    // late event of an earlier write shows the newest name)
    const previous = (heard: any[]) => heard.map((r) => r.data.employeeChanged.previousAttributes?.givenName as string);
    const heardAfter = async (name: string) => {
      for (const end = Date.now() + 20_000; !subscribers.every((h) => previous(h).includes(name)) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    };
    await write("Mark");
    await write("Mark2");
    await heardAfter("Mark");
    for (const heard of subscribers) heard.splice(0, previous(heard).indexOf("Mark") + 1);

    await write("Solveig");
    // both replicas poll the same events: a second delivery of Solveig's would come before the next write's
    await write("Last");
    await heardAfter("Solveig");
    const eventIds = subscribers.map((heard) => {
      expect(previous(heard), JSON.stringify(errors)).toEqual(["Mark2", "Solveig"]);
      const payload = heard[0].data.employeeChanged;
      expect(typeof payload.employee.applicableJobPosition.department.name).toBe("string");
      return payload.eventId;
    });
    expect(new Set(eventIds).size).toBe(1);
  }, 60_000);
});
