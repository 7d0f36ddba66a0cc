import "reflect-metadata";
import { generateCompany } from "../directory/data/generate.js";
import { loadOperations, pickDemoData, variablesOf } from "../harness/operations.js";
import { startGatewayStack } from "../harness/gateway-stack.js";
import { measureRounds } from "../harness/rounds.js";
import { upstreamCalls } from "../harness/stack.js";
import { FLOORS, LARGE_LIST } from "./floors.js";

/**
 * `npx tsx bench/rounds.ts [OperationName…]`: the deterministic half of the benchmark, in one
 * process and in seconds: each operation's upstream calls and its dependent round trips, beside
 * the floors of bench/floors.ts. With a large latency added to every upstream request
 * (ROUNDS_LATENCY, default 150 ms), the requests an operation makes fall into waves
 * (test/helpers/rounds.ts); the waves are printed with their routes (with their query strings
 * when ROUNDS_URLS=1), so a change to a loader or a plan shows which round it moved a call to.
 */

process.env.LOG_LEVEL ??= "silent";
const LATENCY = Number(process.env.ROUNDS_LATENCY ?? "150");
const TODAY = "2026-06-15";

const demo = pickDemoData(generateCompany({ employees: 300, today: TODAY }));
const ops = loadOperations().map((o) => ({ name: o.name, source: o.source, variables: variablesOf(demo, o) }));
ops.push({ name: "LargeList", source: LARGE_LIST, variables: {} });
const wanted = process.argv.slice(2);

const stack = await startGatewayStack({ directory: { employees: 300, today: TODAY } });
try {
  for (const op of ops.filter((o) => wanted.length === 0 || wanted.includes(o.name))) {
    const run = async () => {
      const res = await stack.query(op.source, op.variables);
      if (res.errors?.length) throw new Error(`${op.name}: ${JSON.stringify(res.errors[0])}`);
    };
    for (let i = 0; i < 2; i++) await run(); // plans, tokens, connections
    stack.resetStats();
    await run();
    const calls = upstreamCalls(stack.stats());
    const { waves, startsAt, elapsedMs } = await measureRounds(stack.directory, run, { latencyMs: LATENCY, urls: process.env.ROUNDS_URLS === "1" });
    const floor = FLOORS[op.name]!;
    console.log(
      `${op.name}: ${calls} calls (floor ${floor.calls}), ${waves.length} rounds (floor ${floor.rounds}), ${(elapsedMs / LATENCY).toFixed(2)} × latency`,
    );
    waves.forEach((w, i) => console.log(`  ${i + 1} (at ${startsAt[i]!.toFixed(0)} ms): ${w.join("; ")}`));
  }
} finally {
  await stack.close();
}
