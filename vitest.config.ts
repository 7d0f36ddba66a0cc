import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { STARTED_WITHIN_MS } from "./harness/process.js";

// graphql ships a CommonJS and an ES build; packages loaded natively (graphql-scalars,
// @apollo/subgraph) get the CommonJS one, so the bundled code must get the very same file.
const graphqlMain = createRequire(import.meta.url).resolve("graphql");

/**
 * The tests that take long, measured (vitest's per-file durations and the CPU time of a run of each
 * folder): child processes, the gateway and its composition, the hostile corpus and the soak,
 * companies of a thousand employees and more. The subgraphs' own suites are a project of their own
 * (SUBGRAPH_SUITES). `npm run test:fast` runs the rest.
 */
const slow = [
  // of the gateway's tests, those that leave global state behind: the telemetry variable the
  // gateway sets, the OpenTelemetry provider a process registers once (the rest: GATEWAY_SUITES)
  "test/gateway/http.test.ts",
  "test/gateway/tracing.test.ts",
  "test/gateway/tracing-json.test.ts",
  // the stock path of an unchecked @apollo/gateway: it needs a module no other gateway has patched
  "test/gateway/apollo-fallback.test.ts",
  "test/hardening/**/*.test.ts",
  // two stacks of replicas and real redis-servers
  "test/replicas/**/*.test.ts",
  "test/subscriptions/replicas.test.ts",
  // a tracer provider of its own
  "test/subscriptions/trace.test.ts",
  "test/platform/limits.test.ts",
  "test/directory/current-scale.test.ts",
  // the image, the deployment descriptions and a production-only install
  "test/deploy/**/*.test.ts",
  // the frontend tools (relay-compiler, graphql-codegen, tsc) as child processes
  "test/frontends/**/*.test.ts",
];
/**
 * The tests that start the project's scripts as child processes (harness/process.ts): a project of
 * their own, whose tests and hooks may wait a few starts (STARTED_WITHIN_MS each, what a start
 * took beside the rest of the suite on CI's two cores) before they time out.
 */
const PROCESSES = [
  "test/**/main.test.ts",
  "test/gateway/processes.test.ts",
  "test/gateway/start.test.ts",
  "test/gateway/shutdown.test.ts",
  "test/platform/metrics-port.test.ts",
  "test/platform/settings.test.ts",
  "test/deploy/production.test.ts",
  "test/bench/replay.test.ts",
  "test/bench/day.test.ts",
];
/**
 * The subgraphs' own suites (each file starts a subgraph and its directory): long, so not in
 * `fast`, but, like `fast`, in worker threads that share the modules they have loaded, so that
 * type-graphql, Apollo Server and the subgraphs load once per thread rather than once per file (in
 * isolated forks: 58 s of CPU for test/organisation, 26 s so; 68 s for the three folders together).
 * The same rule as `fast`'s holds: a test here changes no global state.
 */
const SUBGRAPH_SUITES = ["test/people/**/*.test.ts", "test/organisation/**/*.test.ts", "test/legacy-time/**/*.test.ts"];
/**
 * The gateway's tests (a gateway over the three subgraphs, but for those of its configuration and
 * those listed in `slow`) and composition's: a project of their own in threads that share modules,
 * as SUBGRAPH_SUITES (in threads: 117 s of CPU for these 43 files, about 3 s a file less than in
 * isolated forks).
 */
const GATEWAY_SUITES = ["test/gateway/!(config).test.ts", "test/schema/**/*.test.ts"];
// the browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts)
const exclude = [...configDefaults.exclude, "test/browser/**"];

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    // graphql must load once: type-graphql is CommonJS and would otherwise pull a second copy.
    server: { deps: { inline: ["type-graphql"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // a worker per core in each pool (vitest's own default is one less: a single worker on 2 cores,
    // which ran the whole slow project one file at a time once the fast one was done); the slow
    // files wait on loopback, child processes and backoffs as much as they compute
    maxWorkers: availableParallelism(),
    // the threads of the fast, subgraphs and gateway projects (vitest reads pool options from here, not from a project):
    // the files of a worker share the modules it has loaded instead of loading them afresh each
    // (83 s of CPU become 28 s); so a fast test changes no global state (process.env, mocks, V8
    // flags), and one that must belongs in `slow`
    poolOptions: { threads: { isolate: false } },
    // readable-names: a test whose name reads "undefined" fails
    setupFiles: ["reflect-metadata", "./test/helpers/readable-names.ts"],
    // one log line per operation is for operators, not for test output
    env: { LOG_LEVEL: "warn" },
    // `npm test` runs them all; `npm run test:fast` (vitest run --project fast) the first alone
    projects: [
      // (an `include` or `exclude` here would be added to one at the top, so there is none at the top)
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: [...exclude, ...slow, ...PROCESSES, ...SUBGRAPH_SUITES, ...GATEWAY_SUITES],
          // in worker threads that do not isolate their files (poolOptions.threads above)
          pool: "threads",
        },
      },
      { extends: true, test: { name: "slow", include: slow, exclude: [...exclude, ...PROCESSES] } },
      { extends: true, test: { name: "processes", include: PROCESSES, exclude, testTimeout: 3 * STARTED_WITHIN_MS, hookTimeout: 3 * STARTED_WITHIN_MS } },
      { extends: true, test: { name: "subgraphs", include: SUBGRAPH_SUITES, exclude, pool: "threads" } },
      { extends: true, test: { name: "gateway", include: GATEWAY_SUITES, exclude: [...exclude, ...slow, ...PROCESSES], pool: "threads" } },
    ],
  },
});
