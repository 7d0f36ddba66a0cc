// `npm run build`: every component compiled once into dist/ (scripts/bundle.mjs), what the image
// runs with `node dist/<component>.mjs` (Dockerfile, docs/deploying.md): no compiler and no
// TypeScript loader at run time, and node started directly so that it receives the signals.

import { bundle } from "./bundle.mjs";

/** the image's commands: `node dist/<name>.mjs` */
export const COMPONENTS = {
  start: "scripts/start.ts",
  directory: "directory/main.ts",
  people: "subgraphs/people/main.ts",
  organisation: "subgraphs/organisation/main.ts",
  "legacy-time": "subgraphs/legacy-time/main.ts",
  gateway: "gateway/main.ts",
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [name, entry] of Object.entries(COMPONENTS)) {
    try {
      await bundle(entry, new URL(`../dist/${name}.mjs`, import.meta.url).pathname);
    } catch {
      process.exit(1);
    }
  }
  console.log(`built ${Object.keys(COMPONENTS).map((name) => `dist/${name}.mjs`).join(", ")}`);
}
