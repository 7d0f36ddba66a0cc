/**
 * MERGE WITH ISSUE 23: the counters of the replica features (trusted documents, rate limits, the
 * shared state on Redis and its fallbacks). `platform/metrics.ts` (prom-client, `GET /metrics`)
 * had not landed when these were written: each one below becomes a prom-client Counter of the
 * same name and labels registered there, and this file goes. Until then they are plain counters
 * in the process that tests and the logs read.
 */

type Labels = Record<string, string>;

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = this.labelNames.map((n) => labels[n] ?? "").join("\u0000");
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  /** the total of the series whose labels include `labels` */
  value(labels: Labels = {}): number {
    let total = 0;
    for (const [key, value] of this.values) {
      const parts = key.split("\u0000");
      if (this.labelNames.every((n, i) => labels[n] === undefined || labels[n] === parts[i])) total += value;
    }
    return total;
  }
}

export const replicaMetrics = {
  /** outcome: served (listed), unlisted_served (log mode), refused_unknown_document, refused_unknown_hash, refused_hash_mismatch */
  trustedDocuments: new Counter("graphql_trusted_documents_total", "Operations by trusted-document outcome", ["outcome"]),
  /** limit: operations, writes, cost, refused_token */
  rateLimited: new Counter("graphql_rate_limited_total", "Operations refused by a per-client limit", ["limit"]),
  /** use: apq, etag, budget, rate_limit, refused_tokens */
  sharedStateFallbacks: new Counter("shared_state_fallbacks_total", "Uses of Redis that fell back to the in-process form", ["use"]),
  /** use, result: hit or miss */
  sharedCacheLookups: new Counter("shared_cache_lookups_total", "Lookups of a shared cache", ["use", "result"]),
  /** api: current, legacy; outcome: paced (waited for the budget), exceeded (UPSTREAM_BUDGET_EXCEEDED) */
  upstreamBudget: new Counter("upstream_budget_waits_total", "Upstream requests paced or refused by DIRECTORY_RATE_LIMIT", ["api", "outcome"]),
};
