import "reflect-metadata";
import { createClient, type Client } from "graphql-sse";
import { startRedis, startReplicas } from "../harness/replicas.js";
import type { DirectoryChange } from "../subgraphs/shared/events/index.js";
import { LIMITS_OFF } from "./fairness.js";
import { SUBSCRIPTIONS, writeResults } from "./results.js";

/**
 * `npm run bench:subscriptions`: event-to-subscriber latency of the subscriptions (docs/graph.md#subscriptions)
 * for 1, 100 and 1000 subscribers spread over two replicas (gateway and subgraphs each, in this
 * process) on a real Redis, and the memory each subscriber costs. Latency runs from the directory's
 * change (a legacy `PUT /api/v3/users/30` at the directory, each renaming the user) through both
 * replicas' ingestion of its events by poll (DIRECTORY_EVENTS_POLL_MS from BENCH_EVENTS_POLL_MS,
 * default 50), the change feed on Redis and the gateways' node reads, to the event's arrival at each
 * subscriber over GraphQL over SSE with `employee { id givenName }`; p50 and p99 over every
 * (subscriber, event). BENCH_SUBSCRIPTION_FROM=feed measures from a publish on a replica's change
 * feed instead (alternately the one, then the other), the ingestion left out. Memory: heap after GC
 * per subscriber open, client and server sides together (one process: an upper bound of the
 * server's share).
 *
 * Environment: BENCH_SUBSCRIBERS (default `1,100,1000`), BENCH_SUBSCRIPTION_EVENTS (events per
 * count, default 20), BENCH_SUBSCRIPTION_FROM (`directory`, default, or `feed`),
 * BENCH_EVENTS_POLL_MS, BENCH_WRITE=0 (print only).
 */

const COUNTS = (process.env.BENCH_SUBSCRIBERS ?? "1,100,1000").split(",").map(Number);
const EVENTS = Number(process.env.BENCH_SUBSCRIPTION_EVENTS ?? "20");
const FROM = process.env.BENCH_SUBSCRIPTION_FROM === "feed" ? "feed" : "directory";
const POLL_MS = process.env.BENCH_EVENTS_POLL_MS ?? "50";
const QUERY = `subscription Bench($ids: [ID!]) { employeeChanged(ids: $ids) { eventId employee { id givenName } } }`;
/** the directory's legacy API as the demo's service application calls it */
const LEGACY_AUTH = { authorization: "service application=demo-api-key" };

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const redis = await startRedis();
  const events: Record<string, string> = FROM === "directory" ? { DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: POLL_MS } : {};
  const bed = await startReplicas({ count: 2, redisUrl: redis.url, env: events, gatewayEnv: { ...LIMITS_OFF, GATEWAY_SUBSCRIPTIONS_PER_CLIENT: "100000", LOG_LEVEL: "error" } });
  const rows: string[] = [];
  let sequence = 0;
  try {
    for (const count of COUNTS) {
      const before = heap();
      const clients: Client[] = [];
      const arrivals: Array<Map<string, number>> = [];
      for (let i = 0; i < count; i++) {
        const replica = bed.replicas[i % 2]!;
        const client = createClient({ url: replica.gateway.url.replace(/\/$/, "") + "/graphql/stream", retryAttempts: 0 });
        const heard = new Map<string, number>();
        client.subscribe({ query: QUERY, variables: { ids: ["30"] } }, { next: (r) => heard.set(keyOf((r.data as any)?.employeeChanged), performance.now()), error: () => {}, complete: () => {} });
        clients.push(client);
        arrivals.push(heard);
      }
      const change = (): DirectoryChange => ({ id: `bench-${++sequence}`, topic: "employee.updated", occurredAt: new Date().toISOString(), resource: { type: "employee", id: "30" }, establishmentIds: ["1"], previousAttributes: null });
      /** makes one change (at the directory, or on replica `e % 2`'s feed) and answers the key its subscribers hear it by */
      const fire = async (e: number): Promise<string> => {
        if (FROM === "feed") {
          const event = change();
          await bed.replicas[e % 2]!.feed.publish(event);
          return event.id;
        }
        const name = `Bench${++sequence}`;
        const res = await fetch(`${bed.directory.url}/api/v3/users/30`, { method: "PUT", headers: { ...LEGACY_AUTH, "content-type": "application/json" }, body: JSON.stringify({ firstName: name }) });
        if (res.status !== 200) throw new Error(`legacy PUT: ${res.status} ${await res.text()}`);
        await res.text();
        return name;
      };
      // every subscriber set up: each has heard a warm-up event
      for (let i = 0; i < 600 && !arrivals.every((h) => h.size > 0); i++) {
        await fire(0);
        await sleep(FROM === "feed" ? 50 : 300);
      }
      await sleep(300);
      const perSubscriber = (heap() - before) / count;
      const samples: number[] = [];
      let missed = 0;
      for (let e = 0; e < EVENTS; e++) {
        const published = performance.now();
        const key = await fire(e);
        const deadline = performance.now() + 10_000;
        while (!arrivals.every((h) => h.has(key)) && performance.now() < deadline) await sleep(2);
        for (const heard of arrivals) {
          const at = heard.get(key);
          if (at === undefined) missed++;
          else samples.push(at - published);
        }
      }
      samples.sort((a, b) => a - b);
      rows.push(`| ${count} | ${EVENTS} | ${percentile(samples, 50).toFixed(1)} | ${percentile(samples, 99).toFixed(1)} | ${missed} | ${(perSubscriber / 1024).toFixed(1)} |`);
      console.error(rows.at(-1));
      for (const client of clients) client.dispose();
      await sleep(500);
    }
  } finally {
    await bed.close();
    await redis.close();
  }
  const markdown = [
    `### Subscriptions (Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
    "",
    FROM === "directory"
      ? `Two replicas on a real Redis, subscribers split between their gateways over GraphQL over SSE; latency from the directory's change (a legacy PUT) to the event at the subscriber: both replicas poll the directory's events (DIRECTORY_EVENTS_POLL_MS=${POLL_MS}), the change feed on Redis, the node read per event.`
      : "Two replicas on a real Redis, subscribers split between their gateways over GraphQL over SSE; latency from the publish on a replica's change feed to the event at the subscriber (the directory's change to the publish left out).",
    "",
    "| subscribers | events | p50 ms | p99 ms | missed | heap KiB per subscriber |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
  console.log(markdown);
  if (process.env.BENCH_WRITE !== "0") await writeResults(markdown, undefined, SUBSCRIPTIONS);
}

/** what a subscriber's event is known by: the event id published (feed), or the name written (directory: its event id is the directory's) */
function keyOf(payload: { eventId?: string; employee?: { givenName?: string } } | undefined): string {
  return (FROM === "feed" ? payload?.eventId : payload?.employee?.givenName) ?? "";
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
