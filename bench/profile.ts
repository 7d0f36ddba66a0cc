import "reflect-metadata";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { generateCompany } from "../directory/data/generate.js";
import { loadOperations, pickDemoData, variablesOf } from "../harness/operations.js";
import { startGatewayStack } from "../harness/gateway-stack.js";
/**
 * `NODE_ENV=production npx tsx bench/profile.ts`: a CPU profile of the whole stack in one process
 * (directory, subgraphs, gateway and 8 clients running the read operations in turn for 8 s): its
 * top functions by self time and its share per package. Coarser than `BENCH_CPU_PROF=1` (which
 * profiles the subgraphs process alone) but quick, for comparing a change before and after.
 * PROF_OUT names the .cpuprofile written (default /tmp/stack.cpuprofile).
 */
process.env.LOG_LEVEL = "silent";
const demo = pickDemoData(generateCompany({ employees: 300, today: "2026-06-15" }));
const ops = loadOperations().filter((o) => o.kind === "query").map((o) => ({ name: o.name, source: o.source, variables: variablesOf(demo, o) }));
const stack = await startGatewayStack({ directory: { employees: 300, today: "2026-06-15" } });
for (const op of ops) for (let i = 0; i < 5; i++) await stack.query(op.source, op.variables);
const s = new Session(); s.connect(); await s.post("Profiler.enable"); await s.post("Profiler.start");
const t0 = performance.now(); let n = 0;
await Promise.all(Array.from({ length: 8 }, async () => { while (performance.now() - t0 < 8000) { const op = ops[n++ % ops.length]!; await stack.query(op.source, op.variables); } }));
const { profile } = await s.post("Profiler.stop");
console.log("ops/s", (n / 8).toFixed(0));
writeFileSync(process.env.PROF_OUT ?? "/tmp/stack.cpuprofile", JSON.stringify(profile));
const self = new Map<string, number>(); let all = 0;
for (const node of (profile as any).nodes) { all += node.hitCount; const name = `${node.callFrame.functionName || "(anon)"} ${node.callFrame.url.replace(/^.*\/work\/wt\/[^/]+\//, "")}:${node.callFrame.lineNumber + 1}`; self.set(name, (self.get(name) ?? 0) + node.hitCount); }
// by package
const pkg = new Map<string, number>();
for (const node of (profile as any).nodes) { const u: string = node.callFrame.url; const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(u); const k = m ? m[1]! : u.includes("/work/wt/") ? u.replace(/^.*\/work\/wt\/[^/]+\//, "").split("/").slice(0, 2).join("/") : u.startsWith("node:") ? "node:" + u.slice(5).split("/")[0] : node.callFrame.functionName || "(native)"; pkg.set(k, (pkg.get(k) ?? 0) + node.hitCount); }
console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${((v / all) * 100).toFixed(1)}% ${k}`).join("\n"));
console.log("--- by package");
console.log([...pkg.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${((v / all) * 100).toFixed(1)}% ${k}`).join("\n"));
await stack.close();
