import "reflect-metadata";
import { createClient, type Client } from "graphql-sse";
import { startRedis, startReplicas } from "../harness/replicas.js";
import type { DirectoryChange } from "../subgraphs/shared/events/index.js";
import { LIMITS_OFF } from "./fairness.js";
import { SUBSCRIPTIONS, writeResults } from "./results.js";

/**
 * `npm run bench:subscriptions`: event-to-subscriber latency of the subscriptions (docs/graph.md#subscriptions)
 * for 1, 100 and 1000 subscribers spread over two replicas (gateway and subgraphs each, in this
 * process) on a real Redis, and the memory each subscriber costs. Latency runs from the publish on a
 * replica's change feed (alternately the one, then the other) to the event's arrival at each
 * subscriber over GraphQL over SSE, with `employee { id givenName }` read per event; p50 and p99 over
 * every (subscriber, event). Once the events' ingestion lands, the figure to add is the directory's
 * change to the feed's publish. Memory: heap after GC per subscriber open, client and server sides
 * together (one process: an upper bound of the server's share).
 *
 * Environment: BENCH_SUBSCRIBERS (default `1,100,1000`), BENCH_SUBSCRIPTION_EVENTS (events per
 * count, default 20), BENCH_WRITE=0 (print only).
 */

const COUNTS = (process.env.BENCH_SUBSCRIBERS ?? "1,100,1000").split(",").map(Number);
const EVENTS = Number(process.env.BENCH_SUBSCRIPTION_EVENTS ?? "20");
const QUERY = `subscription Bench($ids: [ID!]) { employeeChanged(ids: $ids) { eventId employee { id givenName } } }`;

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
  const bed = await startReplicas({ count: 2, redisUrl: redis.url, gatewayEnv: { ...LIMITS_OFF, GATEWAY_SUBSCRIPTIONS_PER_CLIENT: "100000", LOG_LEVEL: "error" } });
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
        client.subscribe({ query: QUERY, variables: { ids: ["30"] } }, { next: (r) => heard.set((r.data as any)?.employeeChanged?.eventId, performance.now()), error: () => {}, complete: () => {} });
        clients.push(client);
        arrivals.push(heard);
      }
      const change = (): DirectoryChange => ({ id: `bench-${++sequence}`, topic: "employee.updated", occurredAt: new Date().toISOString(), resource: { type: "employee", id: "30" }, establishmentIds: ["1"], previousAttributes: null });
      // every subscriber set up: each has heard a warm-up event
      for (let i = 0; i < 600 && !arrivals.every((h) => h.size > 0); i++) {
        await bed.replicas[0]!.feed.publish(change());
        await sleep(50);
      }
      await sleep(300);
      const perSubscriber = (heap() - before) / count;
      const samples: number[] = [];
      let missed = 0;
      for (let e = 0; e < EVENTS; e++) {
        const event = change();
        const published = performance.now();
        await bed.replicas[e % 2]!.feed.publish(event);
        const deadline = performance.now() + 10_000;
        while (!arrivals.every((h) => h.has(event.id)) && performance.now() < deadline) await sleep(2);
        for (const heard of arrivals) {
          const at = heard.get(event.id);
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
    "Two replicas on a real Redis, subscribers split between their gateways over GraphQL over SSE; latency from the publish on a replica's change feed to the event at the subscriber (the directory's change to the publish comes on top once the ingestion lands).",
    "",
    "| subscribers | events | p50 ms | p99 ms | missed | heap KiB per subscriber |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
  console.log(markdown);
  if (process.env.BENCH_WRITE !== "0") await writeResults(markdown, undefined, SUBSCRIPTIONS);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
