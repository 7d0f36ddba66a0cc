import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Logger } from "../../platform/log.js";
import { SharedState } from "../../platform/shared-state.js";
import { createChangeFeed, type DirectoryChange, InProcessFeed, RedisFeed } from "../../subgraphs/shared/events/index.js";
import { parseChange } from "../../subgraphs/shared/events/redis-feed.js";
import { redisAvailable, type RunningRedis, startRedis } from "../helpers/replicas.js";

const logger = new Logger("test", "error");
const change = (id: string, over: Partial<DirectoryChange> = {}): DirectoryChange => ({
  id,
  topic: "employee.updated",
  occurredAt: "2026-11-28T10:00:00.000Z",
  resource: { type: "employee", id: "10" },
  establishmentIds: ["1"],
  previousAttributes: { givenName: "Ann" },
  ...over,
});
const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("change feed without Redis", () => {
  it("is the in-process feed", () => {
    expect(createChangeFeed(new SharedState({ url: null, prefix: "", timeoutMs: 200 }, logger))).toBeInstanceOf(InProcessFeed);
  });
});

describe("parseChange: what Redis hands back is checked", () => {
  it("keeps a well-formed change and only its fields", () => {
    expect(parseChange(JSON.stringify({ ...change("a"), extra: 1 }))).toEqual(change("a"));
  });
  it.each([
    ["not JSON", "{"],
    ["an array", "[]"],
    ["no id", JSON.stringify({ ...change("a"), id: undefined })],
    ["a numeric resource id", JSON.stringify({ ...change("a"), resource: { type: "employee", id: 10 } })],
    ["a bad instant", JSON.stringify({ ...change("a"), occurredAt: "yesterday" })],
    ["establishment ids not strings", JSON.stringify({ ...change("a"), establishmentIds: [1] })],
    ["previous attributes an array", JSON.stringify({ ...change("a"), previousAttributes: [] })],
  ])("drops %s", (_what, text) => {
    expect(parseChange(text)).toBeNull();
  });
});

describe.runIf(redisAvailable())("change feed across replicas on a real Redis", () => {
  let redis: RunningRedis;
  const states: SharedState[] = [];
  const feeds: RedisFeed[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    for (let i = 0; i < 2; i++) {
      const state = new SharedState({ url: redis.url, prefix: "feedtest:", timeoutMs: 1000 }, logger);
      states.push(state);
      const feed = createChangeFeed(state, logger) as RedisFeed;
      expect(feed).toBeInstanceOf(RedisFeed);
      feeds.push(feed);
    }
    await Promise.all(feeds.map((f) => f.subscribed()));
    await until(() => states.every((s) => s.healthy));
  });
  afterAll(async () => {
    for (const f of feeds) await f.close();
    for (const s of states) await s.close();
    await redis?.close();
  });

  it("a change published on either replica reaches every listener of both, once", async () => {
    const heard: string[][] = [[], [], [], []];
    const stops = [0, 1, 2, 3].map((i) => feeds[i % 2]!.listen((c) => heard[i]!.push(c.id)));
    await feeds[0]!.publish(change("one"));
    await feeds[1]!.publish(change("two"));
    // the same directory event ingested on both replicas is still heard once
    await feeds[1]!.publish(change("one"));
    await feeds[0]!.publish(change("three"));
    await until(() => heard.every((h) => h.includes("three")));
    await new Promise((r) => setTimeout(r, 100));
    for (const h of heard) expect(h).toEqual(["one", "two", "three"]);
    stops.forEach((stop) => stop());
  });

  it("drops a message on the channel that is not a change, and keeps delivering", async () => {
    const heard: DirectoryChange[] = [];
    const stop = feeds[1]!.listen((c) => heard.push(c));
    const raw = new Redis(redis.url);
    await raw.publish("feedtest:changes", JSON.stringify({ ...change("bad"), resource: null }));
    await raw.publish("feedtest:changes", "not json");
    await raw.publish("feedtest:changes", JSON.stringify(change("good")));
    raw.disconnect();
    await until(() => heard.length > 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(heard.map((c) => c.id)).toEqual(["good"]);
    stop();
  });

  it("a replica whose SUBSCRIBE is not answered in time (a starved or stuck Redis) keeps trying, and hears every change once it is in place", async () => {
    redis.freeze();
    const state = new SharedState({ url: redis.url, prefix: "feedtest:", timeoutMs: 200 }, logger);
    const late = createChangeFeed(state, logger) as RedisFeed;
    try {
      // several command timeouts go by before Redis answers again
      await new Promise((r) => setTimeout(r, 800));
      redis.thaw();
      await late.subscribed();
      const heard: string[][] = [[], [], []];
      const stops = [late, ...feeds].map((feed, i) => feed.listen((c) => heard[i]!.push(c.id)));
      await until(() => states.every((s) => s.healthy), 5000);
      await feeds[0]!.publish(change("after-the-freeze"));
      // the late replica hears it; so do the others, before the next test listens
      await until(() => heard.every((h) => h.includes("after-the-freeze")), 5000);
      stops.forEach((stop) => stop());
    } finally {
      redis.thaw();
      await late.close();
      await state.close();
    }
  });

  it("with Redis down a publish does not fail: the change reaches this replica; the feed resumes when Redis is back", async () => {
    const heard: string[] = [];
    const other: string[] = [];
    const stops = [feeds[0]!.listen((c) => heard.push(c.id)), feeds[1]!.listen((c) => other.push(c.id))];
    await redis.kill();
    await until(() => states.every((s) => !s.healthy));
    await expect(feeds[0]!.publish(change("while-down"))).resolves.toBeUndefined();
    expect(heard).toEqual(["while-down"]);
    await redis.restart();
    await until(() => states.every((s) => s.healthy), 8000);
    // resubscribed by itself: publish until heard (the subscriber may reconnect a little later)
    for (let i = 0; !other.includes(`after-${i - 1}`) && i < 50; i++) {
      await feeds[0]!.publish(change(`after-${i}`));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(other.some((id) => id.startsWith("after-"))).toBe(true);
    expect(other).not.toContain("while-down");
    stops.forEach((stop) => stop());
  }, 20_000);
});
