import { setTimeout as sleep } from "node:timers/promises";
import { ConfigError, Environment } from "./config.js";
import type { Logger } from "./log.js";
import type { Tracing } from "./tracing.js";

/**
 * A process's stop on SIGTERM or SIGINT (docs/deploying.md#signals-and-drain):
 *
 * 1. at once, `/ready` answers 503 (`draining`), so that a load balancer or Kubernetes stops
 *    sending new traffic; operations are still served meanwhile, since traffic already routed
 *    here keeps arriving for a moment; and every open subscription ends with a `complete` (the
 *    `onStop` listeners), so that the drain waits for no stream;
 * 2. after SHUTDOWN_GRACE_MS, new operations are refused with a 503 `SHUTTING_DOWN` error
 *    (`Retry-After`, `Connection: close`): retryable on another instance;
 * 3. the operations in flight finish, for at most SHUTDOWN_DRAIN_MS, then the process exits 0
 *    (what is still in flight then is cut, and logged).
 *
 * A signal repeated within REPEATED_SIGNAL_WINDOW_MS of the first counts once: Ctrl-C in a terminal,
 * `timeout`, or systemd's default kill signal the whole process group, so node receives the signal
 * both from the sender and from its parent passing it on (npm), milliseconds apart. A second
 * signal after the window exits at once (status 1). The phase is the process's own, as the signal is:
 * the listeners that face callers (the gateway, a subgraph or the directory run alone) read it;
 * the subgraphs of `npm start` do not, so that the gateway's operations in flight can finish.
 */

/** how long after the first signal a repeated one is the same stop (a process group's copies), not a request to exit now */
export const REPEATED_SIGNAL_WINDOW_MS = 1000;

export type Phase = "serving" | "draining" | "refusing";

export interface ShutdownSettings {
  /** SHUTDOWN_GRACE_MS: from the signal to refusing new operations */
  graceMs: number;
  /** SHUTDOWN_DRAIN_MS: the longest wait for the operations in flight */
  drainMs: number;
}

/** the SSE `retry` a stream ending on a stop advises: reconnect after this long (another replica, by then) */
export const RECONNECT_AFTER_MS = 1000;

/** The reconnect advice of an SSE stream that a stop ends (its `retry` field), written before the stream's `complete`. */
export function writeReconnectHint(res: { headersSent: boolean; writableEnded: boolean; write(chunk: string): unknown }): void {
  if (res.headersSent && !res.writableEnded) res.write(`retry: ${RECONNECT_AFTER_MS}\n\n`);
}

export const DEFAULT_SHUTDOWN: ShutdownSettings = { graceMs: 3000, drainMs: 20_000 };

/** An operation deadline of the process, which the drain must outlast: its setting and value. */
export interface DrainedDeadline {
  variable: string;
  ms: number;
}

/**
 * SHUTDOWN_GRACE_MS and SHUTDOWN_DRAIN_MS; throws a ConfigError naming a wrong one. A drain
 * shorter than one of the process's `deadlines` is refused: an operation still within its deadline
 * would be cut, and a write it had sent may be applied while its caller's connection is reset.
 */
export function loadShutdownSettings(env: NodeJS.ProcessEnv = process.env, deadlines: DrainedDeadline[] = []): ShutdownSettings {
  const e = new Environment(env);
  const settings = {
    graceMs: e.integer("SHUTDOWN_GRACE_MS", DEFAULT_SHUTDOWN.graceMs, 0, 600_000),
    drainMs: e.integer("SHUTDOWN_DRAIN_MS", DEFAULT_SHUTDOWN.drainMs, 0, 600_000),
  };
  for (const { variable, ms } of deadlines) {
    if (settings.drainMs < ms) {
      throw new ConfigError(
        `SHUTDOWN_DRAIN_MS (${settings.drainMs}) must be at least ${variable} (${ms}): a write cut by the drain before its deadline may be applied unknown to its caller`,
        "SHUTDOWN_DRAIN_MS",
      );
    }
  }
  return settings;
}

/** The process's phase and the requests in flight on the listeners that face callers. */
export class Lifecycle {
  phase: Phase = "serving";
  inFlight = 0;
  private readonly idle = new Set<() => void>();
  private readonly stopListeners = new Set<() => void>();

  get ready(): boolean {
    return this.phase === "serving";
  }

  /** resolves once no request is in flight */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** `listener` runs as the stop begins (the signal): what holds a request open without end, a subscription, ends there; returns its removal */
  onStop(listener: () => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /** the stop begins: `/ready` turns 503 and the `onStop` listeners run */
  beginStop(): void {
    this.phase = "draining";
    for (const listener of [...this.stopListeners]) listener();
  }

  started(): void {
    this.inFlight++;
  }

  finished(): void {
    this.inFlight--;
    if (this.inFlight > 0) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }
}

/** The lifecycle of this process: the one the signals change. */
export const processLifecycle = new Lifecycle();

/**
 * Stops the process on SIGTERM or SIGINT as the module comment says: `close` stops the
 * components (their listeners wait for the requests they hold); the exit comes when it is done or
 * when the drain time is up, whichever is first.
 */
export function stopOnSignals(options: {
  logger: Logger;
  settings: ShutdownSettings;
  close: () => Promise<void>;
  /** the process's tracer provider, flushed once the servers are closed (platform/tracing.ts) */
  tracing?: Pick<Tracing, "shutdown"> | null;
  lifecycle?: Lifecycle;
}): void {
  const lifecycle = options.lifecycle ?? processLifecycle;
  const { logger, settings } = options;
  let firstSignalAt: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt !== null) {
      if (performance.now() - firstSignalAt < REPEATED_SIGNAL_WINDOW_MS) {
        logger.debug("repeated signal: the stop under way goes on", { signal });
        return;
      }
      logger.warn("second signal: exiting now", { signal, inFlight: lifecycle.inFlight });
      process.exit(1);
    }
    firstSignalAt = performance.now();
    void (async () => {
      const started = performance.now();
      logger.info("shutting down", { signal, inFlight: lifecycle.inFlight, graceMs: settings.graceMs, drainMs: settings.drainMs });
      lifecycle.beginStop();
      await sleep(settings.graceMs);
      lifecycle.phase = "refusing";
      const inFlight = lifecycle.inFlight;
      const drained = await Promise.race([
        lifecycle.drained().then(() => true),
        sleep(settings.drainMs).then(() => false),
      ]);
      if (!drained) logger.warn("drain time exceeded: cutting the requests in flight", { inFlight: lifecycle.inFlight });
      const close = async () => {
        await options.close();
        await options.tracing?.shutdown();
      };
      await Promise.race([close().catch((err: unknown) => logger.error("stop failed", { error: String(err) })), sleep(drained ? settings.drainMs : 0)]);
      logger.info("stopped", { signal, inFlightAtRefusal: inFlight, drained, cut: lifecycle.inFlight, ms: Math.round(performance.now() - started) });
      process.exit(0);
    })();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
