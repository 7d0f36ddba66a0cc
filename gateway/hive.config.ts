import type { GatewayConfigSupergraph } from "@graphql-hive/gateway-runtime";
import { SUBGRAPH_SECRET_HEADER } from "../platform/headers.js";
import { loadGatewayConfig, SUBGRAPH_NAMES } from "./config.js";

/**
 * The committed supergraph on Hive Gateway, configured from the same environment variables as our
 * gateway (PEOPLE_URL, ORGANISATION_URL, LEGACY_TIME_URL or the port variables,
 * GATEWAY_SUPERGRAPH, SUBGRAPH_SECRET), so that it routes to wherever the subgraphs run:
 *
 *   npx @graphql-hive/gateway supergraph --config-path gateway/hive.config.ts --port 4100
 *
 * The caller's `Authorization` header and the subgraph secret are passed on to every subgraph,
 * as our gateway does. The test suite runs this configuration with `@graphql-hive/gateway-runtime`.
 */
export function hiveGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfigSupergraph {
  const config = loadGatewayConfig(env);
  return {
    supergraph: config.supergraphPath,
    // the supergraph's routing URLs are the embedded demo's fixed ports; these replace them
    transportEntries: Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, { location: config.subgraphUrls[name] }])),
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => ({
        authorization: request.headers.get("authorization") ?? undefined,
        ...(config.subgraphSecret ? { [SUBGRAPH_SECRET_HEADER]: config.subgraphSecret } : {}),
      }),
    },
  };
}

/** what the `hive-gateway` command reads from a configuration file */
export const gatewayConfig = hiveGatewayConfig();
