import { createGatewayRuntime, type GatewayRuntime } from "@graphql-hive/gateway-runtime";
import { buildHTTPExecutor, type AsyncFetchFn } from "@graphql-tools/executor-http";
import { hiveGatewayConfig } from "../../gateway/hive.config.js";

export interface HiveOptions {
  /** Hive's Rust query planner (`@graphql-hive/router-runtime`'s `unifiedGraphHandler`) in place of its JS one */
  rustPlanner?: boolean;
  /** told of every request the runtime sends a subgraph, with its body */
  onSubgraphFetch?: (subgraph: string, body: string) => void;
}

/**
 * Hive Gateway serving the committed supergraph over a stack's subgraphs, as a company's router
 * would (gateway/hive.config.ts), quiet. `@graphql-mesh/transport-http` (the package the runtime
 * would load for `http` subgraphs) is not installed; it is a thin wrapper of this executor from
 * the runtime's own dependencies, on the runtime's fetch (whose hooks pass the configuration's
 * propagated headers on).
 */
export async function hiveRuntime(gatewayEnv: Record<string, string>, options: HiveOptions = {}): Promise<GatewayRuntime> {
  const { onSubgraphFetch } = options;
  return createGatewayRuntime({
    ...hiveGatewayConfig(gatewayEnv),
    transports: {
      http: {
        getSubgraphExecutor: ({ transportEntry, fetch }) =>
          buildHTTPExecutor({
            endpoint: transportEntry.location!,
            fetch: (onSubgraphFetch
              ? (url: string, init?: { body?: unknown }) => {
                  onSubgraphFetch(transportEntry.subgraph, String(init?.body ?? ""));
                  return (fetch as AsyncFetchFn)(url, init as never);
                }
              : fetch) as AsyncFetchFn,
          }),
      },
    },
    ...(options.rustPlanner ? { unifiedGraphHandler: (await import("@graphql-hive/router-runtime")).unifiedGraphHandler } : {}),
    logging: false,
    landingPage: false,
  });
}
