import type { UpstreamConfig } from "./config.js";
import { budgetExceeded, deadlineExceeded } from "./errors.js";
import { refusedUpstream } from "./observe.js";
import { RequestPacer, rateBudgetExceeded } from "./pacer.js";
import { MIN_ATTEMPT_MS } from "./retry.js";
import type { SessionState } from "./session-state.js";
import type { RequestSpec } from "./apis.js";
import type { SharedState } from "../../../platform/shared-state.js";

/**
 * What a session may spend upstream: its call budget (`callBudget`), its deadline (`x-deadline-ms`,
 * at most `deadlineMs`) and the process's (or, with Redis, the replicas') request rate
 * (DIRECTORY_RATE_LIMIT, pacer.ts).
 */
export class UpstreamBudget {
  /** DIRECTORY_RATE_LIMIT; null without one */
  private readonly pacer: RequestPacer | null;

  constructor(
    private readonly config: UpstreamConfig,
    shared: SharedState,
  ) {
    this.pacer = config.rateLimit ? new RequestPacer(config.rateLimit, shared) : null;
  }

  /** The session's deadline: the one asked, when valid, at most the configured one. */
  deadlineOf(asked: number | undefined): { deadline: number; deadlineMs: number } {
    const deadlineMs = asked !== undefined && Number.isFinite(asked) && asked >= 0 ? Math.min(Math.floor(asked), this.config.deadlineMs) : this.config.deadlineMs;
    return { deadline: performance.now() + deadlineMs, deadlineMs };
  }

  /** ms left before the session's deadline */
  msLeft(state: SessionState): number {
    return state.deadline - performance.now();
  }

  /**
   * Checks, when an attempt would start, the session's deadline and call budget and waits for the
   * rate's next slot; past any of them the attempt is not made. Returns the ms left.
   */
  async admit(state: SessionState, spec: RequestSpec): Promise<number> {
    const left = this.msLeft(state);
    if (left <= 0) {
      if (!state.refusalCounted) refusedUpstream("deadline", { "directory_graph.limit_ms": state.deadlineMs });
      state.refusalCounted = true;
      throw deadlineExceeded(state.deadlineMs);
    }
    if (state.calls.total >= this.config.callBudget) {
      if (!state.refusalCounted) refusedUpstream("upstreamBudget", { "directory_graph.limit": this.config.callBudget });
      state.refusalCounted = true;
      throw budgetExceeded(this.config.callBudget);
    }
    await this.pace(spec, left);
    return this.msLeft(state);
  }

  /**
   * DIRECTORY_RATE_LIMIT: waits for the API's next slot of the facade's own client (forward mode's
   * current-API calls use the caller's token, whose limit is the caller's); fails fast when the
   * slot comes too late for the request to be made before its deadline.
   */
  private async pace(spec: RequestSpec, left: number): Promise<void> {
    if (this.pacer === null || spec.api === "token" || (spec.api === "current" && this.config.auth === "forward")) return;
    if (!(await this.pacer.acquire(spec.api, left - Math.min(left / 2, MIN_ATTEMPT_MS)))) {
      refusedUpstream("upstreamRateBudget", { "directory_graph.limit": this.pacer.perSecond });
      throw rateBudgetExceeded(this.pacer.perSecond);
    }
  }
}
