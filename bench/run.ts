import "reflect-metadata";
import { isDeepStrictEqual } from "node:util";
import { loadOperations, pickDemoData, variablesOf, type Operation } from "../test/helpers/operations.js";
import { screens } from "./baseline/screens.js";
import { fetchToken, RestClient } from "./baseline/rest-client.js";
import { latency, throughput, type Latency, type Throughput } from "./measure.js";
import { startBenchStack, type BenchStack } from "./stack.js";

/**
 * `npm run bench`: each operation of `operations/` through the gateway of the embedded stack,
 * beside the same screen fetched with plain REST calls (bench/baseline/), in the same process
 * and against the same in-process directory. Prints markdown tables.
 *
 * Environment: BENCH_EMPLOYEES (a second, bigger company, e.g. 5000; default none),
 * BENCH_RUNS (sequential runs per operation for latency, default 80), BENCH_CONCURRENT_RUNS
 * (runs for throughput, default 160), BENCH_CONCURRENCY (default 8), BENCH_UPSTREAM_LATENCY_MS
 * (latency the directory adds to every request, as a directory across a network would; default 0).
 */

const TODAY = "2026-06-15";
const DEFAULT_EMPLOYEES = 300;

interface Settings {
  runs: number;
  upstreamLatencyMs: number;
  concurrentRuns: number;
  concurrency: number;
  sizes: number[];
}

interface Side {
  calls: number;
  latency: Latency;
  throughput: Throughput;
}

interface Row {
  operation: string;
  facade: Side;
  rest: Side;
  sameScreen: boolean;
}

function settings(env: NodeJS.ProcessEnv): Settings {
  const int = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
    return value;
  };
  const extra = int("BENCH_EMPLOYEES", 0, 0);
  return {
    runs: int("BENCH_RUNS", 80, 1),
    upstreamLatencyMs: int("BENCH_UPSTREAM_LATENCY_MS", 0, 0),
    concurrentRuns: int("BENCH_CONCURRENT_RUNS", 160, 1),
    concurrency: int("BENCH_CONCURRENCY", 8, 1),
    sizes: extra && extra !== DEFAULT_EMPLOYEES ? [DEFAULT_EMPLOYEES, extra] : [DEFAULT_EMPLOYEES],
  };
}

/** Upstream requests served since the last reset, token requests left out. */
function upstreamCalls(stack: BenchStack): number {
  const { byRoute } = stack.directory.stats.snapshot();
  return Object.entries(byRoute)
    .filter(([route]) => !route.includes("/connect/token"))
    .reduce((sum, [, n]) => sum + n, 0);
}

async function countCalls(stack: BenchStack, task: () => Promise<unknown>): Promise<number> {
  stack.directory.stats.reset();
  await task();
  return upstreamCalls(stack);
}

async function gatewayRequest(url: string, operation: Operation, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: operation.source, operationName: operation.name, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: Array<{ message: string; path?: unknown[]; extensions?: { code?: string } }> };
  if (body.errors?.length) {
    const first = body.errors[0]!;
    throw new Error(`${operation.name}: ${body.errors.length} error(s), first: ${first.extensions?.code ?? ""} ${first.message} at ${JSON.stringify(first.path)}`);
  }
  return body.data;
}

interface CompanyResult {
  rows: Row[];
  batching: Array<[number, number]>;
  startMs: number;
  variables: Record<string, Record<string, unknown>>;
}

