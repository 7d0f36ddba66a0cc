import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sha256 } from "../../gateway/trusted-documents.js";
import { processMetrics } from "../../platform/metrics.js";
import { loadOperations, operationNamed, pickDemoData, type Demo } from "../helpers/operations.js";
import { redisAvailable, useReplicasWithRedis } from "../helpers/replicas.js";

/**
 * What a replica meets in its Redis (docs/shared-state.md): a Redis that stops answering with its
 * connection open (SIGSTOP) costs an operation one REDIS_TIMEOUT_MS at most, then nothing until it
 * answers again; and what Redis holds is checked before it is used: an APQ entry rewritten to
 * another document, an ETag entry whose body was altered, an ETag that would split a header.
 */

const withRedis = redisAvailable();
const PREFIX = "directory-graph:";
const TIMEOUT_MS = 500;

async function post(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
}

async function counted(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await processMetrics().registry.getSingleMetric(name)?.get();
  return (metric?.values ?? []).filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
}

describe.skipIf(!withRedis)("a stuck Redis (SIGSTOP, its connections open)", () => {
  // the gateway's per-client limit on Redis too: its breaker and the subgraphs' each open once
  const replicas = useReplicasWithRedis({ count: 1, env: { REDIS_TIMEOUT_MS: String(TIMEOUT_MS) }, gatewayEnv: { GATEWAY_RATE_LIMIT: "100000" } });
  let demo: Demo;
  beforeAll(() => {
    demo = pickDemoData(replicas.bed.directory.company);
  });

  it("costs an operation one timeout at most, then falls back at once until Redis answers a probe", async () => {
    const profile = operationNamed(loadOperations(), "EmployeeProfile");
    const replica = replicas.bed.replicas[0]!;
    const timed = async (id: string) => {
      const started = performance.now();
      const answer = await replica.query(profile.source, { id });
      expect(answer.errors).toBeUndefined();
      expect(answer.data.employee.id).toBe(id);
      return performance.now() - started;
    };
    const ids = demo.profile.directReportIds.slice(0, 5);
    expect(ids.length).toBe(5);
    // the same five operations, warm, with Redis answering: the baseline
    for (const id of ids) await timed(id);
    let baseline = 0;
    for (const id of ids) baseline += await timed(id);

    const opened = await counted("shared_state_breaker_total", { state: "open" });
    const fallbacks = await counted("shared_state_fallbacks_total", {});
    replicas.redis.freeze();
    let frozen = 0;
    try {
      for (const id of ids) frozen += await timed(id);
    } finally {
      replicas.redis.thaw();
    }
    const added = frozen - baseline;
    console.log(`stuck Redis, REDIS_TIMEOUT_MS=${TIMEOUT_MS}: 5 EmployeeProfile took ${Math.round(baseline)} ms with Redis, ${Math.round(frozen)} ms frozen (${Math.round(added / 5)} ms added per operation)`);
    // without the breaker each command of an operation waits its own timeout, several in a row;
    // with it, the gateway's breaker and the subgraphs' each open on their first timeout, in the
    // first operation, and the later operations pay nothing
    expect(added).toBeLessThan(4 * TIMEOUT_MS);
    expect(await counted("shared_state_breaker_total", { state: "open" })).toBeGreaterThan(opened);
    expect(await counted("shared_state_fallbacks_total", {})).toBeGreaterThan(fallbacks);

    // thawed: a probe closes every breaker that opened within a second or two, and the uses go
    // back to Redis
    const openedNow = (await counted("shared_state_breaker_total", { state: "open" })) - opened;
    const closedBefore = await counted("shared_state_breaker_total", { state: "closed" });
    const closed = async () => (await counted("shared_state_breaker_total", { state: "closed" })) - closedBefore;
    const hits = await counted("shared_cache_lookups_total", { use: "etag" });
    const deadline = performance.now() + 10_000;
    while ((await closed()) < openedNow && performance.now() < deadline) {
      await timed(ids[0]!);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await closed()).toBe(openedNow);
    await timed(ids[1]!);
    expect(await counted("shared_cache_lookups_total", { use: "etag" })).toBeGreaterThan(hits);
  }, 120_000);
});

