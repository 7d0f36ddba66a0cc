import "reflect-metadata";
import { readFile, readdir, mkdir, rm } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { generateCompany } from "../directory/data/generate.js";
import { freePorts, runScript, type ScriptProcess } from "../harness/process.js";
import { loadOperations, pickDemoData, variablePools, variablesOf, type Demo } from "../harness/operations.js";
import { directoryToken, upstreamCalls } from "../harness/stack.js";
import { FLOORS, LARGE_LIST } from "./floors.js";
import { hasPeer, peerRequests, runPeer, startPeer, type Peer } from "./peer.js";
import { writeResults } from "./results.js";
import { CLIENT_HEADERS, LIMITS_OFF } from "./fairness.js";
import { cpuMs, rssMb } from "./proc.js";
import { parsePrometheus, sumOf } from "../harness/prometheus.js";

/**
 * `npm run bench`: every operation of `operations/` and a large list, each component in its own
 * process (the directory with the three subgraphs; our gateway; Hive Gateway; Hive Gateway with
 * the Rust query planner; the generated peer, bench/peer.ts), measured against the floor a perfect
 * planner needs (bench/floors.ts). Throughput is measured twice: over the live subgraphs, and per
 * gateway, with the three gateways started again over the subgraphs' recorded answers
 * (bench/replay.ts), so that each gateway's own CPU bounds it. Prints markdown: the tables, then each goal as a ratio; writes
 * it between the markers of bench/results.md (bench/results.ts).
 *
 * Environment: BENCH_SECONDS (each throughput run over the live subgraphs, default 2.5),
 * BENCH_GATEWAY_SECONDS (each run over the replay, default 4), BENCH_LARGE_EMPLOYEES (the large
 * list's second company, default 100000; 0 skips it), BENCH_CPU_PROF=1 (writes a CPU profile of
 * the subgraphs process under bench/.profile/ and prints its top functions), BENCH_NODE_ENV (every
 * process's NODE_ENV, default `production`: as deployed, and graphql-js then skips its
 * development-mode `instanceOf` check on every type test), BENCH_OPERATIONS (a comma-separated
 * subset of the operations, for a quick run), BENCH_EMBEDDED=0 (skips the embedded stack's memory),
 * BENCH_CLIENT_RTT_MS (the client round trip added for each request of the peer beyond the first,
 * default 30: a browser near its server), BENCH_WRITE=0 (prints only: bench/results.md is not
 * written, as for a partial run), BENCH_MECHANISMS=1 (instead of all the above, the table of each
 * round-saving mechanism on and off: `mechanismTable`), BENCH_ROUTERS=1 (instead of all the above,
 * only the routers' table: `routerTable`), BENCH_REFERENCE_FRESH_S (the subgraphs' DIRECTORY_REFERENCE_FRESH_S:
 * reference data held warm, as a company would configure it; unset, the full run adds the routers'
 * table with it at 30 s).
 */

const TODAY = "2026-06-15";
const SECONDS = Number(process.env.BENCH_SECONDS ?? "2.5");
/** the live runs: each gateway twice, in order then in reverse, after 0.3 s of warm-up each */
const LIVE_RUNS: RunPlan = { seconds: SECONDS, runs: 2, warmSeconds: 0 };
/**
 * The per-gateway runs. On this 2-core machine one gateway-bound run of 5 s moves by up to a
 * sixth from the next run of the same process, and a gateway's ops/s still rise over its first
 * ten seconds or so of an operation (V8's tiers, the heap's growth): with two runs, the first one
 * cold, a cell near its goal landed on either side of it from one bench to the next. So each
 * gateway is first warmed at the run's concurrency, then run three times interleaved with the
 * others, and its median run counts.
 */
const GATEWAY_RUNS: RunPlan = { seconds: Number(process.env.BENCH_GATEWAY_SECONDS ?? "4"), runs: 3, warmSeconds: 3 };
const LARGE = Number(process.env.BENCH_LARGE_EMPLOYEES ?? "100000");
const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
const PROFILE_DIR = new URL("./.profile/", import.meta.url).pathname;
const NODE_ENV = process.env.BENCH_NODE_ENV ?? "production";
/** the latencies added to every upstream request, ms: p50 and p95 at each */
const LATENCIES = [0, 20, 100] as const;
const RUNS: Record<number, number> = { 0: 15, 20: 15, 100: 9 };
/**
 * Requests of each operation through each gateway and the peer before anything is measured: with
 * 3, the first operation's latencies were those of code V8 had not optimised yet (DirectorySearch's
 * p50 at 0 ms was half again its p50 in a process that had served it a few dozen times), and the
 * later operations' were warmer only for coming later. The figures are those of a service under
 * steady traffic.
 */
const WARM_UP = 30;
const CLIENT_RTT = Number(process.env.BENCH_CLIENT_RTT_MS ?? "30");
const ONLY = process.env.BENCH_OPERATIONS ? new Set(process.env.BENCH_OPERATIONS.split(",")) : null;
const EMBEDDED = process.env.BENCH_EMBEDDED !== "0";
const WRITE = process.env.BENCH_WRITE !== "0" && ONLY === null;
const LOW = 20;
const MECHANISMS = process.env.BENCH_MECHANISMS === "1";
const ROUTERS = process.env.BENCH_ROUTERS === "1";
/** BENCH_MECHANISM_VARIANTS: a comma-separated subset of the mechanism table's variants, by name */
const MECHANISM_ONLY = process.env.BENCH_MECHANISM_VARIANTS ? new Set(process.env.BENCH_MECHANISM_VARIANTS.split(",")) : null;
/** the subgraphs' DIRECTORY_REFERENCE_FRESH_S (reference data held warm), when set: BENCH_REFERENCE_FRESH_S */
const REFERENCE_FRESH_S = process.env.BENCH_REFERENCE_FRESH_S;
/** the bound of the full run's second routers' table, reference data held warm */
const WARM_REFERENCE_S = "30";
/** the latencies at which every gateway, not only ours, is timed (issue 39: a company's router beside ours) */
const ROUTER_LATENCIES = [20, 50, 100] as const;
const ROUTER_RUNS: Record<number, number> = { 20: 11, 50: 11, 100: 7 };

