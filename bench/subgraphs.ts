import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { startStack } from "../harness/stack.js";

/**
 * The benchmark's back end as its own process: the in-process directory (BENCH_EMPLOYEES
 * employees, today BENCH_TODAY) and the three subgraphs, on free ports. Prints one line
 * `bench-subgraphs {json}` with their URLs once they listen; stops on SIGTERM. With
 * BENCH_CPU_PROFILE=<file>, the process profiles itself (what `--cpu-prof` records; that flag is
 * not allowed in NODE_OPTIONS) and writes the profile there when stopped.
 */

const profileFile = process.env.BENCH_CPU_PROFILE;
const profiler = profileFile ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}

const employees = Number(process.env.BENCH_EMPLOYEES ?? "300");
const stack = await startStack({
  subgraphs: ["people", "organisation", "legacy-time"],
  directory: { employees, today: process.env.BENCH_TODAY ?? "2026-06-15" },
  // reference data held warm (docs/performance.md#what-a-company-router-gets), as bench/run.ts passes it
  ...(process.env.DIRECTORY_REFERENCE_FRESH_S ? { env: { DIRECTORY_REFERENCE_FRESH_S: process.env.DIRECTORY_REFERENCE_FRESH_S } } : {}),
});
console.log(
  `bench-subgraphs ${JSON.stringify({
    directory: stack.directory.url,
    people: stack.subgraphs.people!.url,
    organisation: stack.subgraphs.organisation!.url,
    "legacy-time": stack.subgraphs["legacy-time"]!.url,
  })}`,
);
const stop = async () => {
  if (profiler) writeFileSync(profileFile!, JSON.stringify((await profiler.post("Profiler.stop")).profile));
  await stack.close();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
