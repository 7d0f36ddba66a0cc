import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOperations, TOUR_VARIABLES } from "../../gateway/operations.js";
import { sha256 } from "../../gateway/trusted-documents.js";
import { processMetrics } from "../../platform/metrics.js";
import { counterValue } from "../../harness/prometheus.js";
import { directoryToken } from "../helpers/stack.js";
import { redisAvailable, startRedis, startReplicas, useReplicasWithRedis, type ReplicaBed } from "../helpers/replicas.js";

/**
 * Two replicas of each subgraph and of the gateway over one directory, sharing a real Redis
 * (docs/deploying.md#running-several-replicas): APQ, the ETag cache, the upstream request budget and the
 * per-client limits hold across replicas, and Redis killed mid-load fails no operation.
 */

const withRedis = redisAvailable();

async function faults(bed: ReplicaBed, settings: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${bed.directory.url}/_admin/faults`, {
    method: settings ? "PUT" : "DELETE",
    ...(settings ? { headers: { "content-type": "application/json" }, body: JSON.stringify(settings) } : {}),
  });
  expect(res.status).toBeLessThan(300);
}

/** the directory's API requests from now on (the token endpoint's apart), with the time each arrived */
function arrivals(bed: ReplicaBed): number[] {
  const times: number[] = [];
  const record = bed.directory.stats.record.bind(bed.directory.stats);
  bed.directory.stats.record = (route: string) => {
    if (route !== "POST /connect/token") times.push(performance.now());
    record(route);
  };
  return times;
}

const DOCUMENT = `query Names($id: ID!) { employee(id: $id) { id givenName familyName } }`;

describe.skipIf(!withRedis)("two replicas sharing Redis", () => {
  const replicas = useReplicasWithRedis({
    env: { DIRECTORY_AUTH: "forward", REDIS_KEY_PREFIX: "test-forward:" },
    gatewayEnv: { GATEWAY_RATE_LIMIT: "10", GATEWAY_WRITE_RATE_LIMIT: "2", GATEWAY_TRUSTED_PROXIES: "127.0.0.1" },
  });
  let bed: ReplicaBed;
  beforeAll(() => {
    bed = replicas.bed;
  });
  const [a, b] = [0, 1];
  let token: string;
  let other: string;
  beforeAll(async () => {
    token = await directoryToken(bed.directory.url);
    other = await directoryToken(bed.directory.url);
  });

  it("an APQ hash registered on gateway A is served by gateway B", async () => {
    const hash = sha256(DOCUMENT);
    const headers = { authorization: `Bearer ${token}` };
    const registered = await postApq(bed.replicas[a]!.gateway.url, { query: DOCUMENT, variables: { id: "10" }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, headers);
    expect(registered.errors).toBeUndefined();
    const served = await postApq(bed.replicas[b]!.gateway.url, { variables: { id: "11" }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, headers);
    expect(served.errors).toBeUndefined();
    expect(served.data.employee.id).toBe("11");
  });

  it("a read validated on subgraph replica A is a 304 on replica B for the same caller, never for another", async () => {
    const query = `{ employee(id: "12") { id givenName } }`;
    const [ua, ub] = [bed.replicas[a]!.upstream, bed.replicas[b]!.upstream];
    const before = { a: ua.totals.notModified, b: ub.totals.notModified };
    const first = await postApq(bed.replicas[a]!.subgraphs.people.url, { query }, { authorization: `Bearer ${token}` });
    expect(first.errors).toBeUndefined();
    const same = await postApq(bed.replicas[b]!.subgraphs.people.url, { query }, { authorization: `Bearer ${token}` });
    expect(same.data).toEqual(first.data);
    expect(ub.totals.notModified - before.b).toBe(1);
    const another = await postApq(bed.replicas[b]!.subgraphs.people.url, { query }, { authorization: `Bearer ${other}` });
    expect(another.data).toEqual(first.data);
    // the other caller's read was a plain 200: no entry of the first caller answered it
    expect(ub.totals.notModified - before.b).toBe(1);
    expect(ua.totals.notModified).toBe(before.a);
  });

  it("the per-client limits hold across replicas and do not touch another client", async () => {
    const query = `{ __typename }`;
    const from = (address: string) => ({ "x-forwarded-for": address });
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await postRaw(bed.replicas[i % 2]!.gateway.url, { query }, from("203.0.113.7")));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(2);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(0);
    expect(refused[0]!.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "operations", value: 10 });
    expect(refused[0]!.body.errors[0].message).toMatch(/at most 10 operations a minute/);
    // another client, on either replica, is served
    const otherClient = await postRaw(bed.replicas[b]!.gateway.url, { query }, from("203.0.113.8"));
    expect(otherClient.status).toBe(200);
  });

  it("writes are counted apart, with their own lower limit", async () => {
    const write = `mutation { updateAxisSection(id: "2", input: { description: "limited" }) { __typename } }`;
    const from = { "x-forwarded-for": "203.0.113.9", authorization: "" };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await postRaw(bed.replicas[i % 2]!.gateway.url, { query: write }, from));
    // forward mode: the first two are refused for want of a token (401), but counted
    expect(statuses.map((s) => s.status === 429)).toEqual([false, false, true]);
    expect(statuses[2]!.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "writes", value: 2 });
  });

  it("a token the directory refused on one replica is refused by the other gateway without a subgraph fetch", async () => {
    const garbled = { authorization: "Bearer garbled-on-replica-a" };
    const first = await postRaw(bed.replicas[a]!.gateway.url, { query: `{ employee(id: "10") { id } }` }, garbled);
    expect(first.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    bed.directory.stats.reset();
    const second = await postRaw(bed.replicas[b]!.gateway.url, { query: `{ employee(id: "10") { id } }` }, garbled);
    expect(second.status).toBe(401);
    expect(second.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(bed.directory.stats.snapshot().total).toBe(0);
  });
});

describe.skipIf(!withRedis)("the upstream request budget across replicas", () => {
  const replicas = useReplicasWithRedis({
    // the tenant's budget at 20 in any 60 s (16 interactive, 4 background), shared on Redis
    // a long Redis timeout: on a loaded machine a slow command would fall back to counting alone
    // (docs/configuration.md#the-request-budget), which is not what this test measures
    env: { DIRECTORY_REQUEST_BUDGET: "20/60", REDIS_KEY_PREFIX: `test-budget-${process.pid}-${Date.now()}:`, REDIS_TIMEOUT_MS: "5000" },
  });
  let bed: ReplicaBed;
  beforeAll(() => {
    bed = replicas.bed;
  });

  it("two replicas together send the directory at most the budget's share in its window, and answer the rest RATE_LIMITED with retryAfter at once", async () => {
    // the directory itself refuses a 21st request in 60 s: a 429 would show a broken budget
    await faults(bed, { rateLimitRequests: 20, rateLimitWindowSeconds: 60 });
    const times = arrivals(bed);
    const ids = Array.from({ length: 60 }, (_, i) => String(20 + i));
    const answers = await Promise.all(ids.map((id, i) => bed.replicas[i % 2]!.query(`{ employee(id: "${id}") { id } }`)));
    const errors = answers.flatMap((r) => r.errors ?? []);
    await faults(bed, null);
    // what no slot was left for is RATE_LIMITED with the seconds until one frees: not a wait
    // past the deadline (DEADLINE_EXCEEDED), nor the directory's 429 relayed
    expect(errors.map((e) => e.extensions?.code).filter((c) => c !== "RATE_LIMITED")).toEqual([]);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e.extensions?.retryAfter).toBeGreaterThanOrEqual(1);
    // the token requests are not the APIs' budget; every API request the directory received counts
    console.log(`[replicas] DIRECTORY_REQUEST_BUDGET=20/60, 2 replicas, 60 reads at once: the directory received ${times.length} API requests, ${errors.length} reads RATE_LIMITED`);
    expect(times.length).toBeGreaterThan(0);
    expect(times.length).toBeLessThanOrEqual(16);
    expect(answers.filter((r) => r.errors === undefined).length).toBeGreaterThan(0);
  });
});

describe.skipIf(!withRedis)("Redis killed mid-load", () => {
  const replicas = useReplicasWithRedis({
    env: { DIRECTORY_REQUEST_BUDGET: "1000/1", REDIS_KEY_PREFIX: "test-kill:", REDIS_TIMEOUT_MS: "200" },
    gatewayEnv: { GATEWAY_RATE_LIMIT: "100000" },
  });
  let bed: ReplicaBed;
  beforeAll(() => {
    bed = replicas.bed;
  });

  it("fails no operation, shows the fallback in the metrics, and shares again once Redis is back", async () => {
    const fallbacks = () => counterValue(processMetrics().sharedStateFallbacks);
    const before = await fallbacks();
    const errors: unknown[] = [];
    let served = 0;
    const load = async (rounds: number) => {
      for (let r = 0; r < rounds; r++) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => bed.replicas[i % 2]!.query(`{ employee(id: "${10 + ((r + i) % 30)}") { id givenName manager { id familyName } legacyUser { id } } }`)),
        );
        for (const answer of answers) {
          if (answer.errors || answer.status !== 200) errors.push(answer.errors ?? answer.status);
          else served++;
        }
      }
    };
    await load(5);
    await replicas.redis.kill();
    await load(10);
    if (errors.length) console.log("FIRST", JSON.stringify(errors[0]));
    expect(errors).toEqual([]);
    expect(await fallbacks()).toBeGreaterThan(before);
    await replicas.redis.restart();
    // ioredis reconnects by itself (at most every 2 s)
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !bed.replicas.every((r) => r.upstream.shared.healthy)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bed.replicas.every((r) => r.upstream.shared.healthy)).toBe(true);
    await load(3);
    expect(errors).toEqual([]);
    // sharing resumed: an APQ document registered on A now is served by B
    const hash = sha256(`{ employee(id: "10") { id } }`);
    await postApq(bed.replicas[0]!.gateway.url, { query: `{ employee(id: "10") { id } }`, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    const shared = await postApq(bed.replicas[1]!.gateway.url, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(shared.errors).toBeUndefined();
    console.log(`[replicas] Redis killed mid-load: ${served} operations served, 0 failed, ${(await fallbacks()) - before} fallbacks counted`);
  });
});

describe("two replicas without Redis", () => {
  let bed: ReplicaBed;
  beforeAll(async () => {
    bed = await startReplicas({});
  });
  afterAll(async () => bed?.close());

  it("an APQ hash registered on gateway A is unknown to gateway B (why Redis is needed)", async () => {
    const hash = sha256(DOCUMENT);
    await postApq(bed.replicas[0]!.gateway.url, { query: DOCUMENT, variables: { id: "10" }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    const missed = await postApq(bed.replicas[1]!.gateway.url, { variables: { id: "10" }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(missed.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });
});

/** upstream calls and 304s of the five operations of operations/, run twice: on one replica, or once on each of two */
describe.skipIf(!withRedis)("the five operations on one and two replicas (docs/deploying.md figures)", () => {
  const operations = loadOperations();
  const rows: string[] = [];
  afterAll(() => console.log(`[replicas] ${operations.map((o) => o.name).join(", ")} run twice:\n${rows.join("\n")}`));

  for (const setup of [
    { name: "1 replica, no Redis", count: 1, redis: false },
    { name: "2 replicas, no Redis", count: 2, redis: false },
    { name: "2 replicas, Redis", count: 2, redis: true },
  ]) {
    it(setup.name, async () => {
      const redis = setup.redis ? await startRedis() : null;
      const bed = await startReplicas({ count: setup.count, redisUrl: redis?.url ?? null, env: { REDIS_KEY_PREFIX: "test-figures:" } });
      try {
        // the service tokens are fetched first and left out of the counts
        for (const replica of bed.replicas) await replica.query(`{ __typename }`);
        for (const replica of bed.replicas) await replica.query(`{ taxonomies(first: 1) { nodes { id } } }`);
        bed.directory.stats.reset();
        const notModified = () => bed.replicas.reduce((n, r) => n + r.upstream.totals.notModified, 0);
        const start304 = notModified();
        for (let round = 0; round < 2; round++) {
          const replica = bed.replicas[round % bed.replicas.length]!;
          for (const op of operations) expect((await replica.query(op.source, TOUR_VARIABLES[op.name])).errors).toBeUndefined();
        }
        const total = bed.directory.stats.snapshot().total;
        const share = (notModified() - start304) / total;
        rows.push(`  ${setup.name}: ${total} upstream calls, ${notModified() - start304} of them 304 (${Math.round(share * 100)}%)`);
        if (setup.redis) expect(notModified() - start304).toBeGreaterThan(0);
      } finally {
        await bed.close();
        await redis?.close();
      }
    });
  }
});

async function postApq(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return res.json();
}

async function postRaw(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}