type Gateway = "ours" | "hive" | "hive-rust";
const GATEWAYS: Gateway[] = ["ours", "hive", "hive-rust"];

interface Op {
  name: string;
  source: string;
  /** the demo's variables */
  variables: Record<string, unknown>;
  /** variables varied per request (throughput) */
  pool: Array<Record<string, unknown>>;
  read: boolean;
}

interface Backend {
  process: ScriptProcess;
  urls: Record<string, string>;
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function startBackend(employees: number, profile = false, settings: Record<string, string> = {}): Promise<Backend> {
  const proc = runScript("bench/subgraphs.ts", {
    ...settings,
    BENCH_EMPLOYEES: String(employees),
    BENCH_TODAY: TODAY,
    LOG_LEVEL: "silent",
    NODE_ENV,
    ...(REFERENCE_FRESH_S ? { DIRECTORY_REFERENCE_FRESH_S: REFERENCE_FRESH_S } : {}),
    ...(profile ? { BENCH_CPU_PROFILE: `${PROFILE_DIR}subgraphs.cpuprofile` } : {}),
  });
  const [, json] = await proc.waitFor(/bench-subgraphs (\{.*\})/, 240_000);
  return { process: proc, urls: JSON.parse(json!) };
}

async function startGateway(kind: Gateway, urls: Record<string, string>, settings: Record<string, string> = {}): Promise<{ process: ScriptProcess; url: string }> {
  const [port] = await freePorts(1);
  const env = {
    GATEWAY_PORT: String(port),
    PEOPLE_URL: urls.people!,
    ORGANISATION_URL: urls.organisation!,
    LEGACY_TIME_URL: urls["legacy-time"]!,
    LOG_LEVEL: "warn",
    NODE_ENV,
  };
  if (kind === "ours") {
    // Hive Gateway has no operation deadline: on a loaded machine 50 clients can wait longer than
    // ours (10 s), and the bench measures throughput, not the deadline
    // and no per-client limits or trusted documents (production defaults: the load generator is
    // one client sending ad-hoc documents), which Hive Gateway, as benchmarked, does not have either;
    // the drain may not be shorter than the deadline (platform/lifecycle.ts)
    const proc = runScript("gateway/main.ts", { ...env, ...LIMITS_OFF, GATEWAY_DEADLINE_MS: "120000", SHUTDOWN_DRAIN_MS: "120000", ...settings });
    await waitForHealth(`http://127.0.0.1:${port}/health`, proc);
    return { process: proc, url: `http://127.0.0.1:${port}/` };
  }
  const proc = runScript("bench/hive.ts", { ...env, ...(kind === "hive-rust" ? { BENCH_HIVE_PLANNER: "rust" } : {}) });
  const [, url] = await proc.waitFor(/bench-hive (\S+)/, 60_000);
  return { process: proc, url: url! };
}

async function waitForHealth(url: string, proc: ScriptProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (proc.child.exitCode !== null) throw new Error(`${url}: the process exited\n${proc.stderr()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}: no answer`);
}

// ---- the directory's admin hooks, over HTTP ----

async function admin(directory: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${directory}/_admin/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return res.json();
}
const setLatency = (directory: string, latencyMs: number) => admin(directory, "PUT", "faults", { latencyMs });

/**
 * The upstream calls `task` makes: the median of five runs. Where two fetches of one operation
 * share its loaders, which one asks first can move a call by one from run to run on a busy machine
 * (OrgChart's two people fetches, docs/performance.md "Query plans"); one run could report either.
 */
async function medianCalls(directory: string, task: () => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    await admin(directory, "POST", "stats/reset");
    await task();
    runs.push(upstreamCalls((await admin(directory, "GET", "stats")) as { byRoute: Record<string, number> }));
  }
  return percentile(runs, 0.5);
}

/**
 * The requests the three subgraphs answered for `task`: their process's operations counter (one
 * per HTTP request, a batch of fetches being one), read on a subgraph's /metrics before and after.
 */
async function subgraphRequests(subgraph: string, task: () => Promise<unknown>): Promise<number> {
  const answered = async () => sumOf(parsePrometheus(await (await fetch(new URL("/metrics", subgraph))).text()).samples, "graphql_operations_total");
  const before = await answered();
  await task();
  return (await answered()) - before;
}

// ---- requests and measures ----

async function request(url: string, op: Op, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(url, {
    method: "POST",
    headers: CLIENT_HEADERS,
    body: JSON.stringify({ query: op.source, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  if (body.errors?.length) throw new Error(`${op.name}: ${body.errors[0]!.extensions?.code ?? ""} ${body.errors[0]!.message}`);
  return body.data;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1))]!;
}

async function latencies(task: () => Promise<unknown>, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  return times;
}


interface Load {
  opsPerSecond: number;
  /** peak RSS of each watched process during the run, MB */
  rss: number[];
  /** CPU time of each watched process per operation, ms */
  cpu: number[];
}

/** Every variable of the operation's pool once, 8 requests at a time. */
async function sendPool(url: string, op: Op): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < op.pool.length) await request(url, op, op.pool[next++]!);
  }));
}

/** Each gateway's runs, by number of clients. */
type Throughput = Record<number, Record<Gateway, Load>>;

/** `kind`'s ops/s over Hive-Rust's at `clients` clients. */
function toRust(t: Throughput, clients: number, kind: Gateway): number {
  return t[clients]![kind].opsPerSecond / t[clients]!["hive-rust"].opsPerSecond;
}

/** How a throughput measure runs each gateway. */
interface RunPlan {
  /** each measured run */
  seconds: number;
  /** runs of each gateway, in order, then in reverse, and so on */
  runs: number;
  /** each gateway's warm-up at the concurrency before its first run (beside the 0.3 s before each run) */
  warmSeconds: number;
}

