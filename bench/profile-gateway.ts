import "reflect-metadata";
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { generateCompany } from "../directory/data/generate.js";
import { freePorts, runScript } from "../harness/process.js";
import { loadOperations, pickDemoData, variablePools, variablesOf } from "../harness/operations.js";
import { CLIENT_HEADERS, LIMITS_OFF } from "./fairness.js";
import { cpuMs } from "./proc.js";
import { LARGE_LIST } from "./floors.js";

/**
 * `npx tsx bench/profile-gateway.ts [Operation] [clients] [seconds]`: a CPU profile of our gateway
 * process alone (`node --cpu-prof`), under `clients` concurrent clients (default 8) sending one
 * read operation of operations/ or the benchmark's LargeList (default EmployeeProfile) for `seconds` (default 8), the subgraphs in a process
 * of their own (bench/subgraphs.ts). Prints ops/s, the top functions by self time and the share of
 * each package; the profile is left in bench/.profile/gateway/ (open it in Chrome's DevTools).
 * GATEWAY_PROFILE_HIVE=1 profiles Hive Gateway (bench/hive.ts) instead, for comparison; `rust`, Hive
 * Gateway with the Rust query planner. Also prints the CPU time per operation of the gateway and of
 * the subgraphs process: on a machine the load generator, the gateway and the subgraphs share,
 * that, not ops/s alone, says which process an operation costs. The variables vary per request as
 * in the benchmark's throughput runs (PROFILE_SAME=1 sends the demo's every time); GATEWAY_*
 * variables of the shell reach the gateway (GATEWAY_COST_LIMIT=0, ...). BENCH_CPU_PROFILE=<file>
 * also profiles the subgraphs process (bench/subgraphs.ts), written to that file when it stops.
 * GATEWAY_PROFILE_REPLAY=1 puts the subgraphs' recorded answers (bench/replay.ts) between the
 * gateway and the subgraphs, as the benchmark's gateway-bound runs do, and sends every variable of
 * the pool once before measuring, so that each answer is recorded.
 */

const [name = "EmployeeProfile", clientsArg = "8", secondsArg = "8"] = process.argv.slice(2);
const clients = Number(clientsArg);
const seconds = Number(secondsArg);
const dir = new URL("./.profile/gateway/", import.meta.url).pathname;
const hive = ["1", "rust"].includes(process.env.GATEWAY_PROFILE_HIVE ?? "");
const today = "2026-06-15";
const demo = pickDemoData(generateCompany({ employees: 300, today }));
const op = [...loadOperations(), { name: "LargeList", file: "bench/floors.ts", source: LARGE_LIST, kind: "query" as const }].find((o) => o.name === name);
if (!op) throw new Error(`no operation ${name}`);
// varied per request as in the benchmark's throughput runs (PROFILE_SAME=1: the demo's, every time)
const pool = process.env.PROFILE_SAME === "1" ? [] : (variablePools(demo)[name] ?? []);
const fixed = op.name === "LargeList" ? {} : variablesOf(demo, op);
let sent = 0;
const nextVariables = () => (pool.length ? pool[sent++ % pool.length]! : fixed);

await rm(dir, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
const backend = runScript("bench/subgraphs.ts", { BENCH_EMPLOYEES: "300", BENCH_TODAY: today, LOG_LEVEL: "silent", NODE_ENV: "production", ...(process.env.BENCH_CPU_PROFILE ? { BENCH_CPU_PROFILE: process.env.BENCH_CPU_PROFILE } : {}) });
const live = JSON.parse((await backend.waitFor(/bench-subgraphs (\{.*\})/, 240_000))[1]!) as Record<string, string>;
const replaying = process.env.GATEWAY_PROFILE_REPLAY === "1";
const replay = replaying ? runScript("bench/replay.ts", { BENCH_REPLAY_TARGETS: JSON.stringify({ people: live.people, organisation: live.organisation, "legacy-time": live["legacy-time"] }) }) : null;
const urls = replay ? (JSON.parse((await replay.waitFor(/bench-replay (\{.*\})/))[1]!) as Record<string, string>) : live;
const [port] = await freePorts(1);
const gateway = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "scripts/run.mjs", hive ? "bench/hive.ts" : "gateway/main.ts"], {
  env: {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    GATEWAY_PORT: String(port),
    PEOPLE_URL: urls.people!,
    ORGANISATION_URL: urls.organisation!,
    LEGACY_TIME_URL: urls["legacy-time"]!,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    ...LIMITS_OFF,
    // the gateway's own settings of this shell (GATEWAY_COST_LIMIT=0...), to profile one against another
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("GATEWAY_") && !k.startsWith("GATEWAY_PROFILE_"))),
    ...(process.env.GATEWAY_PROFILE_HIVE === "rust" ? { BENCH_HIVE_PLANNER: "rust" } : {}),
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const url = hive ? `http://127.0.0.1:${port}/graphql` : `http://127.0.0.1:${port}/`;
const send = async () => {
  const res = await fetch(url, { method: "POST", headers: CLIENT_HEADERS, body: JSON.stringify({ query: op.source, variables: nextVariables() }) });
  const body = (await res.json()) as { errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
};
try {
  for (let i = 0; ; i++) {
    try {
      await send();
      break;
    } catch (err) {
      if (i > 300) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  for (let i = 0; i < Math.max(50, replaying ? pool.length : 0); i++) await send();
  let done = 0;
  const before = await Promise.all([cpuMs(gateway.pid!), cpuMs(backend.child.pid!)]);
  const end = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, async () => { while (performance.now() < end) { await send(); done++; } }));
  const after = await Promise.all([cpuMs(gateway.pid!), cpuMs(backend.child.pid!)]);
  console.log(
    `${hive ? "hive" : "ours"} ${name} ×${clients}: ${(done / seconds).toFixed(0)} ops/s; CPU per operation: gateway ${((after[0]! - before[0]!) / done).toFixed(2)} ms, subgraphs ${((after[1]! - before[1]!) / done).toFixed(2)} ms`,
  );
} finally {
  gateway.kill("SIGINT");
  await new Promise((r) => gateway.once("close", r));
  await replay?.stop();
  await backend.stop();
}


const file = (await readdir(dir)).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error("no profile written");
const profile = JSON.parse(await readFile(`${dir}${file}`, "utf8")) as { nodes: Array<{ hitCount: number; callFrame: { functionName: string; url: string; lineNumber: number } }> };
const self = new Map<string, number>();
const pkg = new Map<string, number>();
let all = 0;
for (const node of profile.nodes) {
  all += node.hitCount;
  const u = node.callFrame.url;
  const key = `${node.callFrame.functionName || "(anonymous)"} ${u.replace(/^.*\/node_modules\//, "").replace(/^file:\/\/\/?.*?\/(gateway|platform|bench)\//, "$1/")}:${node.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + node.hitCount);
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(u);
  const group = m ? m[1]! : u.startsWith("node:") ? `node:${u.slice(5).split("/")[0]}` : u === "" ? node.callFrame.functionName || "(native)" : "(ours)";
  pkg.set(group, (pkg.get(group) ?? 0) + node.hitCount);
}
const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((v / all) * 100).toFixed(1).padStart(5)}% ${k}`).join("\n");
console.log(`${top(self, 30)}\n--- by package\n${top(pkg, 25)}`);
