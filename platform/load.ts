import { performance, type EventLoopUtilization } from "node:perf_hooks";

/**
 * How busy this process is: the share of its last window of at least LOAD_WINDOW_MS its event
 * loop spent running code rather than waiting (Node's `performance.eventLoopUtilization`), in
 * percent. A subgraph says it to the gateway on each answer to one of its operations
 * (LOAD_HEADER), and the gateway stops asking for the work it only asks ahead
 * (gateway/speculation-brake.ts) while a subgraph is saturated: that work saves an upstream round when the
 * directory is slow, and costs CPU the saturated process has none of (docs/graph.md#query-plans).
 *
 * A utilization, not a latency: under saturation an upstream call's time is the loop's queue, not
 * the directory's, and would read as a slow directory. The window closes when it is read, so no
 * timer runs, and a load that rises is said within a tenth of a second. `npm start` runs the
 * gateway and the subgraphs in one process, which then reports the whole process's load.
 */
export const LOAD_WINDOW_MS = 100;

/** A process's load, 0–100. */
export type LoadMeter = () => number;

let since: EventLoopUtilization | undefined;
let last = 0;

/** The process's meter. */
export const processLoad: LoadMeter = () => {
  const now = performance.eventLoopUtilization();
  if (since === undefined) since = now;
  else if (now.idle + now.active - (since.idle + since.active) >= LOAD_WINDOW_MS) {
    last = Math.round(performance.eventLoopUtilization(now, since).utilization * 100);
    since = now;
  }
  return last;
};