/**
 * Each gateway at 8 and at 50 clients, `plan.runs` times, in the order and then in reverse (ABBA…):
 * whichever runs first after what ran before is not the only one to meet what it left behind.
 * `backend`: the process whose CPU per operation is reported beside the gateway's.
 */
async function throughput(op: Op, gateways: Record<Gateway, { process: ScriptProcess; url: string }>, backend: number, plan: RunPlan): Promise<Throughput> {
  const result: Throughput = {};
  for (const concurrency of [8, 50]) {
    const task = (kind: Gateway) => (i: number) => request(gateways[kind].url, op, op.pool[i % op.pool.length]!);
    if (plan.warmSeconds > 0) for (const kind of GATEWAYS) await load(task(kind), concurrency, plan.warmSeconds, []);
    const runs = Object.fromEntries(GATEWAYS.map((kind) => [kind, [] as Load[]])) as Record<Gateway, Load[]>;
    const order = Array.from({ length: plan.runs }, (_, i) => (i % 2 === 0 ? GATEWAYS : [...GATEWAYS].reverse())).flat();
    for (const kind of order) {
      await load(task(kind), concurrency, 0.3, []);
      runs[kind].push(await load(task(kind), concurrency, plan.seconds, [backend, gateways[kind].process.child.pid!]));
    }
    result[concurrency] = Object.fromEntries(GATEWAYS.map((kind) => [kind, medianLoad(runs[kind])])) as Record<Gateway, Load>;
  }
  return result;
}

/** `concurrency` clients in a loop for `seconds`, each request with the next variables of `pick`. */
async function load(task: (i: number) => Promise<unknown>, concurrency: number, seconds: number, pids: number[]): Promise<Load> {
  const peaks = await Promise.all(pids.map(rssMb));
  const cpuBefore = await Promise.all(pids.map(cpuMs));
  const sampler = setInterval(() => {
    pids.forEach((pid, i) => void rssMb(pid).then((mb) => (peaks[i] = Math.max(peaks[i]!, mb))));
  }, 50);
  let done = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await task(next++);
        done++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const cpuAfter = await Promise.all(pids.map(cpuMs));
  return { opsPerSecond: (done / elapsed) * 1000, rss: peaks, cpu: cpuAfter.map((ms, i) => (ms - cpuBefore[i]!) / done) };
}

/**
 * The CPU an operation costs Hive-Rust's gateway and the subgraphs process behind it, over what it
 * costs `kind`'s: the throughput ratio CPU allows when every core is busy (the load generator's
 * share, alike for all, left out: it moves the ratio toward 1). Each gateway's own subgraph CPU:
 * what the gateway asks of them.
 */
function pathCpuRatio(load: Record<Gateway, Load>, kind: Gateway): number {
  const path = (g: Gateway) => load[g].cpu[0]! + load[g].cpu[1]!;
  return path("hive-rust") / path(kind);
}

/** Runs of one gateway as one: the middle run by ops/s (the mean of the middle two for an even count: of two, their mean), the highest RSS. */
function medianLoad(runs: Load[]): Load {
  const sorted = [...runs].sort((a, b) => a.opsPerSecond - b.opsPerSecond);
  const middle = sorted.slice((sorted.length - 1) >> 1, (sorted.length >> 1) + 1);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    opsPerSecond: mean(middle.map((r) => r.opsPerSecond)),
    rss: runs[0]!.rss.map((_, i) => Math.max(...runs.map((r) => r.rss[i]!))),
    cpu: runs[0]!.cpu.map((_, i) => mean(middle.map((r) => r.cpu[i]!))),
  };
}

// ---- the operations and their variables ----

function operations(demo: Demo): Op[] {
  const pools = variablePools(demo);
  const ops: Op[] = loadOperations().map((o) => ({
    name: o.name,
    source: o.source,
    variables: variablesOf(demo, o),
    pool: pools[o.name] ?? [],
    read: o.kind === "query",
  }));
  ops.push({ name: "LargeList", source: LARGE_LIST, variables: {}, pool: [{}], read: true });
  return ops;
}

// ---- the run ----

interface Timing {
  p50: number;
  p95: number;
}

interface Row {
  op: Op;
  calls: Record<Gateway, number>;
  /** requests the subgraphs answered for one operation (a batch of fetches counts one) */
  subgraphRequests: Record<Gateway, number>;
  /** dependent rounds: the slope of p50 between the lowest and highest added latency above 0 */
  slope: number;
  /** our gateway, by added latency */
  ours: Record<number, Timing>;
  /** every gateway's p50 by added latency (ROUTER_LATENCIES) */
  routers: RouterTimes;
  /** the generated peer: its requests, upstream calls and timings (client round trips added) */
  peer: { requests: number; calls: number; timing: Record<number, Timing> } | null;
  throughput: Throughput;
  /** over the subgraphs' recorded answers (bench/replay.ts): the gateway's own CPU bounds it */
  perGateway: Throughput;
}

const timing = (times: number[], add = 0): Timing => ({ p50: percentile(times, 0.5) + add, p95: percentile(times, 0.95) + add });

const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

/** Each gateway's p50 by added latency, ms. */
type RouterTimes = Record<Gateway, Record<number, number>>;

/**
 * Every gateway's p50 at each of ROUTER_LATENCIES, the gateways interleaved at each latency, so
 * that a machine busy for a while slows all of them alike (the ratios are taken within one run).
 */
async function routerTimes(op: Op, gateways: Record<Gateway, { url: string }>, directory: string): Promise<RouterTimes> {
  const out = Object.fromEntries(GATEWAYS.map((g) => [g, {}])) as RouterTimes;
  try {
    for (const latency of ROUTER_LATENCIES) {
      await setLatency(directory, latency);
      const times = Object.fromEntries(GATEWAYS.map((g) => [g, [] as number[]])) as Record<Gateway, number[]>;
      for (let i = 0; i < ROUTER_RUNS[latency]!; i++) {
        for (const g of i % 2 === 0 ? GATEWAYS : [...GATEWAYS].reverse()) times[g].push(...(await latencies(() => request(gateways[g].url, op, op.variables), 1)));
      }
      for (const g of GATEWAYS) out[g][latency] = percentile(times[g], 0.5);
    }
  } finally {
    await setLatency(directory, 0);
  }
  return out;
}

