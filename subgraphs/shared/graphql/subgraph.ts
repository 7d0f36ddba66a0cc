import type { GraphQLSchema } from "graphql";
import type { SchemaNaming } from "./federation.js";
import { MetricsPortError, metricsPort, serveMetrics } from "../../../platform/metrics-port.js";
import type { HttpListener } from "../../../platform/http.js";
import { debugErrors as readDebugErrors, Environment, graphPrefix, isProduction, listenHost, subgraphLandingPage, subgraphSecret } from "../../../platform/config.js";
import { Logger, readLogLevel } from "../../../platform/log.js";
import { loadShutdownSettings, processLifecycle, stopOnSignals, type Lifecycle, type ShutdownSettings } from "../../../platform/lifecycle.js";
import { loadUpstreamConfig, Upstream, useExpectationLogger } from "../upstream/index.js";
import { loadOperationLimits, type OperationLimits } from "../../../platform/limits.js";
import { startSubgraph, type RunningSubgraph, type SubgraphContext } from "./server.js";
import { ingestionFor } from "../events/ingest.js";
import { EVENTS_PATH } from "../events/config.js";
import type { FieldChecks, IdRule } from "../../../platform/input-checks.js";
import type { FieldRules } from "../../../platform/field-rules.js";
import { startTracing, tracingSettings, type Tracing } from "../../../platform/tracing.js";

/** What each subgraph folder exports from its `index.ts`. */
export interface SubgraphModule {
  /** `people`, `organisation`, `legacy-time` */
  name: string;
  /** environment variable of its port, and the default port */
  portVariable: string;
  defaultPort: number;
  /** the subgraph's schema; `naming.prefix` namespaces it for a company supergraph (GRAPH_PREFIX) */
  buildSchema(naming?: SchemaNaming): Promise<GraphQLSchema>;
  /** the rule of the ids its arguments carry (default: the current API's) */
  ids?: IdRule;
  /** the id rule of particular fields' arguments by coordinate, where it is not `ids` */
  idsByField?: Readonly<Record<string, IdRule>>;
  /**
   * argument rules of particular fields, as data (platform/field-rules.ts), run on the whole
   * operation before it starts; `npm run schema` writes them to `schema/field-checks.json`, the
   * gateway's copy
   */
  fieldRules?: FieldRules;
  /** argument checks of particular fields the gateway does not run (a filter's REST query), after the rules */
  fieldChecks?: FieldChecks;
  /**
   * whether this subgraph's process takes the directory's events in (DIRECTORY_EVENTS): one
   * subgraph of the three, so that a deployment ingests once (docs/deploying.md#directory-events)
   */
  ingestsEvents?: boolean;
}

export interface StartOptions {
  upstream: Upstream;
  port?: number;
  host?: string;
  secret?: string | null;
  /** SUBGRAPH_LANDING_PAGE=sandbox */
  landingPage?: boolean;
  logger?: Logger;
  /** GRAPH_PREFIX: namespaces the subgraph's types and root fields (null: none) */
  prefix?: string | null;
  limits?: OperationLimits;
  production?: boolean;
  debugErrors?: boolean;
  /** the process's lifecycle when the subgraph faces callers itself (run alone): its stop drains it */
  lifecycle?: Lifecycle;
  /** SUBSCRIPTION_QUEUE: changes a subscriber may fall behind before it is closed (default 100) */
  subscriptionQueue?: number;
}

/** SUBSCRIPTION_QUEUE: how many changes one subscriber may fall behind before it is closed as too slow */
export function subscriptionQueue(env: NodeJS.ProcessEnv = process.env): number {
  return new Environment(env).integer("SUBSCRIPTION_QUEUE", 100, 1, 100_000);
}

/**
 * Starts a subgraph on its upstream client (whose change feed its caches listen to); the subgraph
 * that ingests the directory's events
 * serves their webhook route and starts the ingestion once it listens, and stops it on close.
 */
