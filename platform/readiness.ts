import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Environment } from "./config.js";

/**
 * Probes that keep the fleet serving (docs/deploying.md#probes). `/ready` says whether this
 * replica can take traffic: it has started, it is not draining, and (the gateway) its subgraphs
 * answer. The upstream's state is not part of it: an upstream outage would take every replica out
 * of the load balancer together, and clients would get connection errors instead of the GraphQL
 * errors (`UPSTREAM_UNAVAILABLE`) the replicas still answer. That state is a metric
 * (`upstream_up`) and a detailed answer (`/health/upstream`). Checks that call out come often
 * (probes, scrapes), so their answer is kept for READY_CHECK_INTERVAL_MS: at most one call per
 * interval whatever the number of callers, and callers that arrive together share the one check
 * in flight. `/health` stays a liveness check that calls nothing.
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

/**
 * GET `url` and say `ok` (2xx), `status <n>`, `timeout` or `unreachable`; the body is discarded.
 * `node:http` rather than `fetch`: undici's fetch refuses the ports browsers block (6000,
 * 6665–6669...), on which a healthy subgraph would read as unreachable for ever.
 */
export function probeUrl(url: URL, timeoutMs: number, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, { method: "GET", timeout: timeoutMs, headers: { ...headers, connection: "close" } }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      resolve(status >= 200 && status < 300 ? "ok" : `status ${status}`);
    });
    request.once("timeout", () => {
      resolve("timeout");
      request.destroy();
    });
    request.once("error", () => resolve("unreachable"));
    request.end();
  });
}
