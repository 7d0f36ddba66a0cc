import { Counter } from "prom-client";
import { processMetrics } from "./metrics.js";

/**
 * The counters of the replica features (trusted documents, per-client limits, the shared state
 * on Redis and its fallbacks, the upstream request budget), registered on the process's registry
 * of platform/metrics.ts and so scraped at `GET /metrics` with the others. Every label has a
 * fixed set of values (listed on each). Refusals that stop an operation are also counted in
 * `graphql_refusals_total` under their limit's name (`refuse` below).
 */

const registers = () => [processMetrics().registry];

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter({ name, help, labelNames, registers: registers() });
}

export const replicaMetrics = {
  /** outcome: served (listed), unlisted_served (log mode), refused_unknown_document, refused_unknown_hash, refused_hash_mismatch */
  trustedDocuments: counter("graphql_trusted_documents_total", "Operations by trusted-document outcome (GATEWAY_TRUSTED_DOCUMENTS)", ["outcome"]),
  /** use: apq, etag, budget, rate_limit, refused_tokens */
  sharedStateFallbacks: counter("shared_state_fallbacks_total", "Uses of Redis that fell back to the process's own state (Redis absent from the connection, failing or slow)", ["use"]),
  /** use: apq, etag; result: hit, miss */
  sharedCacheLookups: counter("shared_cache_lookups_total", "Lookups of a cache shared through Redis, by use and result", ["use", "result"]),
  /** api: current, legacy; outcome: paced (waited for its slot), exceeded (UPSTREAM_BUDGET_EXCEEDED) */
  upstreamBudget: counter("upstream_rate_budget_total", "Upstream requests paced or refused by DIRECTORY_RATE_LIMIT, by API and outcome", ["api", "outcome"]),
};

/**
 * An operation the gateway refused by one of its replica limits, in `graphql_refusals_total`:
 * `rateLimit…` (per client: operations, writes, cost), `refusedToken`, `trustedDocuments`. A
 * subgraph's refusals (a refused token, DIRECTORY_RATE_LIMIT) are counted with the upstream
 * client's others, under the subgraph's own name (upstream/observe.ts `refusedUpstream`).
 */
export function refuse(component: "gateway", limit: "rateLimitOperations" | "rateLimitWrites" | "rateLimitCost" | "refusedToken" | "trustedDocuments"): void {
  processMetrics().refused(component, limit);
}