/** dependent rounds from p50: the slope between the lowest and the highest of ROUTER_LATENCIES */
function routerRounds(t: Record<number, number>): number {
  const low = ROUTER_LATENCIES[0];
  const high = ROUTER_LATENCIES[ROUTER_LATENCIES.length - 1]!;
  return (t[high]! - t[low]!) / (high - low);
}

/**
 * The routers' table (issue 39): per operation, for ours, Hive
 * Gateway with its JS planner and with the Rust planner, each serving the committed supergraph over
 * the same subgraphs: upstream calls, rounds, p50 at each of ROUTER_LATENCIES, and each router's p50
 * at 50 ms over ours.
 */
function routerLines(rows: Array<{ name: string; calls: Record<Gateway, number>; routers: RouterTimes }>): string[] {
  const names: Record<Gateway, string> = { ours: "ours", hive: "Hive JS", "hive-rust": "Hive-Rust" };
  const lines = [
    `| operation | router | calls | rounds | ${ROUTER_LATENCIES.map((l) => `p50 @${l} ms`).join(" | ")} | p50 @50 / ours |`,
    `|---|---|--:|--:|${ROUTER_LATENCIES.map(() => "--:").join("|")}|--:|`,
  ];
  for (const r of rows) {
    for (const g of GATEWAYS) {
      const t = r.routers[g];
      lines.push(`| ${r.name} | ${names[g]} | ${r.calls[g]} | ${f(routerRounds(t), 2)} | ${ROUTER_LATENCIES.map((l) => f(t[l]!)).join(" | ")} | ${f(t[50]! / r.routers.ours[50]!, 2)} |`);
    }
  }
  return lines;
}

/** BENCH_ROUTERS=1: the three gateways over one subgraphs process, the routers' table only; `settings` the subgraphs'. */
async function routerTable(ops: Op[], settings: Record<string, string> = {}): Promise<string> {
  const backend = await startBackend(300, false, settings);
  const directory = backend.urls.directory!;
  const gateways = {} as Record<Gateway, { process: ScriptProcess; url: string }>;
  const rows: Array<{ name: string; calls: Record<Gateway, number>; routers: RouterTimes }> = [];
  try {
    for (const kind of GATEWAYS) gateways[kind] = await startGateway(kind, backend.urls);
    for (const op of ops) {
      const calls = {} as Record<Gateway, number>;
      for (const kind of GATEWAYS) {
        for (let i = 0; i < WARM_UP; i++) await request(gateways[kind].url, op, op.variables);
        calls[kind] = await medianCalls(directory, () => request(gateways[kind].url, op, op.variables));
      }
      rows.push({ name: op.name, calls, routers: await routerTimes(op, gateways, directory) });
      log(`${op.name} done`);
    }
  } finally {
    for (const kind of GATEWAYS) await gateways[kind]?.process.stop("SIGKILL");
    await backend.process.stop("SIGKILL");
  }
  return routerLines(rows).join("\n");
}

/**
 * Each of the subgraphs' round-saving mechanisms that a setting switches, on and off
 * (docs/performance.md#which-mechanism-fires-when): everything on, then each off alone
 * (SUBGRAPH_MECHANISMS_OFF), over a subgraphs process of its own.
 */
const MECHANISM_VARIANTS: Array<{ name: string; settings: Record<string, string>; subgraphs?: Record<string, string> }> = [
  { name: "all on", settings: {} },
  { name: "prefetchEmployee off", settings: {}, subgraphs: { SUBGRAPH_MECHANISMS_OFF: "prefetch-employee" } },
  { name: "operation-scoped loaders off", settings: {}, subgraphs: { SUBGRAPH_MECHANISMS_OFF: "operation-scope" } },
  { name: "embedded priming off", settings: {}, subgraphs: { SUBGRAPH_MECHANISMS_OFF: "embedded-priming" } },
  { name: "adaptive loaders off", settings: {}, subgraphs: { SUBGRAPH_MECHANISMS_OFF: "adaptive-loaders" } },
];

/**
 * BENCH_MECHANISMS=1: per operation and variant, the upstream calls, the subgraph requests, the
 * dependent rounds (the slope of p50 between the two added latencies above 0, as in the main
 * table) and ops/s at 8 clients over the live subgraphs (BENCH_SECONDS). One gateway at a time
 * over one subgraphs process, warmed as in the main run; prints the markdown table only.
 */
async function mechanismTable(ops: Op[]): Promise<string> {
  const shared = await startBackend(300);
  const cells: Array<{ at: number; line: string }> = [];
  const lines = [
    "| operation | mechanisms | upstream calls | subgraph requests | rounds | p50 ms at +" + LATENCIES[2] + " ms | ops/s ×8 |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  try {
    for (const variant of MECHANISM_VARIANTS.filter((v) => !MECHANISM_ONLY || MECHANISM_ONLY.has(v.name))) {
      // a subgraphs' mechanism turned off: a subgraphs process of its own
      const backend = variant.subgraphs ? await startBackend(300, false, variant.subgraphs) : shared;
      const directory = backend.urls.directory!;
      const gateway = await startGateway("ours", backend.urls, variant.settings);
      try {
        for (const [at, op] of ops.entries()) {
          const run = () => request(gateway.url, op, op.variables);
          for (let i = 0; i < WARM_UP; i++) await run();
          const calls = await medianCalls(directory, run);
          const requests = await subgraphRequests(backend.urls.people!, run);
          const p50 = {} as Record<number, number>;
          for (const latency of LATENCIES.slice(1)) {
            await setLatency(directory, latency);
            p50[latency] = timing(await latencies(run, RUNS[latency]!)).p50;
          }
          await setLatency(directory, 0);
          const [, low, high] = LATENCIES;
          const rounds = (p50[high]! - p50[low]!) / (high - low);
          const ops8 = op.read ? (await load((i) => request(gateway.url, op, op.pool[i % op.pool.length]!), 8, SECONDS, [])).opsPerSecond : NaN;
          cells.push({ at, line: `| ${op.name} | ${variant.name} | ${f(calls)} | ${f(requests)} | ${f(rounds, 1)} | ${f(p50[high]!)} | ${f(ops8)} |` });
          // a quiet second, as in the main run: the brake has let go before the next measure
          await new Promise((r) => setTimeout(r, 1000));
        }
      } finally {
        await gateway.process.stop();
        if (backend !== shared) await backend.process.stop();
      }
      log(`${variant.name} done`);
    }
  } finally {
    await setLatency(shared.urls.directory!, 0).catch(() => undefined);
    await shared.process.stop();
  }
  // by operation, its variants in order (the sort is stable)
  return [...lines, ...cells.sort((a, b) => a.at - b.at).map((c) => c.line)].join("\n");
}

