import "reflect-metadata";
import { loadGatewayConfig } from "../gateway/config.js";
import { startGateway } from "../gateway/gateway.js";
import { directoryBanner, directoryOptionsFromEnv } from "../directory/options.js";
import { startDirectory, type RunningDirectory } from "../directory/server.js";
import { parsePort } from "../subgraphs/shared/env.js";
import type { RunningSubgraph } from "../subgraphs/shared/graphql/server.js";
import { startSubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";
import { Logger } from "../subgraphs/shared/log.js";
import { loadUpstreamConfig, Upstream } from "../subgraphs/shared/upstream/index.js";
import { subgraphModules } from "./subgraphs.js";

/**
 * `npm start`: the embedded default in one process — the in-process directory service (unless
 * DIRECTORY_BASE_URL points at a real upstream), the three subgraphs and the gateway.
 * Each also runs alone: `npm run directory`, `npm run subgraph:<name>`, `npm run gateway`.
 */

const env = process.env;
const logger = new Logger("start");
let directory: RunningDirectory | null = null;
let upstream: Upstream;
try {
  if (!env.DIRECTORY_BASE_URL) {
    directory = await startDirectory({
      ...directoryOptionsFromEnv(env),
      port: parsePort("DIRECTORY_PORT", env.DIRECTORY_PORT, 4010),
    });
    console.log(directoryBanner(directory));
  }
  upstream = new Upstream(loadUpstreamConfig(env));
} catch (err) {
  console.error(`configuration error: ${(err as Error).message}`);
  await directory?.close();
  process.exit(2);
}

const subgraphs: RunningSubgraph[] = [];
for (const module of await subgraphModules()) {
  const running = await startSubgraphModule(module, {
    upstream,
    port: parsePort(module.portVariable, env[module.portVariable], module.defaultPort),
    host: env.HOST,
    secret: env.SUBGRAPH_SECRET || null,
    logger: new Logger(module.name),
  });
  subgraphs.push(running);
  console.log(`subgraph ${module.name}: ${running.url}`);
}

const gatewayConfig = loadGatewayConfig(env);
const gateway = await startGateway(gatewayConfig);
console.log(`gateway: ${gateway.url}  (Apollo Sandbox${gatewayConfig.production ? " disabled in production" : ` at ${gateway.url}`})`);
logger.info("ready", { gateway: gateway.url, upstream: upstream.config.baseUrl, auth: upstream.config.auth });

const stop = async () => {
  logger.info("shutting down");
  await gateway.close();
  await Promise.all(subgraphs.map((s) => s.close()));
  await upstream.close();
  await directory?.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
