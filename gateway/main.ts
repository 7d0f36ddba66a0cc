import { Logger } from "../platform/log.js";
import { loadShutdownSettings, stopOnSignals, type ShutdownSettings } from "../platform/lifecycle.js";
import { loadGatewayConfig, type GatewayConfig } from "./config.js";
import { startGateway, type RunningGateway } from "./gateway.js";
import { startTracing, tracingSettings, type Tracing } from "../platform/tracing.js";
import { metricsPort, serveMetrics } from "../platform/metrics-port.js";
import type { HttpListener } from "../platform/http.js";

/**
 * The gateway as its own process (`npm run gateway`), configured from the environment.
 * Exit status 2: a configuration error; 1: it could not start (supergraph file unreadable,
 * subgraphs unreachable in introspect mode, port taken).
 */
let config: GatewayConfig;
let tracing: Tracing | null;
let shutdown: ShutdownSettings;
let metricsOn: number | null;
try {
  config = loadGatewayConfig(process.env);
  metricsOn = metricsPort();
  tracing = await startTracing(tracingSettings(process.env, "directory-graph-gateway"));
  shutdown = loadShutdownSettings(process.env, [{ variable: "GATEWAY_DEADLINE_MS", ms: config.deadlineMs }]);
} catch (err) {
  console.error(`gateway: configuration error: ${(err as Error).message}`);
  process.exit(2);
}
const logger = new Logger("gateway", config.logLevel);
let running: RunningGateway;
let metrics: HttpListener | null = null;
try {
  if (metricsOn !== null) metrics = await serveMetrics(metricsOn, config.host, logger);
  running = await startGateway(config, logger);
} catch (err) {
  console.error(`gateway: cannot start: ${(err as Error).message}`);
  process.exit(1);
}
logger.info("listening", { url: running.url, compose: config.compose, subgraphs: config.subgraphUrls, ...(metrics ? { metrics: `${metrics.origin}/metrics` } : {}) });
stopOnSignals({
  logger,
  settings: shutdown,
  close: async () => {
    await running.close();
    await metrics?.close();
  },
  tracing,
});
