import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, IsolatedCircuitError, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";
import type { RequestSpec } from "./apis.js";
import type { UpstreamConfig } from "./config.js";
import { UpstreamError } from "./errors.js";
import { refusedUpstream } from "./observe.js";
import type { BreakerState } from "../../../platform/metrics.js";

type Api = RequestSpec["api"];

/** cockatiel's CircuitState (Closed, Open, HalfOpen, Isolated) as the metric's state */
const BREAKER_STATES: BreakerState[] = ["closed", "open", "half-open", "open"];

/**
 * A circuit breaker per API (cockatiel): after `breakerFailures` requests in a row failed with a
 * 5xx, a timeout or a connection failure, that API is not called for `breakerOpenMs`. Only the
 * upstream's own failures count: no caller can open it with bad requests (4xx).
 */
export class UpstreamBreakers {
  /** one breaker per API; none when `breakerFailures` is 0 */
  private readonly breakers: Partial<Record<Api, CircuitBreakerPolicy>> = {};

  constructor(config: UpstreamConfig) {
    if (config.breakerFailures <= 0) return;
    for (const api of ["current", "legacy", "token"] as const) {
      this.breakers[api] = circuitBreaker(handleWhen(isUpstreamFault), { halfOpenAfter: config.breakerOpenMs, breaker: new ConsecutiveBreaker(config.breakerFailures) });
    }
  }

  /** One logical request through its API's breaker; an open one refuses it without a call. */
  async run<T>(spec: RequestSpec, send: () => Promise<T>): Promise<T> {
    const breaker = this.breakers[spec.api];
    if (!breaker) return send();
    try {
      return await breaker.execute(send);
    } catch (err) {
      if (err instanceof BrokenCircuitError || err instanceof IsolatedCircuitError) {
        refusedUpstream("breaker", { "directory_graph.upstream.api": spec.api });
        throw new UpstreamError({ method: spec.method, path: spec.path, status: null, reason: "circuit" });
      }
      throw err;
    }
  }

  /** the metrics' states */
  metricStates(): Record<string, BreakerState> {
    return Object.fromEntries(Object.entries(this.breakers).map(([api, b]) => [api, BREAKER_STATES[b.state] ?? "open"]));
  }

  /** `/ready`'s states (cockatiel's names) */
  readinessStates(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.breakers).map(([api, b]) => [api, CircuitState[b.state].toLowerCase()]));
  }
}

/** What opens a breaker: the upstream's own failures (5xx, timeouts, connections), never a caller's 4xx. */
function isUpstreamFault(err: unknown): boolean {
  return err instanceof UpstreamError && err.reason !== "circuit" && (err.status === null || err.status >= 500) && err.reason !== "unauthenticated";
}