describe.skipIf(!withRedis)("what is read from Redis is checked", () => {
  // a command timeout a loaded machine cannot reach: a breaker opened by a starved event loop would
  // keep the registration from Redis (the stuck case above is where timeouts are tested)
  const replicas = useReplicasWithRedis({ count: 2, env: { REDIS_TIMEOUT_MS: "2000" } });
  let client: Redis;
  let demo: Demo;
  beforeAll(() => {
    client = new Redis(replicas.redis.url);
    demo = pickDemoData(replicas.bed.directory.company);
  });
  afterAll(() => client?.disconnect());

  it("an APQ entry rewritten to another document is a miss, counted, and runs nothing", async () => {
    const document = `query Mine { employee(id: "${demo.profile.id}") { id } }`;
    const other = `query Theirs { employees(first: 3) { nodes { id email } } }`;
    const hash = sha256(document);
    const apq = { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } };
    const registered = await post(replicas.bed.replicas[0]!.gateway.url, { query: document, ...apq });
    expect(registered.data.employee.id).toBe(demo.profile.id);
    // Apollo Server registers a document without awaiting its store: the entry lands just after the answer
    await vi.waitFor(async () => expect(await client.get(`${PREFIX}apq:${hash}`)).toBe(document), { timeout: 5000 });

    await client.set(`${PREFIX}apq:${hash}`, other);
    const rejected = await counted("shared_cache_lookups_total", { use: "apq", result: "rejected" });
    replicas.bed.directory.stats.reset();
    const served = await post(replicas.bed.replicas[1]!.gateway.url, apq);
    expect(served.data?.employees).toBeUndefined();
    expect(served.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    expect(replicas.bed.directory.stats.total).toBe(0);
    expect(await counted("shared_cache_lookups_total", { use: "apq", result: "rejected" })).toBe(rejected + 1);

    // the client sends the whole document again: registered anew, served
    const again = await post(replicas.bed.replicas[1]!.gateway.url, { query: document, ...apq });
    expect(again.data.employee.id).toBe(demo.profile.id);
    await vi.waitFor(async () => expect(await client.get(`${PREFIX}apq:${hash}`)).toBe(document), { timeout: 5000 });
  });

  /** rewrites every shared ETag entry with `change` */
  async function rewriteEtagEntries(change: (entry: Record<string, string>) => void): Promise<number> {
    const keys = await client.keys(`${PREFIX}etag:*`);
    for (const key of keys) {
      const entry = JSON.parse((await client.get(key))!) as Record<string, string>;
      change(entry);
      await client.set(key, JSON.stringify(entry), "EX", 600);
    }
    return keys.length;
  }

  it("an ETag entry whose body was altered is not served: the read is sent in full", async () => {
    const id = demo.profile.managerId;
    const query = `query Name($id: ID!) { employee(id: $id) { id givenName familyName } }`;
    const first = await replicas.bed.replicas[0]!.query(query, { id });
    expect(first.errors).toBeUndefined();
    const name = first.data.employee.givenName as string;
    expect(await rewriteEtagEntries((entry) => (entry.text = entry.text.split(JSON.stringify(name)).join('"Mallory"')))).toBeGreaterThan(0);

    const rejected = await counted("shared_cache_lookups_total", { use: "etag", result: "rejected" });
    const answer = await replicas.bed.replicas[1]!.query(query, { id });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.employee.givenName).toBe(name);
    expect(await counted("shared_cache_lookups_total", { use: "etag", result: "rejected" })).toBeGreaterThan(rejected);
  });

  it("an ETag holding CR/LF is not sent as a header: the operation is answered", async () => {
    const query = `query Name($id: ID!) { employee(id: $id) { id givenName email } }`;
    const id = demo.profile.directReportIds[0]!;
    const first = await replicas.bed.replicas[0]!.query(query, { id });
    expect(first.errors).toBeUndefined();
    expect(await rewriteEtagEntries((entry) => (entry.etag = `"x"\r\nX-Injected: 1`))).toBeGreaterThan(0);

    const rejected = await counted("shared_cache_lookups_total", { use: "etag", result: "rejected" });
    const answer = await replicas.bed.replicas[1]!.query(query, { id });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual(first.data);
    expect(await counted("shared_cache_lookups_total", { use: "etag", result: "rejected" })).toBeGreaterThan(rejected);
  });
});