export async function startSubgraphModule(module: SubgraphModule, options: StartOptions): Promise<RunningSubgraph> {
  const ingestion = module.ingestsEvents ? ingestionFor(options.upstream, options.logger ?? new Logger(module.name)) : null;
  const running = await startSubgraph({
    name: module.name,
    schema: await module.buildSchema({ prefix: options.prefix ?? null }),
    upstream: options.upstream,
    port: options.port ?? 0,
    host: options.host,
    secret: options.secret,
    landingPage: options.landingPage,
    logger: options.logger,
    limits: options.limits,
    production: options.production,
    debugErrors: options.debugErrors,
    ids: module.ids,
    ...(module.idsByField ? { idsByField: module.idsByField } : {}),
    fieldRules: module.fieldRules,
    fieldChecks: module.fieldChecks,
    prefix: options.prefix ?? null,
    lifecycle: options.lifecycle,
    ...(ingestion ? { routes: { [EVENTS_PATH]: ingestion.receive } } : {}),
    // the upstream client's change feed: the ingestion publishes on it, subscriptions are served from it
    changes: { feed: options.upstream.changes, queue: options.subscriptionQueue ?? 100 },
  });
  if (!ingestion) return running;
  await ingestion.start();
  return {
    ...running,
    async close() {
      await ingestion.stop();
      await running.close();
    },
  };
}

/**
 * Runs one subgraph as its own process (`npm run subgraph:<name>`), configured from the
 * environment: a wrong variable exits with status 2 and a message naming it, a port that cannot
 * be listened on with status 1; SIGINT and SIGTERM close the server and exit 0.
 */
export async function runSubgraphMain(module: SubgraphModule): Promise<void> {
  let logger: Logger;
  let upstream: Upstream;
  let port: number;
  let prefix: string | null;
  let landingPage: boolean;
  let limits: OperationLimits;
  let debugErrors: boolean;
  let tracing: Tracing | null;
  let shutdown: ShutdownSettings;
  let production: boolean;
  let secret: string | null;
  let host: string;
  let metricsOn: number | null;
  let queue: number;
  try {
    logger = new Logger(module.name, readLogLevel());
    production = isProduction();
    secret = subgraphSecret();
    host = listenHost();
    metricsOn = metricsPort();
    port = new Environment().port(module.portVariable, module.defaultPort);
    prefix = graphPrefix();
    limits = loadOperationLimits();
    debugErrors = readDebugErrors();
    landingPage = subgraphLandingPage();
    tracing = await startTracing(tracingSettings(process.env, `directory-graph-${module.name}`));
    const upstreamConfig = loadUpstreamConfig(process.env);
    shutdown = loadShutdownSettings(process.env, [{ variable: "SUBGRAPH_DEADLINE_MS", ms: upstreamConfig.deadlineMs }]);
    upstream = new Upstream(upstreamConfig, logger);
    queue = subscriptionQueue();
    useExpectationLogger(logger);
  } catch (err) {
    console.error(`${module.name}: configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  let running: RunningSubgraph;
  let metrics: HttpListener | null = null;
  try {
    if (metricsOn !== null) metrics = await serveMetrics(metricsOn, host, logger);
    running = await startSubgraphModule(module, {
      upstream,
      port,
      host,
      secret,
      landingPage,
      logger,
      prefix,
      limits,
      production,
      debugErrors,
      lifecycle: processLifecycle,
      subscriptionQueue: queue,
    });
  } catch (err) {
    // the port named is the one that failed: the metrics port's, or the subgraph's own
    const failed = err instanceof MetricsPortError ? { setting: err.setting, port: err.port } : { setting: module.portVariable, port };
    logger.error("cannot start", { ...failed, error: (err as Error).message });
    await upstream.close();
    process.exit(1);
  }
  logger.info("listening", { url: running.url, upstream: upstream.config.baseUrl, auth: upstream.config.auth, ...(metrics ? { metrics: `${metrics.origin}/metrics` } : {}) });
  stopOnSignals({
    logger,
    settings: shutdown,
    close: async () => {
      await running.close();
      await metrics?.close();
      await upstream.close();
    },
    tracing,
  });
}
