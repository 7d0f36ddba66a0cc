import { GraphQLError } from "graphql";
import { ErrorCode } from "../../../platform/error-codes.js";
import { processMetrics } from "../../../platform/metrics.js";
import type { SharedState } from "../../../platform/shared-state.js";
import { sleep } from "./util.js";

/**
 * The upstream request budget, DIRECTORY_RATE_LIMIT requests per second for the facade's own
 * client, per API (the directory limits each OAuth client; every replica uses the facade's one):
 * requests are paced to stay under it instead of meeting 429s.
 *
 * A schedule of slots, one every 1000 / limit ms plus 5% (the next free slot of an API is one
 * number): a request takes the next free slot and waits until it comes, so no window of one
 * second, wherever it starts, holds more than `limit` requests. A request that comes out of its
 * wait more than LATE_MS after its slot (a busy event loop) takes a new slot rather than go late
 * and crowd the ones after it; the 5% absorb that tolerance and the network's jitter between
 * replicas. With Redis the schedule is one key per API,
 * moved by one atomic script on Redis's clock, shared by every replica; without it, or while
 * Redis is down, each process keeps its own (then each paces alone to the whole limit).
 * rate-limiter-flexible counts fixed windows, which allow twice the limit across the boundary of
 * two windows: pacing needs the schedule, which is why this is written here.
 */

/** how late after its slot a request may still go */
const LATE_MS = 15;

const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nextFree)
if at - now > maxWait then return -1 end
redis.call('SET', KEYS[1], at + interval, 'PX', math.ceil(at - now + interval + 1000))
return at - now
`;

export class RequestPacer {
  private readonly intervalMs: number;
  private readonly nextFree = new Map<string, number>();

  constructor(
    readonly perSecond: number,
    private readonly shared: SharedState | null,
  ) {
    this.intervalMs = (1000 / perSecond) * 1.05;
    this.shared?.redis?.defineCommand("directoryGraphPace", { numberOfKeys: 1, lua: RESERVE });
  }

  /**
   * Waits for the API's next free slot; false, at once, when it would come later than
   * `maxWaitMs` from now (no slot is taken then).
   */
  async acquire(api: string, maxWaitMs: number): Promise<boolean> {
    const until = Date.now() + maxWaitMs;
    for (;;) {
      const asked = Date.now();
      const wait = await this.reserve(api, until - asked);
      if (wait === null) return false;
      if (wait === 0) return true;
      await sleep(wait);
      // on time (within LATE_MS of the slot): go; late: the slot has passed, take another
      if (Date.now() - (asked + wait) <= LATE_MS) return true;
    }
  }

  /**
   * Takes the API's next free slot when it comes within `maxWaitMs`, and answers how long to wait
   * for it; null when it would come later (no slot is taken).
   */
  private async reserve(api: string, maxWaitMs: number): Promise<number | null> {
    const maxWait = Math.max(0, Math.floor(maxWaitMs));
    const wait = this.shared
      ? await this.shared.use(
          "budget",
          async (redis) => Number(await (redis as unknown as { directoryGraphPace(key: string, interval: number, maxWait: number): Promise<number> }).directoryGraphPace(`pace:${api}`, this.intervalMs, maxWait)),
          () => this.reserveLocally(api, maxWait),
        )
      : this.reserveLocally(api, maxWait);
    if (wait < 0 || wait > maxWait) {
      processMetrics().upstreamBudget.inc({ api, outcome: "exceeded" });
      return null;
    }
    if (wait > 0) processMetrics().upstreamBudget.inc({ api, outcome: "paced" });
    return wait;
  }

  private reserveLocally(api: string, maxWait: number): number {
    const now = Date.now();
    const at = Math.max(now, this.nextFree.get(api) ?? 0);
    if (at - now > maxWait) return -1;
    this.nextFree.set(api, at + this.intervalMs);
    return at - now;
  }
}

/** The request would wait for the upstream request budget past its deadline. */
export function rateBudgetExceeded(perSecond: number): GraphQLError {
  return new GraphQLError(
    `The directory's request budget (${perSecond} requests a second for this facade) is taken until after this request's deadline: try again shortly.`,
    { extensions: { code: ErrorCode.UPSTREAM_BUDGET_EXCEEDED, limit: perSecond } },
  );
}
