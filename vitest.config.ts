import { createRequire } from "node:module";
import { configDefaults, defineConfig } from "vitest/config";

// graphql ships a CommonJS and an ES build; packages loaded natively (graphql-scalars,
// @apollo/subgraph) get the CommonJS one, so the bundled code must get the very same file.
const graphqlMain = createRequire(import.meta.url).resolve("graphql");

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    include: ["test/**/*.test.ts"],
    // the browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts)
    exclude: [...configDefaults.exclude, "test/browser/**"],
    // graphql must load once: type-graphql is CommonJS and would otherwise pull a second copy.
    server: { deps: { inline: ["type-graphql"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["reflect-metadata"],
    // one log line per operation is for operators, not for test output
    env: { LOG_LEVEL: "warn" },
  },
});
