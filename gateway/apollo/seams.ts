import type { GatewayConfig as ApolloGatewayConfig } from "@apollo/gateway";
import type { Logger } from "../../platform/log.js";
import type { SubgraphFetch } from "../subgraph-fetch.js";
import { SubgraphDataSource } from "../subgraph-source.js";
import { installSendRequest, PatchedDataSource } from "./data-source.js";
import { checkInternals, installedVersions } from "./internals.js";
import { installResultShaping } from "./result-shaping.js";
import { speculate } from "./speculate.js";
import type { SpeculationBrake } from "../speculation-brake.js";

/**
 * The one place the gateway takes its patches of `@apollo/gateway` (docs/graph.md#the-gateways-seams):
 * when internals.ts's check passes, the patched data source (data-source.ts), the compiled result
 * shaping (result-shaping.ts) and the plans' speculation (speculate.ts); otherwise stock
 * `@apollo/gateway` with the gateway's public hooks only (subgraph-source.ts), and one warning.
 *
 * The gateway-side round-saving mechanisms are switched here, each when the check passes
 * (docs/graph.md#which-mechanism-fires-when):
 * - lookup speculation: GATEWAY_LOOKUP_SPECULATION (default true); a root lookup by id's next entity fetch starts with the root fetch
 * - announcements: for the subgraphs of GATEWAY_PREFETCH (default organisation)
 * - the split: GATEWAY_SPLIT_ROOT_FETCH (default true)
 * all three held while the subgraph or the gateway is saturated (GATEWAY_SPECULATION_MAX_LOAD).
 */
export interface Seams {
  /** whether the patches run (false: stock @apollo/gateway) */
  patched: boolean;
  dataSource(name: string, url: string, secret: string | null, fetch: SubgraphFetch): SubgraphDataSource;
  /** ApolloGateway's `experimental_didResolveQueryPlan`, on the patched path */
  didResolveQueryPlan?: ApolloGatewayConfig["experimental_didResolveQueryPlan"];
}

export interface SeamOptions {
  prefetch: ReadonlySet<string>;
  splitRootFetch: boolean;
  /** GATEWAY_LOOKUP_SPECULATION (default true): lookup speculation (speculate.ts) */
  lookups?: boolean;
  brake: SpeculationBrake;
  /**
   * most queries one batch may merge: the subgraphs' GRAPHQL_MAX_ROOT_FIELDS (every process is
   * given the same), since each is one root field of the batch (data-source.ts)
   */
  maxBatch: number;
  /** the installed versions, as the check reads them (injectable: the test of the fallback) */
  versions?: { gateway: string; queryPlanner: string };
}

export function apolloSeams(options: SeamOptions, logger: Logger): Seams {
  const verdict = checkInternals(options.versions ?? installedVersions());
  if (!verdict.ok) {
    logger.warn(`gateway/apollo/ is off, the gateway runs on stock @apollo/gateway: ${verdict.reason}`);
    return { patched: false, dataSource: (name, url, secret, fetch) => new SubgraphDataSource(name, url, secret, fetch) };
  }
  installResultShaping();
  installSendRequest();
  const { prefetch, splitRootFetch, brake, maxBatch, lookups = true } = options;
  return {
    patched: true,
    dataSource: (name, url, secret, fetch) => new PatchedDataSource(name, url, secret, fetch, maxBatch),
    didResolveQueryPlan: (resolved) => speculate(resolved as unknown as Parameters<typeof speculate>[0], prefetch, splitRootFetch, brake, lookups),
  };
}
