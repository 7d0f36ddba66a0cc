import type { GraphQLSchema } from "graphql";
import { parsePort } from "../env.js";
import { Logger } from "../log.js";
import { loadUpstreamConfig, Upstream } from "../upstream/index.js";
import { startSubgraph, type RunningSubgraph } from "./server.js";

/** What each subgraph folder exports from its `index.ts`. */
export interface SubgraphModule {
  /** `people`, `organisation`, `legacy-time` */
  name: string;
  /** environment variable of its port, and the default port */
  portVariable: string;
  defaultPort: number;
  buildSchema(): Promise<GraphQLSchema>;
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
  });
}

/** Runs one subgraph as its own process (`npm run subgraph:<name>`), configured from the environment. */
export async function runSubgraphMain(module: SubgraphModule): Promise<void> {
  const logger = new Logger(module.name);
  let upstream: Upstream;
  let port: number;
  try {
    port = parsePort(module.portVariable, process.env[module.portVariable], module.defaultPort);
    upstream = new Upstream(loadUpstreamConfig(process.env));
  } catch (err) {
    console.error(`${module.name}: configuration error: ${(err as Error).message}`);
    process.exit(2);
  }
  const running = await startSubgraphModule(module, {
    upstream,
    port,
    host: process.env.HOST,
    secret: process.env.SUBGRAPH_SECRET || null,
    logger,
  });
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