async function benchCompany(employees: number, s: Settings): Promise<CompanyResult> {
  const started = performance.now();
  const stack = await startBenchStack(employees, TODAY);
  const startMs = performance.now() - started;
  try {
    if (s.upstreamLatencyMs > 0) stack.directory.faults.set({ latencyMs: s.upstreamLatencyMs });
    const demo = pickDemoData(stack.directory.company);
    const client = new RestClient(stack.directory.url, await fetchToken(stack.directory.url), "demo-api-key");
    const rows: Row[] = [];
    const used: Record<string, Record<string, unknown>> = {};
    for (const operation of loadOperations()) {
      const variables = variablesOf(demo, operation);
      used[operation.name] = variables;
      const screen = screens[operation.name];
      if (!screen) throw new Error(`no REST baseline for ${operation.name}: add it to bench/baseline/screens.ts`);
      const prepared = await screen.prepare?.(client, variables, demo);
      const viaFacade = () => gatewayRequest(stack.gateway.url, operation, variables);
      const viaRest = () => screen.run(client, variables, prepared);

      // warm-up (query plans, token, connections), then the check that both show the same screen
      for (let i = 0; i < 3; i++) await Promise.all([viaFacade(), viaRest()]);
      const facadeSummary = screen.summarise(await viaFacade());
      const restSummary = await viaRest();
      const sameScreen = isDeepStrictEqual(facadeSummary, restSummary);
      if (!sameScreen) {
        console.error(`${operation.name}: the facade and the REST baseline show different screens`);
        console.error(`  facade: ${JSON.stringify(facadeSummary).slice(0, 2000)}`);
        console.error(`  REST:   ${JSON.stringify(restSummary).slice(0, 2000)}`);
      }

      const side = async (task: () => Promise<unknown>): Promise<Side> => ({
        calls: await countCalls(stack, task),
        latency: await latency(task, s.runs),
        throughput: await throughput(task, s.concurrentRuns, s.concurrency),
      });
      rows.push({ operation: operation.name, facade: await side(viaFacade), rest: await side(viaRest), sameScreen });
      process.stderr.write(`  ${employees} employees: ${operation.name} done\n`);
    }

    const batching: Array<[number, number]> = [];
    for (const first of [10, 100]) {
      const operation: Operation = {
        name: "Batching",
        file: "",
        kind: "query",
        source: `query Batching($first: Int!) { employees(first: $first) { nodes { id applicableJobPosition { manager { givenName } department { name } } } } }`,
      };
      await gatewayRequest(stack.gateway.url, operation, { first });
      batching.push([first, await countCalls(stack, () => gatewayRequest(stack.gateway.url, operation, { first }))]);
    }
    return { rows, batching, startMs, variables: used };
  } finally {
    await stack.close();
  }
}

const f = (n: number, digits = 1) => n.toFixed(digits);

function table(employees: number, rows: Row[], s: Settings): string {
  const lines = [
    `#### ${employees} employees — ${s.runs} sequential runs, then ${s.concurrentRuns} runs ${s.concurrency} at a time${
      s.upstreamLatencyMs ? `, ${s.upstreamLatencyMs} ms added to every upstream request` : ""
    }`,
    "",
    "| operation | client | upstream calls | p50 ms | p95 ms | p99 ms | ops/s (×" + s.concurrency + ") | RSS peak +MB | heap peak +MB | same screen |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|:-:|",
  ];
  for (const row of rows) {
    for (const [label, side] of [["facade", row.facade], ["REST baseline", row.rest]] as const) {
      lines.push(
        `| ${label === "facade" ? row.operation : ""} | ${label} | ${side.calls} | ${f(side.latency.p50)} | ${f(side.latency.p95)} | ${f(side.latency.p99)} | ${f(side.throughput.opsPerSecond, 0)} | ${f(side.throughput.rssPeakMb)} | ${f(side.throughput.heapPeakMb)} | ${label === "facade" ? (row.sameScreen ? "yes" : "**no**") : ""} |`,
      );
    }
  }
  return lines.join("\n");
}

const s = settings(process.env);
const output: string[] = [
  `### Benchmark (Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
  "",
  "Facade: the operation through the gateway (upstream calls counted by the directory). REST baseline: the same screen with plain `fetch` calls, one at a time (bench/baseline/). Both in one process against the in-process directory; memory is the peak above the level before the concurrent runs.",
  "",
];
let failed = false;
for (const employees of s.sizes) {
  const { rows, batching, startMs, variables } = await benchCompany(employees, s);
  output.push(table(employees, rows, s), "");
  output.push(
    `Batching: \`employees(first: N) { nodes { applicableJobPosition { manager { givenName } department { name } } } }\` makes ${batching
      .map(([n, calls]) => `${calls} upstream calls for N=${n}`)
      .join(", ")}. Stack start-up: ${f(startMs / 1000, 1)} s.`,
    "",
    `Variables (picked from the demo data, today ${TODAY}): ${Object.entries(variables)
      .map(([name, v]) => `${name} \`${JSON.stringify(v)}\``)
      .join(", ")}.`,
    "",
  );
  if (rows.some((r) => !r.sameScreen) || batching[0]![1] !== batching[1]![1]) failed = true;
}
console.log(output.join("\n"));
if (failed) {
  console.error("bench: a check failed (a screen differs from its REST baseline, or the calls grow with the page size)");
  process.exitCode = 1;
}
