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

/** the directory's requests from now on, with the time each arrived */
function arrivals(bed: ReplicaBed): number[] {
  const times: number[] = [];
  const record = bed.directory.stats.record.bind(bed.directory.stats);
  bed.directory.stats.record = (route: string) => {
    times.push(performance.now());
    record(route);
  };
  return times;
}

/** the most requests within any window of `windowMs`, wherever it starts */
function peak(times: number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
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
    // deadlines long enough for 100 reads at 20 a second on a loaded machine running every replica in one process
    env: { DIRECTORY_RATE_LIMIT: "20", REDIS_KEY_PREFIX: "test-budget:", SUBGRAPH_DEADLINE_MS: "30000" },
    gatewayEnv: { GATEWAY_DEADLINE_MS: "30000" },
  });
  let bed: ReplicaBed;
  beforeAll(() => {
    bed = replicas.bed;
  });

  it("with DIRECTORY_RATE_LIMIT=20 the directory never sees more than 20 requests in any second, under a load that would send 100", async () => {
    // the service tokens first: they are not paced (the token endpoint is not the APIs' budget)
    for (const replica of bed.replicas) expect((await replica.query(`{ employee(id: "1") { id } }`)).errors).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // the directory itself refuses a 21st request in a second: a 429 would show a broken budget
    await faults(bed, { rateLimitPerSecond: 20 });
    const times = arrivals(bed);
    const ids = Array.from({ length: 100 }, (_, i) => String(20 + i));
    const answers = await Promise.all(ids.map((id, i) => bed.replicas[i % 2]!.query(`{ employee(id: "${id}") { id } }`)));
    await faults(bed, null);
    const codes = answers.flatMap((r) => (r.errors ?? []).map((e) => e.extensions?.code));
    // no client error the budget did not name; here all 100 fit in the deadline
    expect(codes.filter((c) => c !== "UPSTREAM_BUDGET_EXCEEDED")).toEqual([]);
    // every read was sent, or refused by the budget (a loaded machine wakes requests late)
    expect(times.length + codes.length).toBe(100);
    const most = peak(times);
    console.log(`[replicas] DIRECTORY_RATE_LIMIT=20, 2 replicas, 100 reads at once: ${times.length} requests in ${Math.round(times.at(-1)! - times[0]!)} ms, peak ${most} in any second`);
    expect(most).toBeLessThanOrEqual(20);
  });

  it("a request that would wait past its deadline fails fast with UPSTREAM_BUDGET_EXCEEDED", async () => {
    // a subgraph request with a deadline of 1 s: 60 reads at 20 a second need 3 s
    const short = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        fetch(bed.replicas[i % 2]!.subgraphs.people.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-deadline-ms": "1000" },
          body: JSON.stringify({ query: `{ employee(id: "${100 + i}") { id } }` }),
        }).then((r) => r.json() as Promise<any>),
      ),
    );
    const codes = short.flatMap((r) => (r.errors ?? []).map((e: any) => e.extensions?.code));
    expect(codes.length).toBeGreaterThan(0);
    expect(codes).toContain("UPSTREAM_BUDGET_EXCEEDED");
    // a read whose slot came just before its deadline may still run out of time on its way
    expect(codes.filter((c: string) => c !== "UPSTREAM_BUDGET_EXCEEDED" && c !== "DEADLINE_EXCEEDED")).toEqual([]);
    expect(await counterValue(processMetrics().upstreamBudget, { outcome: "exceeded" })).toBeGreaterThan(0);
  });
});

describe.skipIf(!withRedis)("Redis killed mid-load", () => {
  const replicas = useReplicasWithRedis({
    env: { DIRECTORY_RATE_LIMIT: "1000", REDIS_KEY_PREFIX: "test-kill:", REDIS_TIMEOUT_MS: "200" },
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
