import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDirectory, type RunningDirectory } from "../../directory/server.js";
import { Logger } from "../../platform/log.js";
import { processMetrics } from "../../platform/metrics.js";
import { RedisFeed, type DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { EventIngestion } from "../../subgraphs/shared/events/ingest.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { EtagCache } from "../../subgraphs/shared/upstream/etag-cache.js";
import { redisAvailable, startRedis, type RunningRedis } from "../helpers/replicas.js";
import { loadSubgraphModule } from "../helpers/stack.js";
import { AUTH } from "../directory/legacy-helpers.js";

/**
 * DIRECTORY_EVENTS=poll on a real Redis: the resume position survives a restart (no event lost,
 * none twice), and two ingesting replicas handle each event once.
 */

const silent = new Logger("events", "silent");
let redis: RunningRedis;
let directory: RunningDirectory;

/** one process: its upstream client, its feed's changes heard, its people subgraph (which ingests) */
interface Replica {
  upstream: Upstream;
  heard: DirectoryChange[];
  people: RunningSubgraph;
  close(): Promise<void>;
}

function config(extra: Record<string, string> = {}) {
  return loadUpstreamConfig({
    DIRECTORY_BASE_URL: directory.url,
    DIRECTORY_REQUEST_BUDGET: "off",
    DIRECTORY_CLIENT_ID: "demo-client",
    DIRECTORY_CLIENT_SECRET: "demo-secret",
    DIRECTORY_API_KEY: "demo-api-key",
    REDIS_URL: redis.url,
    REDIS_TIMEOUT_MS: "2000",
    DIRECTORY_EVENTS: "poll",
    DIRECTORY_EVENTS_POLL_MS: "20",
    ...extra,
  });
}

async function startReplica(): Promise<Replica> {
  const upstream = new Upstream(config(), silent);
  const heard: DirectoryChange[] = [];
  upstream.changes.listen((change) => heard.push(change));
  const people = await startSubgraphModule(await loadSubgraphModule("people"), { upstream, port: 0, logger: silent });
  return {
    upstream,
    heard,
    people,
    async close() {
      await people.close();
      await upstream.close();
    },
  };
}

async function putUser(id: number, lastName: string): Promise<string> {
  const res = await fetch(`${directory.url}/api/v3/users/${id}`, { method: "PUT", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify({ lastName }) });
  expect(res.status).toBe(200);
  await res.text();
  return directory.company.events.at(-1)!.id;
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const available = redisAvailable();

describe.runIf(available)("DIRECTORY_EVENTS=poll on Redis", () => {
  beforeAll(async () => {
    redis = await startRedis();
    directory = await startDirectory({ limits: { requests: 0 }, employees: 40, today: "2026-06-15" });
  });
  afterAll(async () => {
    await directory?.close();
    await redis?.close();
  });

  it("a restarted ingestion resumes where it stopped: the changes made while it was down arrive, each once", async () => {
    const first = await startReplica();
    // the first pass sets the position at the newest event: nothing before it is replayed
    await until(() => directory.stats.snapshot().byRoute["GET /service-api/events"]! >= 2, "the first passes");
    const before = await putUser(3, "Before");
    await until(() => first.heard.some((c) => c.id === before), "the change before the stop");
    expect(first.heard.map((c) => c.id)).toEqual([before]);
    await first.close();

    const whileDown = [await putUser(4, "Down1"), await putUser(5, "Down2"), await putUser(4, "Down3")];
    const second = await startReplica();
    try {
      await until(() => whileDown.every((id) => second.heard.some((c) => c.id === id)), "the changes made while down");
      const after = await putUser(6, "After");
      await until(() => second.heard.some((c) => c.id === after), "the change after the restart");
      expect(second.heard.map((c) => c.id)).toEqual([...whileDown, after]);
    } finally {
      await second.close();
    }
  });

  it("two ingesting replicas publish each event once between them, and each replica hears it once", async () => {
    const replicas = [await startReplica(), await startReplica()];
    try {
      const received = await pollReceived();
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await putUser(10 + (i % 4), `Twice${i}`));
      const heardBy = (r: (typeof replicas)[number]) => r.heard.map((c) => c.id).filter((id) => ids.includes(id));
      await until(() => replicas.every((r) => ids.every((id) => heardBy(r).includes(id))), "every change on both replicas");
      await new Promise((r) => setTimeout(r, 200));
      // published once: one replica claimed each event (the feed on Redis would hide a second publish)
      expect((await pollReceived()) - received).toBe(ids.length);
      // heard once on each replica, through the replicas' feed
      for (const r of replicas) expect(heardBy(r).sort()).toEqual([...ids].sort());
    } finally {
      for (const r of replicas) await r.close();
    }
  });

  it("the same event taken in by two replicas at once is published by one of them", async () => {
    const upstreams = [new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent), new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent)];
    try {
      await until(() => upstreams.every((u) => u.shared.healthy), "Redis connected");
      const heard: string[] = [];
      const ingestions = upstreams.map((u) => {
        const feed = u.changes;
        feed.listen((c) => heard.push(c.id));
        return new EventIngestion(u, feed, { mode: "poll", publicUrl: null, secret: null, pollMs: 1000 }, silent);
      });
      // both feeds subscribed on Redis before the one publish (pub/sub keeps nothing for a late subscriber)
      await Promise.all(upstreams.map((u) => (u.changes as RedisFeed).subscribed()));
      const event = { id: "777001", type: "event", topic: "employment.updated", occurredAt: new Date().toISOString(), data: { id: "8", type: "employment", url: "http://x/8" }, businessEstablishment: { id: "2" }, previousAttributes: {} };
      const outcomes = await Promise.all(ingestions.map((i) => i.ingest(event, "poll")));
      expect(outcomes.sort()).toEqual(["duplicate", "received"]);
      // the one publish reaches both replicas' feeds, once each
      await until(() => heard.length === 2, "both replicas hearing it");
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual(["777001", "777001"]);
    } finally {
      for (const u of upstreams) await u.close();
    }
  });

  it("a resume position Redis answers that is not one the ingestion writes is none", async () => {
    const client = new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent);
    try {
      await until(() => client.shared.healthy, "Redis connected");
      for (const bad of ["0 OR 1", '{"page":"a b","last":"1"}', '{"page":null,"last":"x"}', '["1"]', '{"page":null}']) {
        await client.shared.redis!.set("events:position", bad);
        const ingestion = new EventIngestion(client, client.changes, { mode: "poll", publicUrl: null, secret: null, pollMs: 1000 }, silent);
        // no position: the pass starts at the newest event and replays none
        expect(await ingestion.pollOnce(), bad).toBe(0);
        expect(JSON.parse((await client.shared.redis!.get("events:position"))!), bad).toEqual({ page: null, last: newestKept() });
      }
    } finally {
      await client.close();
    }
  });

  it("pages with the documented paging only: a first start past several pages begins at the newest event, and what follows arrives once each, across page boundaries and replicas", async () => {
    const clients = [new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent), new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent)];
    try {
      await until(() => clients.every((c) => c.shared.healthy), "Redis connected");
      const [a, b] = clients.map((c) => new EventIngestion(c, c.changes, { mode: "poll", publicUrl: null, secret: null, pollMs: 1000 }, silent)) as [EventIngestion, EventIngestion];
      const redisClient = clients[0]!.shared.redis!;
      await redisClient.del("events:position");
      // more than two pages of 100 kept: the newest is found by the page index and the cursor of the last page
      while (keptIds().length <= 230) await putUser(20 + (keptIds().length % 10), `Many${keptIds().length}`);
      const calls = () => directory.stats.snapshot().byRoute["GET /service-api/events"] ?? 0;
      const before = calls();
      expect(await a.pollOnce()).toBe(0);
      expect(calls() - before).toBe(3);
      const position = JSON.parse((await redisClient.get("events:position"))!);
      expect(position).toEqual({ page: expect.any(String), last: newestKept() });
      const ttl = await redisClient.ttl("events:position");
      expect(ttl).toBeGreaterThan(60 * 86_400);
      expect(ttl).toBeLessThanOrEqual(62 * 86_400);

      // 150 events later, read in turns by the two replicas: each published once, in order, none older
      const received = await pollReceived();
      const written: string[] = [];
      for (let i = 0; i < 150; i++) written.push(await putUser(30 + (i % 5), `Paged${i}`));
      let found = 0;
      for (let turn = 0; ; turn++) {
        const n = await (turn % 2 === 0 ? b : a).pollOnce();
        found += n;
        if (n === 0) break;
      }
      expect(found).toBe(150);
      expect((await pollReceived()) - received).toBe(150);
      const heard: string[] = [];
      clients[1]!.changes.listen((c) => heard.push(c.id));
      const more = [await putUser(36, "Last1"), await putUser(37, "Last2")];
      expect(await a.pollOnce()).toBe(2);
      expect(await b.pollOnce()).toBe(0);
      await until(() => heard.length >= 2, "the last changes on the other replica");
      expect(heard).toEqual(more);
      expect(JSON.parse((await redisClient.get("events:position"))!).last).toBe(more.at(-1));
    } finally {
      for (const c of clients) await c.close();
    }
  });

  it("a cursor the directory refuses, or an id alone (an earlier version's position), resumes from the first kept event without replaying", async () => {
    const client = new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent);
    try {
      await until(() => client.shared.healthy, "Redis connected");
      const ingestion = new EventIngestion(client, client.changes, { mode: "poll", publicUrl: null, secret: null, pollMs: 1000 }, silent);
      await putUser(39, "Kept");
      for (const form of ["forged cursor", "id alone"]) {
        const kept = form === "id alone" ? newestKept()! : JSON.stringify({ page: "eyJzIjoiaWQifQ.forged", last: newestKept() });
        await client.shared.redis!.set("events:position", kept);
        const received = await pollReceived();
        expect(await ingestion.pollOnce(), `${kept} ${JSON.stringify(keptIds().slice(-3))}`).toBe(0);
        const id = await putUser(38, `Resumed${kept.length}`);
        expect(await ingestion.pollOnce()).toBe(1);
        expect((await pollReceived()) - received).toBe(1);
        expect(JSON.parse((await client.shared.redis!.get("events:position"))!).last).toBe(id);
      }
    } finally {
      await client.close();
    }
  });

  it("a change forgotten on one replica drops the ETag entries every replica reads from Redis, and only entry keys", async () => {
    const upstreams = [new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent), new Upstream(config({ DIRECTORY_EVENTS: "off" }), silent)];
    try {
      await until(() => upstreams.every((u) => u.shared.healthy), "Redis connected");
      const [a, b] = upstreams.map((u) => new EtagCache(100, undefined, u.shared)) as [EtagCache, EtagCache];
      const changed = EtagCache.key("service", "GET", `${directory.url}/service-api/employees?id=7`);
      const kept = EtagCache.key("service", "GET", `${directory.url}/service-api/employees?id=9`);
      await b.remember(changed, 'W/"1"', "{}");
      await b.remember(kept, 'W/"2"', "{}");
      // something that is no entry key, slipped into a tag's set, is left alone
      const tagSets = await upstreams[0]!.shared.redis!.keys("*etag-tag:*");
      expect(tagSets.length).toBeGreaterThan(0);
      await upstreams[0]!.shared.redis!.set("apq:precious", "x");
      for (const set of tagSets) await upstreams[0]!.shared.redis!.sadd(set.slice("directory-graph:".length), "apq:precious");

      // the change heard by replica A only (its feed): B reads from Redis, where it is gone
      const heard = upstreams[0]!.changes;
      heard.listen((c) => void a.forgetChanged(c.resource.type, c.resource.id));
      await heard.publish({ id: "888001", topic: "employee.updated", occurredAt: new Date().toISOString(), resource: { type: "employee", id: "7" }, establishmentIds: [], previousAttributes: {} });
      await new Promise((r) => setTimeout(r, 50));
      expect(await b.get(changed)).toBeUndefined();
      expect(await b.get(kept)).toEqual({ etag: 'W/"2"', text: "{}" });
      expect(await upstreams[0]!.shared.redis!.get("apq:precious")).toBe("x");
    } finally {
      for (const u of upstreams) await u.close();
    }
  });
});

/** the ids of the events the directory still lists (kept 2 months), oldest first */
function keptIds(): string[] {
  const cutoff = new Date(`${directory.company.today}T23:59:59.999Z`);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - 2);
  return directory.company.events.filter((e) => Date.parse(e.occurredAt) >= cutoff.getTime()).map((e) => e.id);
}

const newestKept = () => keptIds().at(-1) ?? null;

/** events the poll ingestion of this process published so far (both replicas of a test run here) */
async function pollReceived(): Promise<number> {
  const { values } = await processMetrics().directoryEvents.get();
  return values.find((v) => v.labels.mode === "poll" && v.labels.outcome === "received")?.value ?? 0;
}
