import { processMetrics } from "../platform/metrics.js";
import { processLoad, type LoadMeter } from "../platform/load.js";
import { spanEvent } from "../platform/request-scope.js";

// ---- the brake: nothing asked ahead of a saturated subgraph, or by a saturated gateway ----
// (switched by GATEWAY_SPECULATION_MAX_LOAD; docs/graph.md#which-mechanism-fires-when)

/** How long a subgraph's last load stands for it: a subgraph asked nothing for that long is not saturated by us. */
export const LOAD_STALE_MS = 5_000;
/** A held subgraph (or gateway) asks ahead again once its load is this many points below the limit (no flapping at the limit). */
export const LOAD_HYSTERESIS = 10;

/** What is asked ahead: a root lookup's next fetch (`speculate`), an announcement, a split part. */
export type SpeculationKind = "lookup" | "announcement" | "split";

/** Whose load holds a request back: the subgraph's it would go to, or the gateway's own. */
export type HeldBy = "subgraph" | "gateway";

/**
 * Whether to ask a subgraph ahead (a root lookup's next fetch, announcements, split parts) now.
 * What is asked ahead saves an upstream round per operation when the directory takes tens of
 * milliseconds to answer, and costs a request of its own (a lookup's next fetch, sent early, is
 * not batched with the later fetches to its subgraph): a few milliseconds of the subgraph's CPU,
 * and about a seventh of an operation's CPU in the gateway, which sends it and reads its answer
 * (bench/results.md). A
 * process that is saturated has no CPU to spare: each request asked ahead then delays the others,
 * and the operations complete fewer a second, while the round it saves is lost in the queue.
 *
 * - Each subgraph says its load on its answers (LOAD_HEADER, platform/load.ts). While the last one
 *   said is at least GATEWAY_SPECULATION_MAX_LOAD, the gateway asks it nothing ahead, until it
 *   says a load LOAD_HYSTERESIS points lower or says nothing for LOAD_STALE_MS. A subgraph that
 *   says no load (another team's) is held only by the gateway's own load.
 * - The gateway's own load (the same meter, read when it would ask ahead) holds what it would ask
 *   of every subgraph, by the same limit and hysteresis.
 */
export class SpeculationBrake {
  private readonly loads = new Map<string, { held: boolean; at: number; load: number }>();
  private readonly own = { held: false, load: 0 };

  /**
   * maxLoad: percent (50–100, config.ts), null for never holding; ownLoad: the gateway process's
   * meter
   */
  constructor(
    private readonly maxLoad: number | null,
    private readonly ownLoad: LoadMeter = processLoad,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A subgraph's answer said `header` (LOAD_HEADER: a whole number 0–100; anything else is ignored). */
  report(subgraph: string, header: string | null): void {
    if (this.maxLoad === null || header === null || !/^\d{1,3}$/.test(header)) return;
    const load = Number(header);
    if (load > 100) return;
    const now = this.now();
    const held = this.holding(subgraph, now) ? load > this.maxLoad - LOAD_HYSTERESIS : load >= this.maxLoad;
    this.loads.set(subgraph, { held, at: now, load });
    processMetrics().subgraphLoad.set({ subgraph }, load);
  }

  /** Whether to hold back what `kind` would ask `subgraph` ahead; counted when it does. */
  holds(subgraph: string, kind: SpeculationKind): boolean {
    if (this.maxLoad === null) return false;
    const state = this.holding(subgraph, this.now());
    const by: HeldBy | undefined = state ? "subgraph" : this.gatewayHeld(this.maxLoad) ? "gateway" : undefined;
    if (!by) return false;
    processMetrics().speculationHeld.inc({ subgraph, kind, by });
    // on the span of the fetch it leaves alone (a split part) or of the plan (an announcement)
    spanEvent("speculation.held", {
      "directory_graph.subgraph": subgraph,
      "directory_graph.speculation.kind": kind,
      "directory_graph.speculation.held_by": by,
      ...(state ? { "directory_graph.subgraph.load": state.load } : { "directory_graph.gateway.load": this.own.load }),
    });
    return true;
  }

  /** The subgraph's last word while it is held: it said a load to hold at, less than LOAD_STALE_MS ago. */
  private holding(subgraph: string, now: number): { load: number } | undefined {
    const state = this.loads.get(subgraph);
    return state?.held && now - state.at < LOAD_STALE_MS ? state : undefined;
  }

  /** Whether the gateway's own load holds, read now (the meter's window closes on the read). */
  private gatewayHeld(maxLoad: number): boolean {
    const load = this.ownLoad();
    this.own.held = this.own.held ? load > maxLoad - LOAD_HYSTERESIS : load >= maxLoad;
    this.own.load = load;
    return this.own.held;
  }
}

export const NO_BRAKE = new SpeculationBrake(null);
