import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * A bounded soak: for SOAK_OPS operations, callers of different visibility (forward mode: demo-client sees
 * everyone, demo-limited one establishment) send a mix of reads and writes through the gateway
 * while the directory answers 5% 503s, then 5% 429s, with 1% hung requests throughout. Asserted:
 * no answer leaks across callers, no acknowledged write is lost, the process stays responsive,
 * and memory comes back near its level once the load stops.
 */

// a count, not a time: a busy machine takes longer over the same work instead of doing less of it
// (it was 20 s: about 450 operations on a loaded machine, a few thousand on a quiet one)
const SOAK_OPS = 600;
const CONCURRENCY = 8;
const ENTRY = "100095";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function settle(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
}

describe("soak: mixed callers under 503s, 429s and hangs", () => {
  const stack = useGatewayStack({
    env: { DIRECTORY_AUTH: "forward", DIRECTORY_FORWARD_LEGACY_WRITES: "readers", DIRECTORY_TIMEOUT_MS: "1500", SUBGRAPH_DEADLINE_MS: "4000", DIRECTORY_MAX_RETRY_AFTER_S: "1" },
  });
  let full: Record<string, string>;
  let limited: Record<string, string>;
  let visible: Set<string>;
  let hidden: string[];

  beforeAll(async () => {
    full = { authorization: `Bearer ${await stack.token("demo-client")}` };
    limited = { authorization: `Bearer ${await stack.token("demo-limited")}` };
    visible = new Set();
    let after: string | null = null;
    do {
      const page: any = await stack.query(`query($a: String) { employees(first: 100, after: $a) { nodes { id } pageInfo { hasNextPage endCursor } } }`, { a: after }, limited);
      for (const n of page.data.employees.nodes) visible.add(n.id);
      after = page.data.employees.pageInfo.hasNextPage ? page.data.employees.pageInfo.endCursor : null;
    } while (after);
    const everyone = await stack.query(`{ employees(first: 100, sort: [ID_DESC]) { nodes { id } } }`, {}, full);
    hidden = everyone.data.employees.nodes.map((n: { id: string }) => n.id).filter((id: string) => !visible.has(id));
    expect(visible.size).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(10);
  }, 30_000);

  it(
    "no leak, no lost write, responsive, memory back near its level",
    async () => {
      const leaks: string[] = [];
      const counts = { ops: 0, ok: 0, errors: 0, writesAcknowledged: 0, writesFailed: 0, worstMs: 0 };
      const codes: Record<string, number> = {};
      /** durations written to ENTRY, in order: acknowledged or not */
      const written: Array<{ value: string; acknowledged: boolean }> = [];
      let writeNo = 0;
      let writing = false;

      const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
      const operations: Array<() => Promise<void>> = [
        // the limited caller's lists hold only what it may see
        async () => {
          const res = await stack.query(`{ employees(first: 20, sort: [ID_DESC]) { nodes { id givenName } } }`, {}, limited);
          for (const n of res.data?.employees?.nodes ?? []) if (!visible.has(n.id)) leaks.push(`list: ${n.id}`);
          note(res);
        },
        // a hidden employee, and legacy data about them, is never served to the limited caller
        async () => {
          const id = pick(hidden);
          const res = await stack.query(`query($id: ID!) { employee(id: $id) { id givenName workContracts { id } } }`, { id }, limited);
          if (res.data?.employee) leaks.push(`employee: ${id}`);
          note(res);
        },
        // the full caller sees the hidden employee (answers are per caller, never from another's cache)
        async () => {
          const id = pick(hidden);
          const res = await stack.query(`query($id: ID!) { employee(id: $id) { id givenName } }`, { id }, full);
          if (res.data?.employee && res.data.employee.id !== id) leaks.push(`full: ${id}`);
          note(res);
        },
        async () => {
          const res = await stack.query(
            `{ employee(id: "10") { id manager { givenName } timeEntries(from: "2026-06-08", to: "2026-06-14") { id duration } } }`,
            {},
            full,
          );
          note(res);
        },
        // writes, one at a time: each acknowledged value must survive
        async () => {
          if (writing) return; // one write at a time, so that "the last acknowledged" is well defined
          writing = true;
          const minutes = 30 + (writeNo++ % 90);
          const value = `0${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:00`;
          const entry = { value, acknowledged: false };
          written.push(entry);
          const res = await stack
            .query(`mutation($d: String!) { updateTimeEntry(id: "${ENTRY}", input: { duration: $d }) { __typename ... on TimeEntry { duration } } }`, { d: value }, full)
            .finally(() => (writing = false));
          if (res.data?.updateTimeEntry?.__typename === "TimeEntry") {
            entry.acknowledged = true;
            counts.writesAcknowledged++;
          } else counts.writesFailed++;
          note(res);
        },
      ];
      function note(res: { errors?: Array<{ extensions?: Record<string, any> }> }): void {
        if (res.errors?.length) {
          counts.errors++;
          for (const e of res.errors) codes[e.extensions?.code ?? "none"] = (codes[e.extensions?.code ?? "none"] ?? 0) + 1;
        } else counts.ok++;
      }

      // warm up, then the baseline
      for (const op of operations) await op();
      const before = settle();

      let loading = true;
      const healthMs: number[] = [];
      const opMs: number[] = [];
      const healthStatuses = new Set<number>();
      const health = (async () => {
        while (loading) {
          const t = performance.now();
          const answer = await fetch(new URL("/health", stack.gateway.url));
          await answer.arrayBuffer();
          healthStatuses.add(answer.status);
          healthMs.push(performance.now() - t);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      /** the callers, until `until` operations have been sent since the start */
      let sent = 0;
      const load = (until: number) =>
        Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (sent < until) {
              sent++;
              const t = performance.now();
              await pick(operations)();
              counts.ops++;
              counts.worstMs = Math.max(counts.worstMs, performance.now() - t);
              opMs.push(performance.now() - t);
            }
          }),
        );
      // two halves of the same load: 503s, then 429s; memory is read between them
      stack.directory.faults.set({ errorRate: 0.05, errorStatus: 503, hangRate: 0.01 });
      await load(SOAK_OPS / 2);
      const half = settle();
      stack.directory.faults.set({ errorRate: 0.05, errorStatus: 429, hangRate: 0.01 });
      await load(SOAK_OPS);
      loading = false;
      await health;
      stack.directory.faults.clear();

      // the entry holds the last acknowledged value, or a later one whose outcome was unknown
      const last = written.map((w) => w.acknowledged).lastIndexOf(true);
      const readBack = await stack.query(`{ timeEntry(id: "${ENTRY}") { duration } }`, {}, full);
      const allowed = written.slice(Math.max(0, last)).map((w) => w.value);
      expect(readBack.errors).toBeUndefined();
      expect(counts.writesAcknowledged).toBeGreaterThan(0);
      expect(allowed).toContain(readBack.data.timeEntry.duration);

      const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)]!;
      const medianOpMs = median(opMs);
      const after = settle();
      const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
      console.log(
        JSON.stringify({
          soakOps: SOAK_OPS,
          ...counts,
          worstMs: Math.round(counts.worstMs),
          healthChecks: healthMs.length,
          medianOpMs: Math.round(medianOpMs),
          medianHealthMs: Math.round(median(healthMs)),
          worstHealthMs: Math.round(Math.max(...healthMs)),
          codes,
          heapMB: { before: mb(before.heapUsed), after: mb(after.heapUsed) },
          rssMB: { before: mb(before.rss), half: mb(half.rss), after: mb(after.rss) },
        }),
      );
      expect(leaks).toEqual([]);
      expect(counts.writesAcknowledged).toBeGreaterThan(5);
      expect(counts.ok).toBeGreaterThan(counts.errors);
      // every answer came back within the subgraph deadline plus the gateway's own work
      expect(counts.worstMs).toBeLessThan(10_000);
      // responsive: /health answered every time during the load; that it is never held behind
      // the operations is shown by order, not by timing, in the test below
      expect([...healthStatuses]).toEqual([200]);
      expect(healthMs.length).toBeGreaterThan(10);
      expect(after.heapUsed - before.heapUsed).toBeLessThan(40 * 2 ** 20);
      // RSS also holds what the process keeps once it has grown, outside V8's heap: measured
      // +30 MB on Node 20 and +40 to +210 MB on Node 22 for +8 MB of heap, about as much after 5 s
      // as after 60 s of this load. So memory outside the heap is checked by its growth in the
      // second half: a leak grows with the load, what is kept does not.
      expect(after.rss - half.rss).toBeLessThan(60 * 2 ** 20);
    },
    60_000,
  );
});

