import { directoryBanner } from "../directory/options.js";
import { Logger } from "../platform/log.js";
import { ConfigError } from "../platform/config.js";
import { loadShutdownSettings, stopOnSignals, type ShutdownSettings } from "../platform/lifecycle.js";
import { loadEmbeddedConfig, startEmbedded, type Embedded, type EmbeddedConfig } from "./embedded.js";
import { startTracing, tracingSettings, type Tracing } from "../platform/tracing.js";

/**
 * `npm start`: the embedded default in one process (scripts/embedded.ts), its URLs printed.
 * Each component also runs alone: `npm run directory`, `npm run subgraph:<name>`, `npm run gateway`.
 * Exit status 2: a configuration error (nothing was started); 1: a component could not start.
 */

let config: EmbeddedConfig;
let tracing: Tracing | null;
let shutdown: ShutdownSettings;
try {
  config = await loadEmbeddedConfig(process.env);
  // one provider for the whole process: its spans tell the components apart by their attribute
  // `directory_graph.component`
  tracing = await startTracing(tracingSettings(process.env, "directory-graph"));
  shutdown = loadShutdownSettings(process.env, [
    { variable: "GATEWAY_DEADLINE_MS", ms: config.gateway.deadlineMs },
    { variable: "SUBGRAPH_DEADLINE_MS", ms: config.upstream.deadlineMs },
  ]);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`start: configuration error: ${err.message}`);
  process.exit(2);
}

let embedded: Embedded;
try {
  embedded = await startEmbedded(config);
} catch (err) {
  console.error(`start: cannot start: ${(err as Error).message}`);
  process.exit(1);
}

const { directory, subgraphs, gateway, upstream } = embedded;
const logger = new Logger("start", config.gateway.logLevel);
// the gateway faces callers (its /ready drains); the subgraphs and the directory close after it.
// Before the banner: a signal sent on reading it must find the handlers (without one, the kernel's
// default kills node undrained)
stopOnSignals({
  logger,
  settings: shutdown,
  close: () => embedded.close(),
  tracing,
});

if (directory) console.log(directoryBanner(directory));
for (const subgraph of subgraphs) console.log(`subgraph ${subgraph.name}: ${subgraph.url}`);
console.log(`gateway: ${gateway.url}  (${config.gateway.production ? "Apollo Sandbox disabled in production" : `Apollo Sandbox at ${gateway.url}`})`);
logger.info("ready", { gateway: gateway.url, upstream: upstream.config.baseUrl, auth: upstream.config.auth });
