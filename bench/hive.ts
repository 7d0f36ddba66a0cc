import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";
import { buildHTTPExecutor, type AsyncFetchFn } from "@graphql-tools/executor-http";
import { hiveGatewayConfig } from "../gateway/hive.config.js";
import { serveRuntime } from "./serve-runtime.js";

/**
 * Hive Gateway serving the committed supergraph (gateway/hive.config.ts) as its own process, on
 * GATEWAY_PORT; with BENCH_HIVE_PLANNER=rust, with the Rust query planner of
 * `@graphql-hive/router-runtime`. Prints `bench-hive <url>` once it listens.
 */

const rust = process.env.BENCH_HIVE_PLANNER === "rust";
const runtime = createGatewayRuntime({
  ...hiveGatewayConfig(process.env),
  logging: process.env.BENCH_HIVE_LOG === "1" ? "debug" : false,
  maskedErrors: false,
  landingPage: false,
  // `@graphql-mesh/transport-http`, which the Hive CLI bundles, is not installed: it is a thin
  // wrapper of this executor (in-flight deduplication of identical queries included, its default)
  transports: {
    http: {
      getSubgraphExecutor: ({ transportEntry, fetch }) => buildHTTPExecutor({ endpoint: transportEntry.location!, fetch: fetch as AsyncFetchFn }),
    },
  },
  ...(rust ? { unifiedGraphHandler: (await import("@graphql-hive/router-runtime")).unifiedGraphHandler } : {}),
});
serveRuntime(runtime, "bench-hive");
