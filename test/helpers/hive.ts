import { createGatewayRuntime, type GatewayRuntime } from "@graphql-hive/gateway-runtime";
import { buildHTTPExecutor, type AsyncFetchFn } from "@graphql-tools/executor-http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
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

export interface ServedHive {
  /** its GraphQL endpoint */
  url: string;
  /** closes its server (and the connections left open) and disposes of the runtime */
  close(): Promise<void>;
}

/** `hiveRuntime` behind an HTTP server of its own on a free loopback port, as a company serves it. */
export async function serveHive(gatewayEnv: Record<string, string>, options: HiveOptions = {}): Promise<ServedHive> {
  const hive = await hiveRuntime(gatewayEnv, options);
  const server = createServer(hive);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await hive.dispose();
    },
  };
}