async function main(): Promise<void> {
  const started = performance.now();
  if (CPU_PROF) {
    await rm(PROFILE_DIR, { recursive: true, force: true });
    await mkdir(PROFILE_DIR, { recursive: true });
  }
  const demo = pickDemoData(generateCompany({ employees: 300, today: TODAY }));
  const ops = operations(demo).filter((o) => !ONLY || ONLY.has(o.name));
  if (MECHANISMS) return void console.log(await mechanismTable(ops));
  if (ROUTERS) return void console.log(await routerTable(ops));
  log("starting the subgraphs process, the three gateways and the generated peer");
  const backend = await startBackend(300, CPU_PROF);
  const directory = backend.urls.directory!;
  const gateways = {} as Record<Gateway, { process: ScriptProcess; url: string }>;
  /** the same three over the subgraphs' recorded answers */
  const alone = {} as Record<Gateway, { process: ScriptProcess; url: string }>;
  let replay: ScriptProcess | undefined;
  let peer: Peer | undefined;
  try {
    for (const kind of GATEWAYS) gateways[kind] = await startGateway(kind, backend.urls);
    replay = runScript("bench/replay.ts", { BENCH_REPLAY_TARGETS: JSON.stringify({ people: backend.urls.people, organisation: backend.urls.organisation, "legacy-time": backend.urls["legacy-time"] }) });
    const replayed = JSON.parse((await replay.waitFor(/bench-replay (\{.*\})/))[1]!) as Record<string, string>;
    for (const kind of GATEWAYS) alone[kind] = await startGateway(kind, replayed);
    peer = await startPeer(directory, { LOG_LEVEL: "warn", NODE_ENV });
    const rows: Row[] = [];
    const sameAnswers: string[] = [];
    const identical: Record<Gateway, { load: Load; calls: number }> = {} as never;
    for (const op of ops) {
      const row = { op, throughput: {} } as Row;
      // warm-up (plans, tokens, connections, and V8's optimised code in every process) and the
      // check that the gateways agree
      const answers: Record<string, unknown> = {};
      for (const kind of GATEWAYS) {
        for (let i = 0; i < WARM_UP; i++) answers[kind] = await request(gateways[kind].url, op, op.variables);
      }
      if (op.read && !GATEWAYS.every((kind) => isDeepStrictEqual(answers.ours, answers[kind]))) {
        sameAnswers.push(op.name);
      }
      row.calls = {} as Record<Gateway, number>;
      for (const kind of GATEWAYS) row.calls[kind] = await medianCalls(directory, () => request(gateways[kind].url, op, op.variables));
      row.subgraphRequests = {} as Record<Gateway, number>;
      for (const kind of GATEWAYS) row.subgraphRequests[kind] = await subgraphRequests(backend.urls.people!, () => request(gateways[kind].url, op, op.variables));

      // the generated peer: its requests in sequence, checked, warmed and counted the same way
      if (hasPeer(op.name)) {
        for (let i = 0; i < WARM_UP; i++) await runPeer(peer.url, op.name, op.variables);
        row.peer = { requests: peerRequests(op.name), calls: await medianCalls(directory, () => runPeer(peer!.url, op.name, op.variables)), timing: {} };
      } else row.peer = null;

      // p50 and p95 at each latency added to every upstream request; rounds: the slope of p50
      row.ours = {};
      for (const latency of LATENCIES) {
        await setLatency(directory, latency);
        row.ours[latency] = timing(await latencies(() => request(gateways.ours.url, op, op.variables), RUNS[latency]!));
        if (row.peer) {
          const extra = (row.peer.requests - 1) * CLIENT_RTT;
          row.peer.timing[latency] = timing(await latencies(() => runPeer(peer!.url, op.name, op.variables), RUNS[latency]!), extra);
        }
      }
      await setLatency(directory, 0);
      row.routers = await routerTimes(op, gateways, directory);
      const [, low, high] = LATENCIES;
      row.slope = (row.ours[high].p50 - row.ours[low].p50) / (high - low);

      if (op.read) {
        row.throughput = await throughput(op, gateways, backend.process.child.pid!, LIVE_RUNS);
        // every variable of the pool once through each gateway, so that the replay holds each
        // subgraph request the runs send (a gateway's requests are its own: Hive's texts are not ours)
        for (const kind of GATEWAYS) await sendPool(alone[kind].url, op);
        row.perGateway = await throughput(op, alone, replay.child.pid!, GATEWAY_RUNS);
      }
      rows.push(row);
      log(`${op.name} done (${f((performance.now() - started) / 1000)} s)`);
    }

    // identical requests at once: what in-flight deduplication saves
    const profile = ops.find((o) => o.name === "EmployeeProfile") ?? ops[0]!;
    for (const kind of GATEWAYS) {
      await admin(directory, "POST", "stats/reset");
      const result = await load(() => request(gateways[kind].url, profile, profile.variables), 8, SECONDS, [backend.process.child.pid!]);
      const stats = (await admin(directory, "GET", "stats")) as { total: number };
      identical[kind] = { load: result, calls: stats.total / ((result.opsPerSecond * SECONDS) || 1) };
    }
    log(`identical requests done (${f((performance.now() - started) / 1000)} s)`);

    for (const kind of GATEWAYS) await gateways[kind].process.stop();
    for (const kind of GATEWAYS) await alone[kind].process.stop();
    await replay.stop();
    const served = JSON.parse(replay.stdout().match(/bench-replay served (.*)/)?.[1] ?? "{}") as Record<string, { replayed: number; passed: number }>;
    await peer.process.stop();
    await backend.process.stop();
    const profileTop = CPU_PROF ? await topFunctions() : [];

    const embedded = EMBEDDED ? await embeddedMemory(ops) : null;
    log(`embedded stack done (${f((performance.now() - started) / 1000)} s)`);
    const largeOp = ops.find((o) => o.name === "LargeList");
    const large = LARGE > 0 && largeOp ? await largeList(largeOp) : null;
    log(`large list done (${f((performance.now() - started) / 1000)} s)`);
    // what a company gets with the setting docs/performance.md tells it to make
    const warm = REFERENCE_FRESH_S ? null : await routerTable(ops, { DIRECTORY_REFERENCE_FRESH_S: WARM_REFERENCE_S });
    log(`routers with reference data held warm done (${f((performance.now() - started) / 1000)} s)`);
    const markdown = report(rows, identical, served, embedded, large, sameAnswers, profileTop, (performance.now() - started) / 1000, warm);
    console.log(markdown);
    if (WRITE) {
      await writeResults(markdown);
      log("wrote bench/results.md");
    }
  } finally {
    for (const kind of GATEWAYS) await gateways[kind]?.process.stop("SIGKILL");
    for (const kind of GATEWAYS) await alone[kind]?.process.stop("SIGKILL");
    await replay?.stop("SIGKILL");
    await peer?.process.stop("SIGKILL");
    await backend.process.stop("SIGKILL");
  }
}

