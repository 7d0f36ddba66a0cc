import { Environment } from "./config.js";

/**
 * `/ready` that means it (docs/deploying.md#probes): a subgraph is ready when its upstream answers
 * and no circuit breaker of it is open; the gateway when every subgraph is ready. Probes come
 * often (every replica, every few seconds, from Kubernetes and load balancers alike), so the
 * answer is kept for READY_CHECK_INTERVAL_MS: at most one upstream call per interval whatever the
 * number of probes, and probes that arrive together share the one check in flight. `/health` stays
 * a liveness check that calls nothing.
 */

/** READY_CHECK_INTERVAL_MS (gateway and subgraphs), default 5000. */
export function readyCheckIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  return new Environment(env).integer("READY_CHECK_INTERVAL_MS", 5000, 0, 600_000);
}

export interface Readiness {
  ready: boolean;
  /** what each dependency said: `ok` or why not (no address, no body) */
  checks: Record<string, unknown>;
}

/** `check` run at most once per `intervalMs`; callers in between get the answer of the last run. */
export function cachedCheck(check: () => Promise<Readiness>, intervalMs: number): () => Promise<Readiness> {
  let last: { at: number; answer: Promise<Readiness> } | null = null;
  return () => {
    const now = performance.now();
    if (last === null || now - last.at >= intervalMs) last = { at: now, answer: check() };
    return last.answer;
  };
}
