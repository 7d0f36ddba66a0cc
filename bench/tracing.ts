import "reflect-metadata";
import { loadGatewayConfig } from "../gateway/config.js";
import { startGateway } from "../gateway/gateway.js";
import { Logger } from "../platform/log.js";
import { inRequestScope, injectTraceContext, spanEvent } from "../platform/request-scope.js";
import { startTracing } from "../platform/tracing.js";
import { startAttemptSpan } from "../subgraphs/shared/upstream/observe.js";
import { startOtlpReceiver } from "../harness/otlp.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf } from "../harness/operations.js";
import { startStack } from "../harness/stack.js";

/**
 * `npm run bench:tracing`: what tracing costs (docs/observability.md#what-tracing-costs). In one process: the
 * directory, the three subgraphs and the gateway; EmployeeProfile run BENCH_TRACING_RUNS times
 * (default 100) one after the other, tracing off, then on (every span exported over OTLP/HTTP
 * protobuf to a receiver in the process, which decodes and keeps them: a collector's work counted
 * against us). Prints the CPU time and wall time per operation of each, and the cost of the
 * tracing hooks that run when tracing is off, per call, against one operation's count of them.
 * A tracer provider cannot be unregistered for good, so "off" is measured first.
 */

// one log line per operation would be measured too
process.env.LOG_LEVEL ??= "silent";
const RUNS = Number(process.env.BENCH_TRACING_RUNS ?? "100");
const HOOK_CALLS = 1_000_000;

const stack = await startStack({ subgraphs: ["people", "organisation", "legacy-time"], directory: { employees: 300, today: "2026-06-15" } });
const silent = new Logger("gateway", "silent");
const gateway = await startGateway(
  loadGatewayConfig({
    GATEWAY_PORT: "0",
    PEOPLE_URL: stack.subgraphs.people!.url,
    ORGANISATION_URL: stack.subgraphs.organisation!.url,
    LEGACY_TIME_URL: stack.subgraphs["legacy-time"]!.url,
  }),
  silent,
);
const operation = operationNamed(loadOperations(), "EmployeeProfile");
const body = JSON.stringify({ query: operation.source, variables: variablesOf(pickDemoData(stack.directory.company), operation) });

async function run(label: string): Promise<{ label: string; cpuMs: number; wallMs: number; calls: number }> {
  // warm-up: compiled code, the token, the ETag cache
  for (let i = 0; i < 20; i++) await once();
  stack.resetStats();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) await once();
  const wallMs = (performance.now() - started) / RUNS;
  const used = process.cpuUsage(cpu);
  return { label, cpuMs: (used.user + used.system) / 1000 / RUNS, wallMs, calls: stack.stats().total / RUNS };
}

async function once(): Promise<void> {
  const res = await fetch(`${gateway.url}graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
    body,
  });
  const answer = (await res.json()) as { errors?: unknown };
  if (answer.errors) throw new Error(`EmployeeProfile failed: ${JSON.stringify(answer.errors)}`);
}

/** ns per call of the hooks that run when tracing is off: a server request's scope, an attempt's span and header, an event */
async function offHooks(): Promise<number> {
  const req = { headers: {}, url: "/graphql", method: "POST" } as never;
  const res = { setHeader() {}, once() {} } as never;
  const noop = async () => {};
  const started = process.hrtime.bigint();
  for (let i = 0; i < HOOK_CALLS; i++) {
    await inRequestScope(req, res, "bench", noop);
    const headers = {};
    startAttemptSpan({ api: "current", method: "GET", route: "GET /service-api/employees", attempt: 1 }, "http://127.0.0.1/", false, headers);
    injectTraceContext(headers);
    spanEvent("x", {});
  }
  return Number(process.hrtime.bigint() - started) / HOOK_CALLS;
}

const hookNs = await offHooks();
const off = await run("tracing off");
const receiver = await startOtlpReceiver();
const tracing = (await startTracing({ url: receiver.url, protocol: "http/protobuf", serviceName: "bench" }))!;
const on = await run("tracing on (every operation sampled, exported)");
await tracing.flush();
const spansPerOperation = receiver.spans.length / (RUNS + 20);
await tracing.shutdown();
await receiver.close();
await gateway.close();
await stack.close();

// one operation's server requests (the gateway's and each subgraph fetch's) and upstream attempts
const hooksPerOperation = off.calls + 10;
console.log(`EmployeeProfile, ${RUNS} runs one after the other, ${off.calls} upstream calls each\n`);
console.log("| | CPU ms / operation | wall ms / operation |\n|---|---|---|");
for (const r of [off, on]) console.log(`| ${r.label} | ${r.cpuMs.toFixed(2)} | ${r.wallMs.toFixed(2)} |`);
console.log(`\nspans exported per operation with tracing on: ${spansPerOperation.toFixed(1)}`);
console.log(
  `tracing-off hooks: ${hookNs.toFixed(0)} ns per request scope + attempt span + header + event; ` +
    `~${hooksPerOperation} per operation = ${((hookNs * hooksPerOperation) / 1e6).toFixed(4)} ms, ` +
    `${((100 * hookNs * hooksPerOperation) / 1e6 / off.cpuMs).toFixed(3)}% of the operation's CPU time`,
);