/** The embedded default (`npm start`, one process): RSS at rest and its peak under 50 clients. */
async function embeddedMemory(ops: Op[]): Promise<{ rest: number; peak: number; opsPerSecond: number }> {
  const ports = await freePorts(5);
  const proc = runScript("scripts/start.ts", {
    DIRECTORY_EMPLOYEES: "300",
    DIRECTORY_TODAY: TODAY,
    DIRECTORY_PORT: String(ports[0]),
    PEOPLE_PORT: String(ports[1]),
    ORGANISATION_PORT: String(ports[2]),
    LEGACY_TIME_PORT: String(ports[3]),
    GATEWAY_PORT: String(ports[4]),
    LOG_LEVEL: "warn",
    NODE_ENV,
    ...LIMITS_OFF,
  });
  try {
    const url = `http://127.0.0.1:${ports[4]}/`;
    await waitForHealth(`${url}health`, proc);
    const reads = ops.filter((o) => o.read);
    const task = (i: number) => {
      const op = reads[i % reads.length]!;
      return request(url, op, op.pool[Math.floor(i / reads.length) % op.pool.length]!);
    };
    await load(task, 8, 1, []);
    await new Promise((r) => setTimeout(r, 1000));
    const rest = await rssMb(proc.child.pid!);
    const result = await load(task, 50, SECONDS * 2, [proc.child.pid!]);
    return { rest, peak: result.rss[0]!, opsPerSecond: result.opsPerSecond };
  } finally {
    await proc.stop();
  }
}

interface LargeResult {
  employees: number;
  calls: number;
  floor: number;
  p50: number;
  p50At20: number;
}

/** The large list against a company of BENCH_LARGE_EMPLOYEES, beside the 300 of the main run. */
async function largeList(op: Op): Promise<LargeResult[]> {
  const out: LargeResult[] = [];
  for (const employees of [300, LARGE]) {
    log(`large list: starting ${employees} employees`);
    const backend = await startBackend(employees);
    const gateway = await startGateway("ours", backend.urls);
    try {
      const directory = backend.urls.directory!;
      const data = await request(gateway.url, op, {});
      for (let i = 0; i < 3; i++) await request(gateway.url, op, {});
      const calls = await medianCalls(directory, () => request(gateway.url, op, {}));
      const p50 = percentile(await latencies(() => request(gateway.url, op, {}), 15), 0.5);
      await setLatency(directory, LOW);
      const p50At20 = percentile(await latencies(() => request(gateway.url, op, {}), 9), 0.5);
      await setLatency(directory, 0);
      out.push({ employees, calls, floor: await largeListFloor(directory, data), p50, p50At20 });
    } finally {
      await gateway.process.stop();
      await backend.process.stop();
    }
  }
  return out;
}

/**
 * The large list's floor for a company of any size (bench/floors.ts's LargeList, counted): the page
 * with its job positions embedded, the managers, then each reference list without an id filter at
 * the fewer of single reads of the ids the page names and pages of the whole list (departments;
 * establishments, their legal entities embedded).
 */
async function largeListFloor(directory: string, data: any): Promise<number> {
  const token = await directoryToken(directory);
  const total = async (collection: string) => {
    const res = await fetch(`${directory}/service-api/${collection}?limit=1&include=totalCount`, {
      headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" },
    });
    return ((await res.json()) as { totalCount: number }).totalCount;
  };
  const positions = (data.employees.nodes as any[]).map((n) => n.applicableJobPosition).filter(Boolean);
  const distinct = (ids: Array<string | undefined>) => new Set(ids.filter(Boolean)).size;
  const cheapest = async (collection: string, ids: number) => Math.min(ids, Math.ceil((await total(collection)) / 100));
  return (
    2 +
    (await cheapest("departments", distinct(positions.map((p) => p.department?.id)))) +
    (await cheapest("business-establishments", distinct(positions.map((p) => p.businessEstablishment?.id))))
  );
}

/** The top functions by self time in the subgraphs process's CPU profile. */
async function topFunctions(): Promise<string[]> {
  const files = (await readdir(PROFILE_DIR)).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) return ["(no profile written)"];
  const profile = JSON.parse(await readFile(`${PROFILE_DIR}${files[0]}`, "utf8")) as {
    nodes: Array<{ id: number; hitCount: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  };
  const self = new Map<string, number>();
  let all = 0;
  for (const node of profile.nodes) {
    all += node.hitCount;
    const name = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*\/work\/wt\/[^/]+\//, "")}:${node.callFrame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + node.hitCount);
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, hits]) => `${f((hits / all) * 100, 1)}% ${name}`);
}

