// `node scripts/run.mjs <entry.ts>`: what `npm start` and the `npm run <component>` scripts run.
//
// It compiles the entry and the project modules it imports into one ES module (scripts/bundle.mjs),
// writes it under .build/, imports it, and deletes the file when the process exits (and, at
// start, the files of processes no longer running). The image runs the same bundles,
// compiled once when it is built (scripts/build.mjs).
// Compared with `node --import tsx`, this leaves no TypeScript loader thread in the process: the
// embedded stack holds about 55 MB less at rest (bench/results.md), and nothing is compiled
// while a request is served. Decorators compile as tsx compiles them (tsconfig's
// experimentalDecorators), and no decorator metadata is emitted in either case.

import { rmSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const entry = process.argv[2];
if (!entry || !entry.endsWith(".ts")) {
  console.error("usage: node scripts/run.mjs <entry.ts>");
  process.exit(2);
}

// one file per process: tests and `npm start` may compile the same entry at the same time
const dir = new URL("../.build/", import.meta.url);
const outfile = new URL(`${basename(entry, ".ts")}-${process.pid}.mjs`, dir);
await sweep();
// a server's import settles only when it stops, and most stop by a signal's handler calling
// process.exit, past the `finally` below: the file goes with the process instead
process.once("exit", () => rmSync(outfile, { force: true }));
try {
  await bundle(entry, outfile.pathname);
} catch {
  // esbuild has printed what is wrong
  process.exit(1);
}

process.argv.splice(1, 1);
try {
  await import(pathToFileURL(outfile.pathname).href);
} finally {
  await rm(outfile, { force: true });
}

/** Deletes the bundles of processes that no longer run (killed with SIGKILL, which no handler sees). */
async function sweep() {
  const files = await readdir(dir).catch(() => []);
  for (const file of files) {
    const pid = Number(/-(\d+)\.mjs$/.exec(file)?.[1]);
    if (pid && !running(pid)) await rm(new URL(file, dir), { force: true });
  }
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds that pid
    return err.code === "EPERM";
  }
}
