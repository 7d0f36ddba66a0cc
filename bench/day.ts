import { generateCompany } from "../directory/data/generate.js";
import { freePorts, runScript } from "../harness/process.js";
import { loadOperations, pickDemoData, variablesOf, type Operation } from "../harness/operations.js";
import { parsePrometheus, sumOf } from "../harness/prometheus.js";

/**
 * "A company's day" (`npm run bench:day`): `npm start` as it comes (the in-process directory at the
 * production service's limits, 50 requests in any 60 s; the facade's budget and its events as they
 * default), and frontend users reading it: each asks one of `operations/` with the README tour's ids,
 * then thinks 1 to 3 s, for BENCH_DAY_SECONDS. Meanwhile, every BENCH_DAY_CHANGE_S, an HR team renames
 * a department in the service's own interface (the directory's admin route: no request of the
 * tenant's budget) and a user's screen reads it until the new name shows: the change-to-fresh time.
 *
 * Prints one JSON line: operations, share answered without error, error codes, upstream requests
 * (the current and legacy APIs; the token and admin routes apart) in total and in the busiest 60 s,
 * held reads served, writes and how many read back at once, change-to-fresh p50 and p99. Extra
 * environment (DIRECTORY_HELD_FRESH_S=0 for the facade without held reads, DIRECTORY_EMPLOYEES=10000
 * for the large company) goes to `npm start`.
 */

const USERS = Number(process.env.BENCH_DAY_USERS ?? 5);
const SECONDS = Number(process.env.BENCH_DAY_SECONDS ?? 180);
const CHANGE_S = Number(process.env.BENCH_DAY_CHANGE_S ?? 20);
const WRITE_S = Number(process.env.BENCH_DAY_WRITE_S ?? 20);
const TODAY = "2026-06-15";

// a seeded generator (mulberry32): the same think times and operations every run
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function post(url: string, query: string, variables: Record<string, unknown>): Promise<{ errors?: Array<{ extensions?: { code?: string } }>; data?: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }>; data?: any };
}

// ports chosen before the start, as npm start's defaults are: with the people subgraph's port known,
// the in-process directory delivers its events there by webhook (with 0, npm start polls)
const ports = (await freePorts(5)).map(String);
const env: Record<string, string> = {
  DIRECTORY_PORT: ports[0]!,
  PEOPLE_PORT: ports[1]!,
  ORGANISATION_PORT: ports[2]!,
  LEGACY_TIME_PORT: ports[3]!,
  GATEWAY_PORT: ports[4]!,
  DIRECTORY_TODAY: TODAY,
  LOG_LEVEL: "warn",
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(DIRECTORY|GATEWAY|SUBGRAPH)_/.test(name)) as Array<[string, string]>),
};
const start = runScript("scripts/start.ts", env);
// a run that fails leaves no npm start behind
process.on("exit", () => start.child.kill("SIGKILL"));
const out = await start.waitFor(/^gateway: (\S+)/m);
const gatewayUrl = out[1]!;
const directoryUrl = /^directory service: (\S+)/m.exec(start.stdout())![1]!;
// the company npm start serves (DIRECTORY_EMPLOYEES: 10 000 for the large one), generated again here from the same settings
const demo = pickDemoData(generateCompany({ today: TODAY, ...(env.DIRECTORY_EMPLOYEES ? { employees: Number(env.DIRECTORY_EMPLOYEES) } : {}) }));
const operations: Operation[] = loadOperations();
const reads = operations.filter((o) => o.kind !== "mutation");

/** the tenant's requests so far: the current and legacy APIs, not the token endpoint */
async function apiRequests(): Promise<number> {
  const stats = (await (await fetch(`${directoryUrl}/_admin/stats`)).json()) as { byRoute: Record<string, number> };
  return Object.entries(stats.byRoute)
    .filter(([route]) => !route.includes("/connect/token"))
    .reduce((n, [, count]) => n + count, 0);
}

const results: Array<{ op: string; codes: string[]; at: number }> = [];
const samples: Array<{ at: number; requests: number }> = [];
const changeToFresh: number[] = [];
const began = Date.now();
const end = began + SECONDS * 1000;

async function user(n: number): Promise<void> {
  const next = random(1000 + n);
  // users arrive spread over the first think time
  await sleep(next() * 2000);
  while (Date.now() < end) {
    const operation = reads[Math.floor(next() * reads.length)]!;
    const answer = await post(gatewayUrl, operation.source, variablesOf(demo, operation)).catch((err: Error) => ({ errors: [{ extensions: { code: `HTTP:${err.message}` } }] }));
    results.push({ op: operation.name, codes: (answer.errors ?? []).map((e) => e.extensions?.code ?? "UNKNOWN"), at: Date.now() });
    await sleep(1000 + next() * 2000);
  }
}

async function sampler(): Promise<void> {
  while (Date.now() < end) {
    samples.push({ at: Date.now(), requests: await apiRequests() });
    await sleep(1000);
  }
  samples.push({ at: Date.now(), requests: await apiRequests() });
}