function report(
  rows: Row[],
  identical: Record<Gateway, { load: Load; calls: number }>,
  served: Record<string, { replayed: number; passed: number }>,
  embedded: { rest: number; peak: number; opsPerSecond: number } | null,
  large: LargeResult[] | null,
  differ: string[],
  top: string[],
  seconds: number,
  warm: string | null,
): string {
  const [, low, high] = LATENCIES;
  const ms = (n: number | undefined) => (n === undefined ? "–" : f(n, 1));
  const lines = [
    `### Benchmark (Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${f(seconds)} s)`,
    "",
    `NODE_ENV=${NODE_ENV} in every process. ` +
      "Each component in its own process: the directory (300 employees) with the three subgraphs; our gateway; Hive Gateway; Hive Gateway with the Rust query planner (`@graphql-hive/router-runtime`), all three serving the committed supergraph over the same subgraphs; and the generated peer: GraphQL Mesh composed from the directory's OpenAPI document, served by Hive Gateway (bench/peer.ts). " +
      `Floors: bench/floors.ts. Rounds: the slope of our p50 between ${low} and ${high} ms added to every upstream request. ` +
      `The peer cannot follow a reference: each operation is the requests a frontend sends in turn (bench/mesh/operations.ts), and each request beyond the first adds a client round trip of ${CLIENT_RTT} ms (BENCH_CLIENT_RTT_MS) to its times; it has no counterpart of the legacy API's operations.`,
    "",
    `| operation | calls (floor) | rounds (floor) | p50 @${low} ms (floor×${low}) | p95 @${low} | p50 @${high} ms (floor×${high}) | p95 @${high} | p50 @0 | peer: requests, calls | peer p50 @${low} / p95 | peer p50 @${high} / p95 | peer p50 @0 |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const r of rows) {
    const floor = FLOORS[r.op.name]!;
    const o = r.ours;
    const pt = r.peer?.timing;
    lines.push(
      `| ${r.op.name} | ${r.calls.ours} (${floor.calls}) | ${f(r.slope, 1)} (${floor.rounds}) | ${ms(o[low]!.p50)} (${floor.rounds * low}) | ${ms(o[low]!.p95)} | ${ms(o[high]!.p50)} (${floor.rounds * high}) | ${ms(o[high]!.p95)} | ${ms(o[0]!.p50)} | ` +
        (r.peer && pt
          ? `${r.peer.requests}, ${r.peer.calls} | ${ms(pt[low]!.p50)} / ${ms(pt[low]!.p95)} | ${ms(pt[high]!.p50)} / ${ms(pt[high]!.p95)} | ${ms(pt[0]!.p50)} |`
          : "– | – | – | – |"),
    );
  }
  lines.push(
    "",
    `Every router at ${ROUTER_LATENCIES.join(", ")} ms added to every upstream request, in the same run: ours, Hive Gateway with its JS planner and with the Rust planner, each serving the committed supergraph over the same subgraphs (upstream calls; rounds: the slope of p50 between ${ROUTER_LATENCIES[0]} and ${ROUTER_LATENCIES[ROUTER_LATENCIES.length - 1]} ms; the gateways interleaved request by request):`,
    "",
    ...routerLines(rows.map((r) => ({ name: r.op.name, calls: r.calls, routers: r.routers }))),
    ...(warm
      ? [
          "",
          `The same with reference data held warm (DIRECTORY_REFERENCE_FRESH_S=${WARM_REFERENCE_S} on the subgraphs, what docs/performance.md tells a company to configure), the three gateways over a subgraphs process of their own, timed as above:`,
          "",
          warm,
        ]
      : []),
  );
  const readRows = rows.filter((r) => r.op.read);
  lines.push(
    "",
    `Throughput over the live subgraphs (reads only, variables varied per request, 0 ms added latency, uncompressed answers; each gateway twice, ${SECONDS} s a run, in order then in reverse, the mean), the CPU time the gateway process and the subgraphs process (with the directory) spend per operation, and peak RSS of the subgraphs process / our gateway process at 50 clients:`,
    "",
    "| operation | calls ours / Hive / Rust | subgraph requests ours / Hive / Rust | ops/s ×8 ours / Hive / Rust | ours / Rust ×8 | ops/s ×50 ours / Hive / Rust | ours / Rust ×50 | gateway CPU ms/op ×50 ours / Rust | subgraphs CPU ms/op ×50 ours / Rust | RSS MB ×50 |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  );
  // the cells of both throughput tables: every gateway's ops/s, ours over Hive-Rust, and
  // the CPU per operation of a watched process (0: the back end, 1: the gateway)
  const opsCells = (t: Throughput, c: number) => GATEWAYS.map((g) => f(t[c]![g].opsPerSecond)).join(" / ");
  const ratioCells = (t: Throughput, c: number) => f(toRust(t, c, "ours"), 2);
  const cpuCells = (t: Throughput, c: number, process: number) => (["ours", "hive-rust"] as const).map((g) => f(t[c]![g].cpu[process]!, 2)).join(" / ");
  for (const r of readRows) {
    const t = r.throughput;
    lines.push(
      `| ${r.op.name} | ${r.calls.ours} / ${r.calls.hive} / ${r.calls["hive-rust"]} | ${GATEWAYS.map((g) => r.subgraphRequests[g]).join(" / ")} | ${opsCells(t, 8)} | ${ratioCells(t, 8)} | ${opsCells(t, 50)} | ${ratioCells(t, 50)} | ${cpuCells(t, 50, 1)} | ${cpuCells(t, 50, 0)} | ${f(t[50]!.ours.rss[0]!)} / ${f(t[50]!.ours.rss[1]!)} |`,
    );
  }
  const sum = (key: "replayed" | "passed") => Object.values(served).reduce((n, v) => n + v[key], 0);
  lines.push(
    "",
    `Throughput per gateway: the same runs, each gateway started again over the subgraphs' answers recorded and replayed from memory (bench/replay.ts: ${f(sum("replayed"))} subgraph requests replayed, ${f(sum("passed"))} recorded), so that what bounds ops/s is the gateway's own CPU (one core for ours, a single event loop), not the subgraphs process; each gateway warmed for ${GATEWAY_RUNS.warmSeconds} s, then run ${GATEWAY_RUNS.runs} times for ${GATEWAY_RUNS.seconds} s, interleaved with the others, its median run given. Ops/s, the ratios to Hive-Rust, and the CPU time the gateway process spends per operation:`,
    "",
    "| operation | ops/s ×8 ours / Hive / Rust | ours / Rust ×8 | ops/s ×50 ours / Hive / Rust | ours / Rust ×50 | gateway CPU ms/op ×8 ours / Rust | gateway CPU ms/op ×50 ours / Rust |",
    "|---|--:|--:|--:|--:|--:|--:|",
  );
  for (const r of readRows) {
    const t = r.perGateway;
    lines.push(`| ${r.op.name} | ${opsCells(t, 8)} | ${ratioCells(t, 8)} | ${opsCells(t, 50)} | ${ratioCells(t, 50)} | ${cpuCells(t, 8, 1)} | ${cpuCells(t, 50, 1)} |`);
  }
  lines.push(
    "",
    `Identical ${rows.find((r) => r.op.name === "EmployeeProfile")?.op.name ?? rows[0]!.op.name} requests, 8 at once: ${GATEWAYS.map((g) => `${g} ${f(identical[g].load.opsPerSecond)} ops/s, ${f(identical[g].calls, 1)} upstream calls per operation`).join("; ")}.`,
  );
  if (embedded) {
    lines.push("", `Embedded stack (\`npm start\`, one process): ${f(embedded.rest)} MB at rest, peak ${f(embedded.peak)} MB under 50 clients (${f(embedded.opsPerSecond)} ops/s, the read operations in turn).`);
  }
  if (large) {
    lines.push(
      "",
      `Large list (\`employees(first: 100)\` with job position, manager, department, establishment, legal entity): ${large
        .map((l) => `${l.employees} employees: ${l.calls} calls (floor ${l.floor}), p50 ${f(l.p50, 1)} ms, at ${LOW} ms ${f(l.p50At20, 1)} ms`)
        .join("; ")}.`,
    );
  }
  if (differ.length) lines.push("", `**The gateways answered differently**: ${differ.join(", ")}.`);

  // the goals, each as a ratio
  const ranked = (ratio: (r: Row) => number, list: Row[], worstIsHigh: boolean) => {
    const values = list.map((r) => [r.op.name, ratio(r)] as const).sort((a, b) => (worstIsHigh ? b[1] - a[1] : a[1] - b[1]));
    return `${f(values[0]![1], 2)} (${values[0]![0]}); ${values.map(([n, v]) => `${n} ${f(v, 2)}`).join(", ")}`;
  };
  const withPeer = rows.filter((r) => r.peer);
  lines.push(
    "",
    "Goals (ratios, worst first):",
    "",
    `- upstream calls / floor ≤ 1: ${ranked((r) => r.calls.ours / FLOORS[r.op.name]!.calls, rows, true)}`,
    `- rounds / floor ≤ 1: ${ranked((r) => r.slope / FLOORS[r.op.name]!.rounds, rows, true)}`,
    `- p50 @${low} ms / (floor × ${low} ms) ≤ 1.1: ${ranked((r) => r.ours[low]!.p50 / (FLOORS[r.op.name]!.rounds * low), rows, true)}`,
    `- p50 @${high} ms / (floor × ${high} ms) ≤ 1.1: ${ranked((r) => r.ours[high]!.p50 / (FLOORS[r.op.name]!.rounds * high), rows, true)}`,
  );
  if (withPeer.length) {
    lines.push(
      `- p50 @${high} ms ours / the peer's ≤ 1: ${ranked((r) => r.ours[high]!.p50 / r.peer!.timing[high]!.p50, withPeer, true)}`,
      `- p50 @${low} ms ours / the peer's ≤ 1: ${ranked((r) => r.ours[low]!.p50 / r.peer!.timing[low]!.p50, withPeer, true)}`,
    );
  }
  if (readRows.length) {
    lines.push(
      `- throughput per gateway ×8 / Hive with the Rust planner ≥ 1.2: ${ranked((r) => toRust(r.perGateway, 8, "ours"), readRows, false)}`,
      `- throughput per gateway ×50 / Hive with the Rust planner ≥ 1.2: ${ranked((r) => toRust(r.perGateway, 50, "ours"), readRows, false)}`,
      `- over the live subgraphs (bound by the subgraphs process, alike for every gateway), ours / Hive-Rust ×8 and ×50: ${ranked((r) => toRust(r.throughput, 8, "ours"), readRows, false)}; ${ranked((r) => toRust(r.throughput, 50, "ours"), readRows, false)}`,
      // at 50 clients the cores are saturated: ops/s is their time over what an operation costs
      `- CPU per operation ×50, gateway and subgraphs, Hive-Rust's / ours (what the ratio above can reach when the cores are saturated): ${ranked((r) => pathCpuRatio(r.throughput[50]!, "ours"), readRows, false)}`,
    );
  }
  if (embedded) lines.push(`- RSS of the embedded stack at 50 clients / 250 MB ≤ 1: ${f(embedded.peak / 250, 2)}`);
  if (large && large.length === 2) {
    const [small, big] = large as [LargeResult, LargeResult];
    lines.push(
      `- large list at ${big.employees} / at 300 ≤ 1.1: calls ${f(big.calls / small.calls, 2)}, p50 ${f(big.p50 / small.p50, 2)}, p50 at ${LOW} ms ${f(big.p50At20 / small.p50At20, 2)}`,
    );
  }
  if (top.length) lines.push("", "Subgraphs process, top functions by self time (`--cpu-prof`):", "", ...top.map((t) => `    ${t}`));
  return lines.join("\n");
}

await main();
