import { loadGatewayConfig, type GatewayConfig } from "../gateway/config.js";
import { startGateway, type GatewayInjections, type RunningGateway } from "../gateway/gateway.js";
import type { Logger } from "../platform/log.js";
import { startStack, type GraphQLResponse, type Stack, type StackOptions } from "./stack.js";

/**
 * The whole graph on loopback with ephemeral ports: the in-process directory, the three
 * subgraphs and the gateway in front of them, configured the way `npm start` configures them
 * (the gateway from its environment variables, the subgraph URLs pointing at the running ones).
 */

export interface GatewayStack extends Stack {
  gateway: RunningGateway;
  gatewayConfig: GatewayConfig;
  /** POST an operation to the gateway */
  query<D = any>(source: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse<D>>;
  /** the gateway environment used, with the running subgraphs' URLs (to start another gateway alike) */
  gatewayEnv: Record<string, string>;
}

export interface GatewayStackOptions extends StackOptions {
  /** environment of the gateway beyond the subgraph URLs (e.g. GATEWAY_COMPOSE=introspect, NODE_ENV) */
  gatewayEnv?: Record<string, string>;
  /** the gateway's logger (default: its own, at LOG_LEVEL silent) */
  gatewayLogger?: Logger;
  /** what the test injects into the gateway (gateway/gateway.ts: the versions gateway/apollo/ checks) */
  gatewayInjections?: GatewayInjections;
}

export async function startGatewayStack(options: GatewayStackOptions = {}): Promise<GatewayStack> {
  const stack = await startStack({ ...options, subgraphs: ["people", "organisation", "legacy-time"] });
  try {
    const gatewayEnv: Record<string, string> = {
      ...options.env,
      ...(options.secret ? { SUBGRAPH_SECRET: options.secret } : {}),
      ...(options.prefix ? { GRAPH_PREFIX: options.prefix } : {}),
      GATEWAY_PORT: "0",
      PEOPLE_URL: stack.subgraphs.people!.url,
      ORGANISATION_URL: stack.subgraphs.organisation!.url,
      LEGACY_TIME_URL: stack.subgraphs["legacy-time"]!.url,
      LOG_LEVEL: "silent",
      ...options.gatewayEnv,
    };
    const gatewayConfig = loadGatewayConfig(gatewayEnv);
    const gateway = await startGateway(gatewayConfig, options.gatewayLogger, options.gatewayInjections);
    return {
      ...stack,
      gateway,
      gatewayConfig,
      gatewayEnv,
      query: (source, variables, headers) => stack.gql(gateway.url, source, variables, headers),
      async close() {
        await gateway.close();
        await stack.close();
      },
    };
  } catch (err) {
    await stack.close();
    throw err;
  }
}

/** Starts one more gateway against the subgraphs of a running stack, with environment overrides. */
export async function startExtraGateway(stack: GatewayStack, env: Record<string, string> = {}): Promise<RunningGateway> {
  return startGateway(loadGatewayConfig({ ...stack.gatewayEnv, ...env }));
}
