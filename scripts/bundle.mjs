// One entry of the project compiled into one ES module with esbuild, packages left in
// node_modules: what scripts/run.mjs runs (`npm start`, `npm run <component>`) and what
// scripts/build.mjs writes to dist/ for the image. The bundle sits one level below the project
// root, as every source file does, so the addresses the code builds from import.meta.url
// (`../schema/`, `../operations/`) resolve the same.

import { build, stop } from "esbuild";

/** Compiles `entry` (a .ts file) to `outfile`; rejects, after esbuild has printed why, when it cannot. */
export async function bundle(entry, outfile) {
  try {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      packages: "external",
      platform: "node",
      format: "esm",
      // the oldest Node the code is run on (CI also runs the tests on Node 20, docs/deploying.md#supported-node)
      target: "node20",
      // type-graphql and the logs read class and function names
      keepNames: true,
      logLevel: "warning",
    });
  } finally {
    await stop();
  }
}
