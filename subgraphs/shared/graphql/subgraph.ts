import type { GraphQLSchema } from "graphql";
import { parsePort } from "../env.js";
import { Logger, parseLogLevel } from "../log.js";
import { loadUpstreamConfig, Upstream } from "../upstream/index.js";
import { startSubgraph, type RunningSubgraph } from "./server.js";
import type { FieldChecks, IdRule } from "./input-checks.js";

/** What each subgraph folder exports from its `index.ts`. */
export interface SubgraphModule {
  /** `people`, `organisation`, `legacy-time` */
  name: string;
  /** environment variable of its port, and the default port */
  portVariable: string;
  defaultPort: number;
  buildSchema(): Promise<GraphQLSchema>;
  /** the rule of the ids its arguments carry (default: the current API's) */
  ids?: IdRule;
  /** argument checks of particular fields, run on the whole operation before it starts */
  fieldChecks?: FieldChecks;
}

export interface StartOptions {
  upstream: Upstream;
  port?: number;
  host?: string;
  secret?: string | null;
  logger?: Logger;
}

export async function startSubgraphModule(module: SubgraphModule, options: StartOptions): Promise<RunningSubgraph> {
  return startSubgraph({
    name: module.name,
    schema: await module.buildSchema(),
    upstream: options.upstream,
    port: options.port ?? 0,
    host: options.host,
    secret: options.secret,
    logger: options.logger,
    ids: module.ids,
    fieldChecks: module.fieldChecks,
  });
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
  try {
    logger = new Logger(module.name, parseLogLevel(process.env.LOG_LEVEL));
    port = parsePort(module.portVariable, process.env[module.portVariable], module.defaultPort);
    upstream = new Upstream(loadUpstreamConfig(process.env));
  } catch (err) {
    console.error(`${module.name}: configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  let running: RunningSubgraph;
  try {
    running = await startSubgraphModule(module, {
      upstream,
      port,
      host: process.env.HOST,
      secret: process.env.SUBGRAPH_SECRET || null,
      logger,
    });
  } catch (err) {
    logger.error("cannot start", { port, error: (err as Error).message });
    await upstream.close();
    process.exit(1);
  }
  logger.info("listening", { url: running.url, upstream: upstream.config.baseUrl, auth: upstream.config.auth });
  const stop = async () => {
    logger.info("shutting down");
    await running.close();
    await upstream.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
