import { createGatewayRuntime, type GatewayRuntime } from "@graphql-hive/gateway-runtime";
import { buildHTTPExecutor, type AsyncFetchFn } from "@graphql-tools/executor-http";
import { hiveGatewayConfig } from "../../gateway/hive.config.js";

/**
 * Hive Gateway serving the committed supergraph over a stack's subgraphs, as a company's router
 * would (gateway/hive.config.ts), quiet. `@graphql-mesh/transport-http` (the package the runtime
 * would load for `http` subgraphs) is not installed; it is a thin wrapper of this executor from
 * the runtime's own dependencies, on the runtime's fetch (whose hooks pass the configuration's
 * propagated headers on).
 */
export function hiveRuntime(gatewayEnv: Record<string, string>): GatewayRuntime {
  return createGatewayRuntime({
    ...hiveGatewayConfig(gatewayEnv),
    transports: {
      http: {
        getSubgraphExecutor: ({ transportEntry, fetch }) => buildHTTPExecutor({ endpoint: transportEntry.location!, fetch: fetch as AsyncFetchFn }),
      },
    },
    logging: false,
    landingPage: false,
  });
}
