import { GraphQLError } from "graphql";
import { ErrorCode } from "../../../platform/error-codes.js";
import { processMetrics } from "../../../platform/metrics.js";
import type { SharedState } from "../../../platform/shared-state.js";
import { sleep } from "./util.js";

/**
 * The upstream request budget as the production service counts it (docs/configuration.md#the-request-budget):
 * at most `requests` requests in any sliding window of `windowSeconds` for the tenant, the current
 * and legacy APIs together (the token host apart: budget.ts does not ask for its requests).
 *
 * The window is split in two shares of their own, so that neither can starve the other:
 * background work (the event poll, the webhook registration; SessionOptions.background) may take
 * `background` of the window's slots, interactive reads and writes the rest. A 429 from the
 * directory holds both until its Retry-After (`hold`): the directory's count is the truth, ours
 * only an estimate of it.
 *
 * Each share is a sliding-window log (the times of the requests let through): a request takes a
 * slot while fewer than its share were sent in the last window, else waits until the oldest of
 * them leaves it, or is refused at once when that comes after its deadline. With Redis the logs
 * are sorted sets moved by one atomic script on Redis's clock, shared by every replica; without
 * it, or while Redis is down, each process keeps its own. rate-limiter-flexible counts fixed
 * windows (twice the limit across the boundary of two) or leaky buckets (no "N in any W"): the
 * production rule needs the log, which is why this is written here.
 */

export type BudgetShare = "interactive" | "background";

export interface RequestBudgetSettings {
  /** requests in any window; the two shares together */
  requests: number;
  windowSeconds: number;
  /** slots of the window background work may take (at least 1, fewer than `requests`) */
  background: number;
}

/** An admission: let through, or the seconds until a slot of the share frees. */
export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
if held > now then return held - now end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], windowMs + 1000)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + windowMs - now)
`;

const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < untilMs then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1])) end
return 0
`;

/** the longest Retry-After that holds the callers (a larger one is read as this) */
const MAX_HOLD_MS = 3_600_000;

type BudgetRedis = {
  directoryGraphBudget(log: string, hold: string, windowMs: number, limit: number, member: string): Promise<unknown>;
  directoryGraphHold(hold: string, ms: number): Promise<unknown>;
};

export class RequestBudget {
  private readonly windowMs: number;
  private readonly logs: Record<BudgetShare, number[]> = { interactive: [], background: [] };
  private heldUntil = 0;
  private sequence = 0;

  constructor(
    readonly settings: RequestBudgetSettings,
    private readonly shared: SharedState | null,
    /** the tenant the budget is counted for (the directory's host): one log per tenant on a shared Redis */
    private readonly tenant: string,
  ) {
    this.windowMs = settings.windowSeconds * 1000;
    this.shared?.redis?.defineCommand("directoryGraphBudget", { numberOfKeys: 2, lua: RESERVE });
    this.shared?.redis?.defineCommand("directoryGraphHold", { numberOfKeys: 1, lua: HOLD });
  }

  limitOf(share: BudgetShare): number {
    return share === "background" ? this.settings.background : this.settings.requests - this.settings.background;
  }

  /**
   * Waits for a slot of the share; refused at once (no slot taken) when the slot would come later
   * than `maxWaitMs` from now, with the seconds until it frees.
   */
  async acquire(share: BudgetShare, maxWaitMs: number): Promise<Admission> {
    const until = Date.now() + maxWaitMs;
    let held = false;
    for (;;) {
      const wait = await this.reserve(share);
      if (wait === 0) {
        processMetrics().upstreamBudget.inc({ share, outcome: held ? "held" : "sent" });
        return { admitted: true };
      }
      if (Date.now() + wait > until) {
        processMetrics().upstreamBudget.inc({ share, outcome: "refused" });
        return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }
      held = true;
      processMetrics().upstreamBudgetWaiting.inc({ share });
      try {
        await sleep(wait);
      } finally {
        processMetrics().upstreamBudgetWaiting.dec({ share });
      }
    }
  }

  /** A 429 with Retry-After: every caller (of every replica, with Redis) waits that long. */
  async hold(retryAfterSeconds: number): Promise<void> {
    const ms = Math.min(MAX_HOLD_MS, Math.max(0, Math.ceil(retryAfterSeconds * 1000)));
    if (ms === 0) return;
    this.heldUntil = Math.max(this.heldUntil, Date.now() + ms);
    if (this.shared) await this.shared.use("budget", (redis) => (redis as unknown as BudgetRedis).directoryGraphHold(this.key("hold"), ms), () => 0);
  }

  /** The slots of each share taken in the last window, as this process counted them (the metrics). */
  used(share: BudgetShare): number {
    return this.prune(share, Date.now()).length;
  }

  /** ms to wait for a slot, 0 when one was taken */
  private async reserve(share: BudgetShare): Promise<number> {
    let decidedHere = false;
    const local = () => ((decidedHere = true), this.reserveLocally(share));
    if (!this.shared) return local();
    const member = `${process.pid}:${Date.now()}:${++this.sequence}:${Math.random().toString(36).slice(2, 8)}`;
    const answer = await this.shared.use(
      "budget",
      async (redis) => (redis as unknown as BudgetRedis).directoryGraphBudget(this.key(share), this.key("hold"), this.windowMs, this.limitOf(share), member),
      local,
    );
    // what Redis answers is checked: a wait within a window and a hold, else this process decides
    const wait = typeof answer === "number" && Number.isInteger(answer) && answer >= 0 && answer <= this.windowMs + MAX_HOLD_MS ? answer : local();
    // the local log follows the shared one, for the metrics of this process's use
    if (wait === 0 && !decidedHere) this.logs[share].push(Date.now());
    return wait;
  }

  private reserveLocally(share: BudgetShare): number {
    const now = Date.now();
    if (this.heldUntil > now) return this.heldUntil - now;
    const log = this.prune(share, now);
    if (log.length < this.limitOf(share)) {
      log.push(now);
      return 0;
    }
    return Math.max(1, log[0]! + this.windowMs - now);
  }

  private prune(share: BudgetShare, now: number): number[] {
    const log = this.logs[share];
    while (log.length > 0 && log[0]! <= now - this.windowMs) log.shift();
    return log;
  }

  private key(part: string): string {
    return `budget:${this.tenant}:${part}`;
  }
}

/** The request would wait for the upstream request budget past its deadline: answered at once. */
export function rateBudgetExceeded(settings: RequestBudgetSettings, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(
    `The directory's request budget (${settings.requests} requests in any ${settings.windowSeconds} s for the company) has no slot before this request's deadline: try again in ${retryAfterSeconds} s.`,
    { extensions: { code: ErrorCode.RATE_LIMITED, retryAfter: retryAfterSeconds, limit: settings.requests, windowSeconds: settings.windowSeconds } },
  );
}
