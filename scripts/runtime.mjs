// The image's runtime files (Dockerfile, docs/deploying.md#the-image): `node scripts/runtime.mjs
// <out>` after `npm run build` copies into <out> the bundles (dist/), the files they read from the
// project (schema/, operations/, the explorer's script, the health check) and, of node_modules,
// only the files the bundles load. The bundles leave packages in node_modules (scripts/bundle.mjs):
// gateway/apollo/result-shaping.ts replaces modules of @apollo/gateway's own, which a bundled copy would
// not see. Which files they load is traced by @vercel/nft (static analysis of every require and
// import from the entries, as serverless platforms package functions), not guessed: the runtime
// stage held all 393 production packages (esbuild, graphiql/react, cloud resource detectors) for
// the few files of them the components load.

import { cpSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMPONENTS } from "./build.mjs";

/** what the code reads from the project at run time, beside the bundles */
export const PROJECT_FILES = ["dist", "schema", "operations", "gateway/explorer", "scripts/healthcheck.mjs"];

/**
 * The explorer's vendor files, which gateway/explore.ts finds through each package's package.json
 * (a path built at run time, which no tracer follows): the same list as its VENDOR.
 */
export const VENDOR_FILES = ["react/package.json", "react/umd/react.production.min.js", "react-dom/package.json", "react-dom/umd/react-dom.production.min.js", "graphiql/package.json", "graphiql/graphiql.min.js", "graphiql/graphiql.min.css"].map((f) => `node_modules/${f}`);

/**
 * Copies the runtime files of the project at `root` (built) into `out`; answers their paths,
 * relative to `root`. `nft`: the @vercel/nft module (a development dependency: the Dockerfile's
 * build stage installs it beside the production install, the test passes its own).
 */
export async function copyRuntime(root, out, nft) {
  const { nodeFileTrace } = nft ?? (await import("@vercel/nft"));
  const entries = [...Object.keys(COMPONENTS).map((name) => `dist/${name}.mjs`), "scripts/healthcheck.mjs"];
  // `module-sync`: what Node 22 (and 20.19 on) resolves `require` of a dual package to
  const { fileList } = await nodeFileTrace(entries.map((e) => join(root, e)), { base: root, conditions: ["node", "module-sync"] });
  const files = new Set([...PROJECT_FILES, ...VENDOR_FILES, ...[...fileList].filter((f) => f.startsWith("node_modules/"))]);
  for (const file of files) {
    const from = join(root, file);
    if (!existsSync(from)) throw new Error(`runtime file missing: ${file}`);
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(from, join(out, file), { recursive: statSync(from).isDirectory(), verbatimSymlinks: true });
  }
  return [...files];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) {
    console.error("usage: node scripts/runtime.mjs <out>");
    process.exit(2);
  }
  const nft = process.env.NFT_MODULE ? await import(process.env.NFT_MODULE) : undefined;
  const files = await copyRuntime(fileURLToPath(new URL("../", import.meta.url)), out, nft);
  console.log(`copied ${files.length} runtime paths to ${out}`);
}