/** a user's correction of a time entry, then the entry read at once: does it show the new duration? */
const writes: Array<{ codes: string[]; readBack: boolean }> = [];
async function writer(): Promise<void> {
  const update = operations.find((o) => o.name === "UpdateTimeEntry")!;
  const { id } = variablesOf(demo, update) as { id: string };
  for (let i = 0; Date.now() + WRITE_S * 1000 < end; i++) {
    await sleep(WRITE_S * 1000);
    const duration = `00:${String(20 + (i % 30)).padStart(2, "0")}:00`;
    const answer = await post(gatewayUrl, update.source, { id, input: { duration } });
    const codes = (answer.errors ?? []).map((e) => e.extensions?.code ?? "UNKNOWN");
    if (answer.data?.updateTimeEntry?.__typename !== "TimeEntry" && codes.length === 0) codes.push(answer.data?.updateTimeEntry?.__typename ?? "NO_DATA");
    const read = codes.length === 0 ? await post(gatewayUrl, `query($id: ID!) { timeEntry(id: $id) { duration } }`, { id }) : null;
    writes.push({ codes, readBack: read?.data?.timeEntry?.duration === answer.data?.updateTimeEntry?.duration });
  }
}

/** an HR rename at the directory, read back through the gateway until it shows (the org chart's department name) */
async function changes(): Promise<void> {
  // the department the users' org chart shows
  const departmentId = variablesOf(demo, operations.find((o) => o.name === "OrgChart")!).departmentId as string;
  const query = `query($id: ID!) { department(id: $id) { name } }`;
  for (let i = 1; Date.now() + CHANGE_S * 1000 < end; i++) {
    await sleep(CHANGE_S * 1000);
    const name = `Renamed ${i}`;
    const changed = Date.now();
    const res = await fetch(`${directoryUrl}/_admin/reference/departments/${departmentId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
    await res.text();
    for (;;) {
      const seen = await post(gatewayUrl, query, { id: departmentId }).catch(() => null);
      if (seen?.data?.department?.name === name) break;
      if (Date.now() - changed > 120_000) throw new Error(`the rename ${name} never showed: ${JSON.stringify(seen)}`);
      await sleep(200);
    }
    changeToFresh.push(Date.now() - changed);
  }
}

await Promise.all([...Array.from({ length: USERS }, (_, n) => user(n)), sampler(), changes(), writer()]);
const metrics = parsePrometheus(await (await fetch(`${gatewayUrl}metrics`)).text());
const byRoute = ((await (await fetch(`${directoryUrl}/_admin/stats`)).json()) as { byRoute: Record<string, number> }).byRoute;
await start.stop("SIGTERM");

let busiest = 0;
for (const s of samples) {
  const window = samples.filter((t) => t.at >= s.at && t.at <= s.at + 60_000);
  busiest = Math.max(busiest, window.at(-1)!.requests - s.requests);
}
const codes: Record<string, number> = {};
for (const r of results) for (const c of new Set(r.codes)) codes[c] = (codes[c] ?? 0) + 1;
const answered = results.filter((r) => r.codes.length === 0).length;
const minutes = (Date.now() - began) / 60_000;
console.log(
  `bench-day ${JSON.stringify({
    users: USERS,
    employees: env.DIRECTORY_EMPLOYEES ?? "default",
    seconds: SECONDS,
    heldFreshS: env.DIRECTORY_HELD_FRESH_S ?? "default",
    events: env.DIRECTORY_EVENTS ?? "as npm start chooses",
    operations: results.length,
    answeredWithoutError: answered,
    answeredShare: results.length === 0 ? null : Math.round((1000 * answered) / results.length) / 10,
    operationsPerMinute: Math.round(results.length / minutes),
    errors: codes,
    byOperation: Object.fromEntries(operations.map((o) => [o.name, `${results.filter((r) => r.op === o.name && r.codes.length === 0).length}/${results.filter((r) => r.op === o.name).length}`])),
    upstreamRequests: samples.at(-1)!.requests - samples[0]!.requests,
    // by minute of the day: upstream requests, and operations answered with an error
    requestsByMinute: Array.from({ length: Math.ceil(SECONDS / 60) }, (_, m) => {
      const inMinute = samples.filter((t) => t.at >= began + m * 60_000 && t.at <= began + (m + 1) * 60_000);
      return inMinute.length < 2 ? 0 : inMinute.at(-1)!.requests - inMinute[0]!.requests;
    }),
    failedByMinute: Array.from({ length: Math.ceil(SECONDS / 60) }, (_, m) => results.filter((r) => r.codes.length > 0 && r.at >= began + m * 60_000 && r.at < began + (m + 1) * 60_000).length),
    busiest60s: busiest,
    heldServed: sumOf(metrics.samples, "upstream_held_reads_total", { result: "served" }),
    heldRefused: Object.fromEntries(
      [...new Set(metrics.samples.filter((m) => m.name === "upstream_held_reads_total" && m.labels.result !== "served").map((m) => m.labels.result!))].map((r) => [r, sumOf(metrics.samples, "upstream_held_reads_total", { result: r })]),
    ),
    byRoute,
    writes: writes.length,
    writesAnswered: writes.filter((w) => w.codes.length === 0).length,
    writesReadBackAtOnce: writes.filter((w) => w.readBack).length,
    changes: changeToFresh.length,
    changeToFreshMs: { p50: quantile(changeToFresh, 0.5), p99: quantile(changeToFresh, 0.99) },
  })}`,
);
