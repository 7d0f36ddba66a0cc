import type { Logger } from "../../platform/log.js";
import type { SubgraphFetch } from "../subgraph-fetch.js";
import { SubgraphDataSource } from "../subgraph-source.js";
import { installSendRequest, PatchedDataSource } from "./data-source.js";
import { checkInternals, installedVersions } from "./internals.js";
import { installResultShaping } from "./result-shaping.js";

/**
 * The one place the gateway takes its patches of `@apollo/gateway` (docs/performance.md#the-gateways-seams):
 * when internals.ts's check passes, the patched data source and the compiled result shaping;
 * otherwise stock `@apollo/gateway` with the gateway's public hooks only (subgraph-source.ts), and
 * one warning. None of them changes a query plan or sends a request the plan does not; each buys
 * gateway CPU, as bench/results.md measured it with bench/profile-gateway.ts:
 * - result-shaping.ts: the response shaped by steps compiled once per operation (it was two fifths
 *   of the gateway's CPU on the large list);
 * - data-source.ts: a stage's entity fetches to one subgraph batched into one request (one round
 *   trip instead of five for EmployeeProfile's organisation fetches, as Hive Gateway sends them),
 *   and `sendRequest` without the node-fetch `Request` it never used (a third of the fetch path's CPU);
 * - representations.ts: each entity sent once per fetch (the large list's hundred representations
 *   are a dozen departments; keying them by JSON alone was a tenth of its CPU).
 */
export interface Seams {
  /** whether the patches run (false: stock @apollo/gateway) */
  patched: boolean;
  dataSource(name: string, url: string, secret: string | null, fetch: SubgraphFetch): SubgraphDataSource;
}

export interface SeamOptions {
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
  const { maxBatch } = options;
  return { patched: true, dataSource: (name, url, secret, fetch) => new PatchedDataSource(name, url, secret, fetch, maxBatch) };
}
