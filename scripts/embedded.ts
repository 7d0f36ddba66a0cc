import "reflect-metadata";
import { directoryOptionsFromEnv } from "../directory/options.js";
import { startDirectory, type DirectoryOptions, type RunningDirectory } from "../directory/server.js";
import { loadGatewayConfig, type GatewayConfig, type SubgraphName } from "../gateway/config.js";
import { startGateway, type RunningGateway } from "../gateway/gateway.js";
import { directoryPort, Environment, subgraphLandingPage, subgraphSecret } from "../platform/config.js";
import type { RunningSubgraph } from "../subgraphs/shared/graphql/server.js";
import { startSubgraphModule, type SubgraphModule } from "../subgraphs/shared/graphql/subgraph.js";
import { Logger } from "../platform/log.js";
import { loadUpstreamConfig, Upstream, type UpstreamConfig } from "../subgraphs/shared/upstream/index.js";
import { subgraphModules } from "./subgraphs.js";
import { EVENTS_PATH } from "../subgraphs/shared/events/config.js";

/**
 * The embedded default of `npm start`, in one process: the in-process directory service (unless
 * DIRECTORY_BASE_URL names a real upstream), the three subgraphs and the gateway. The whole
 * configuration is read and checked before anything starts, so that a wrong variable stops with
 * one message rather than after half the components are up. Port variables may be 0 (a free
 * port): each component is wired to the addresses the others actually got.
 */

export interface EmbeddedConfig {
  /** the in-process directory; null when DIRECTORY_BASE_URL points at a real upstream */
  directory: DirectoryOptions | null;
  upstream: UpstreamConfig;
  subgraphs: Array<{ module: SubgraphModule; port: number }>;
  /** SUBGRAPH_SECRET */
  secret: string | null;
  /** SUBGRAPH_LANDING_PAGE=sandbox */
  subgraphLandingPage: boolean;
  /** the gateway's own settings; its subgraph URLs are replaced by the running subgraphs' */
  gateway: GatewayConfig;
}

export interface Embedded {
  directory: RunningDirectory | null;
  upstream: Upstream;
  subgraphs: RunningSubgraph[];
  gateway: RunningGateway;
  /** stops the gateway first, then the subgraphs, the upstream client and the directory */
  close(): Promise<void>;
}

/** Loopback: in the embedded default only the gateway faces callers (HOST), the rest is internal. */
const INTERNAL_HOST = "127.0.0.1";

/** Throws a ConfigError naming the first wrong variable. */
export async function loadEmbeddedConfig(env: NodeJS.ProcessEnv): Promise<EmbeddedConfig> {
  const modules = await subgraphModules();
  const e = new Environment(env);
  const embedded = e.text("DIRECTORY_BASE_URL") === undefined;
  const subgraphs = modules.map((module) => ({ module, port: e.port(module.portVariable, module.defaultPort) }));
  return {
    directory: embedded ? { ...directoryOptionsFromEnv(env), port: directoryPort(env) } : null,
    // the in-process directory's address is known once it listens: checked here without it
    upstream: loadUpstreamConfig(embedded ? { ...env, ...loopbackWebhook(env, subgraphs), DIRECTORY_PORT: undefined } : env),
    subgraphs,
    secret: subgraphSecret(env),
    subgraphLandingPage: subgraphLandingPage(env),
    gateway: loadGatewayConfig(env),
  };
}

/**
 * Under `npm start` the in-process directory delivers its events to the people subgraph over
 * loopback, as the production service delivers to a deployment (docs/configuration.md#directory-events):
 * DIRECTORY_EVENTS defaults to `webhook` there, at that subgraph's own address, unless the
 * environment chooses (DIRECTORY_EVENTS set), the subgraph's port is not known before it listens
 * (0), or the facade has no identity of its own to declare the endpoint with (forward mode).
 */
function loopbackWebhook(env: NodeJS.ProcessEnv, subgraphs: ReadonlyArray<{ module: SubgraphModule; port: number }>): NodeJS.ProcessEnv {
  const ingesting = subgraphs.find((s) => s.module.ingestsEvents);
  if (env.DIRECTORY_EVENTS !== undefined || env.DIRECTORY_AUTH === "forward" || !ingesting || ingesting.port === 0) return {};
  return { DIRECTORY_EVENTS: "webhook", DIRECTORY_EVENTS_PUBLIC_URL: env.DIRECTORY_EVENTS_PUBLIC_URL ?? `http://${INTERNAL_HOST}:${ingesting.port}${EVENTS_PATH}` };
}

export async function startEmbedded(config: EmbeddedConfig): Promise<Embedded> {
  const level = config.gateway.logLevel;
  const running: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const component of running.splice(0).reverse()) await component.close();
  };
  try {
    const directory = config.directory ? await startDirectory({ ...config.directory, host: INTERNAL_HOST }) : null;
    if (directory) running.push(directory);
    const upstream = new Upstream(
      directory ? { ...config.upstream, baseUrl: directory.url, tokenUrl: `${directory.url}/connect/token` } : config.upstream,
      new Logger("upstream", level),
    );
    running.push(upstream);
    const subgraphs: RunningSubgraph[] = [];
    for (const { module, port } of config.subgraphs) {
      const subgraph = await startSubgraphModule(module, {
        upstream,
        port,
        host: INTERNAL_HOST,
        secret: config.secret,
        logger: new Logger(module.name, level),
        prefix: config.gateway.prefix,
        limits: config.gateway.limits,
        production: config.gateway.production,
        debugErrors: config.gateway.debugErrors,
        landingPage: config.subgraphLandingPage,
      });
      running.push(subgraph);
      subgraphs.push(subgraph);
    }
    const subgraphUrls = Object.fromEntries(subgraphs.map((s) => [s.name, s.url])) as Record<SubgraphName, string>;
    const gateway = await startGateway({ ...config.gateway, subgraphUrls }, new Logger("gateway", level));
    running.push(gateway);
    return { directory, upstream, subgraphs, gateway, close };
  } catch (err) {
    await close();
    throw err;
  }
}
