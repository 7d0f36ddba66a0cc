import "reflect-metadata";
import { subscribe } from "node:diagnostics_channel";
import { generateCompany } from "../directory/data/generate.js";
import { loadOperations, pickDemoData, variablesOf } from "../test/helpers/operations.js";
import { startGatewayStack } from "../test/helpers/gateway-stack.js";
import { FLOORS, LARGE_LIST } from "./floors.js";

/**
 * `npx tsx bench/rounds.ts [OperationName…]`: the deterministic half of the benchmark, in one
 * process and in seconds: each operation's upstream calls and its dependent round trips, beside
 * the floors of bench/floors.ts. With a large latency added to every upstream request (ROUNDS_LATENCY,
 * default 150 ms), the requests an operation makes fall into waves: a request starting more than
 * half the latency after the previous one waited for an answer. The waves are printed with their
 * routes, so a change to a loader or a plan shows which round it moved a call to. Reads nothing
 * from the shared machine's load but CPU time between waves, which the latency dwarfs.
 */

process.env.LOG_LEVEL ??= "silent";
const LATENCY = Number(process.env.ROUNDS_LATENCY ?? "150");
const TODAY = "2026-06-15";

const demo = pickDemoData(generateCompany({ employees: 300, today: TODAY }));
const ops = loadOperations().map((o) => ({ name: o.name, source: o.source, variables: variablesOf(demo, o) }));
ops.push({ name: "LargeList", source: LARGE_LIST, variables: {} });
const wanted = process.argv.slice(2);

const stack = await startGatewayStack({ directory: { employees: 300, today: TODAY } });
const seen: Array<{ at: number; route: string }> = [];
const directoryPort = String(stack.directory.port);
const SHOW_URLS = process.env.ROUNDS_URLS === "1";
// every request the directory receives (the admin routes aside), with its URL when ROUNDS_URLS=1
subscribe("http.server.request.start", (message) => {
  const { request } = message as { request: { url?: string; headers: Record<string, string | undefined> } };
  const url = request.url ?? "";
  if (!request.headers.host?.endsWith(`:${directoryPort}`) || url.startsWith("/_admin/")) return;
  seen.push({ at: performance.now(), route: SHOW_URLS ? decodeURIComponent(url) : url.split("?")[0]!.replace(/\/\d+$/, "/{id}") });
});

try {
  for (const op of ops.filter((o) => wanted.length === 0 || wanted.includes(o.name))) {
    const run = async () => {
      const res = await stack.query(op.source, op.variables);
      if (res.errors?.length) throw new Error(`${op.name}: ${JSON.stringify(res.errors[0])}`);
    };
    await stack.directory.faults.set({});
    for (let i = 0; i < 2; i++) await run(); // plans, tokens, connections
    seen.length = 0;
    await run();
    const calls = seen.filter((s) => !s.route.includes("/connect/token"));
    await stack.directory.faults.set({ latencyMs: LATENCY });
    seen.length = 0;
    const started = performance.now();
    await run();
    const elapsed = performance.now() - started;
    await stack.directory.faults.set({});
    const waves: string[][] = [];
    const startsAt: number[] = [];
    let last = -Infinity;
    for (const s of seen.filter((s) => !s.route.includes("/connect/token"))) {
      if (s.at - last > LATENCY / 2) {
        waves.push([]);
        startsAt.push(s.at - started);
      }
      waves[waves.length - 1]!.push(s.route);
      last = s.at;
    }
    const floor = FLOORS[op.name]!;
    console.log(
      `${op.name}: ${calls.length} calls (floor ${floor.calls}), ${waves.length} rounds (floor ${floor.rounds}), ${(elapsed / LATENCY).toFixed(2)} × latency`,
    );
    waves.forEach((w, i) => console.log(`  ${i + 1} (at ${startsAt[i]!.toFixed(0)} ms): ${w.join("; ")}`));
  }
} finally {
  await stack.close();
}