/**
 * /health is never held behind the operations: with every upstream request frozen (no answer, and
 * timeouts and deadlines longer than the test), operations stay in flight for as long as the test
 * keeps them, and /health is asked again and again meanwhile. Each answer must come while every one
 * of them is still held: an order, which a busy machine cannot turn, where a comparison of timings
 * (how it was measured before) failed on a loaded CI run.
 */
describe("soak: /health while every operation is held upstream", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_TIMEOUT_MS: "600000", SUBGRAPH_DEADLINE_MS: "600000", GATEWAY_DEADLINE_MS: "600000", DIRECTORY_RETRIES: "0" } });

  it("answers 200 each time, before any held operation ends", async () => {
    // a first answer, so that what the operation needs besides the frozen read (a token) is held
    expect((await stack.query(`{ employee(id: "10") { id } }`)).errors).toBeUndefined();
    const hungBefore = stack.directory.faults.hung;
    stack.directory.faults.set({ hangRate: 1 });
    const abort = new AbortController();
    let ended = 0;
    const held = Array.from({ length: CONCURRENCY }, (_, i) =>
      fetch(new URL("/graphql", stack.gateway.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: `{ employee(id: "${11 + i}") { id givenName } }` }),
        signal: abort.signal,
      })
        .then((answer) => answer.arrayBuffer())
        .catch(() => undefined)
        .finally(() => ended++),
    );
    try {
      // every operation has reached the directory and waits on it
      while (stack.directory.faults.hung - hungBefore < CONCURRENCY) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 20; i++) {
        const answer = await fetch(new URL("/health", stack.gateway.url));
        expect(answer.status).toBe(200);
        expect(await answer.json()).toEqual({ status: "ok" });
        expect(ended).toBe(0);
      }
    } finally {
      stack.directory.faults.clear();
      abort.abort();
      await Promise.all(held);
    }
  }, 60_000);
});
