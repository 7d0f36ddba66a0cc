import type { UpstreamConfig } from "./config.js";
import { budgetExceeded, deadlineExceeded } from "./errors.js";
import { refusedUpstream } from "./observe.js";
import { RequestBudget, rateBudgetExceeded } from "./pacer.js";
import { MIN_ATTEMPT_MS } from "./retry.js";
import type { SessionState } from "./session-state.js";
import type { RequestSpec } from "./apis.js";
import type { SharedState } from "../../../platform/shared-state.js";

/**
 * What a session may spend upstream: its call budget (`callBudget`), its deadline (`x-deadline-ms`,
 * at most `deadlineMs`) and the tenant's request budget, this process's or, with Redis, every
 * replica's (DIRECTORY_REQUEST_BUDGET, pacer.ts).
 */
export class UpstreamBudget {
  /** DIRECTORY_REQUEST_BUDGET; null when off */
  readonly requests: RequestBudget | null;

  constructor(
    private readonly config: UpstreamConfig,
    shared: SharedState,
  ) {
    this.requests = config.requestBudget ? new RequestBudget(config.requestBudget, shared, new URL(config.baseUrl).host) : null;
  }

  /** A 429's Retry-After holds every caller of the budget (none without one: the retry policy waits then). */
  async hold(retryAfterSeconds: number | undefined): Promise<void> {
    if (this.requests !== null && retryAfterSeconds !== undefined) await this.requests.hold(retryAfterSeconds);
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
    await this.pace(state, spec, left);
    return this.msLeft(state);
  }

  /**
   * DIRECTORY_REQUEST_BUDGET: waits for a slot of the session's share (interactive, or background
   * for the facade's own work); answers RATE_LIMITED at once, with the seconds until a slot frees,
   * when it would come too late for the request to be made before its deadline. Every request to
   * the tenant's APIs counts, the caller's in forward mode too (the directory counts the tenant's);
   * the token host's do not.
   */
  private async pace(state: SessionState, spec: RequestSpec, left: number): Promise<void> {
    if (this.requests === null || spec.api === "token") return;
    const admission = await this.requests.acquire(state.background ? "background" : "interactive", left - Math.min(left / 2, MIN_ATTEMPT_MS));
    if (!admission.admitted) {
      if (!state.refusalCounted) refusedUpstream("upstreamRateBudget", { "directory_graph.limit": this.requests.settings.requests, "directory_graph.retry_after_s": admission.retryAfterSeconds });
      state.refusalCounted = true;
      throw rateBudgetExceeded(this.requests.settings, admission.retryAfterSeconds);
    }
  }
}
