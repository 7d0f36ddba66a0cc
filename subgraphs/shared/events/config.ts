import { ConfigError, Environment } from "../../../platform/config.js";

/**
 * How the facade hears of the directory's changes (docs/configuration.md#directory-events):
 * DIRECTORY_EVENTS `webhook` (the directory POSTs each event to DIRECTORY_EVENTS_PUBLIC_URL),
 * `poll` (the facade reads `GET /events` every DIRECTORY_EVENTS_POLL_MS) or `off`. Default: `poll`
 * for the embedded directory (no public address needed, nothing to register), `off` against a real
 * one (a deployment chooses). The `people` subgraph's process ingests (docs/deploying.md#directory-events).
 */
export interface EventsConfig {
  mode: "webhook" | "poll" | "off";
  /** DIRECTORY_EVENTS_PUBLIC_URL: the address the directory delivers to (webhook mode), whose path the people subgraph serves */
  publicUrl: string | null;
  /**
   * DIRECTORY_EVENTS_SECRET: the secret of an endpoint the deployment declared itself (the facade
   * then declares none and verifies with it); null: the facade declares its endpoint and verifies
   * with the secret the directory answered, shared by the replicas on Redis
   */
  secret: string | null;
  /**
   * DIRECTORY_EVENTS_POLL_MS: the pause between two reads of `GET /events` when the last one found
   * nothing; by default the poll takes a tenth of the request budget at most (12 000 ms at 50 in
   * 60 s), 1000 without a budget
   */
  pollMs: number;
}

/** Where the people subgraph receives deliveries when DIRECTORY_EVENTS_PUBLIC_URL has no path of its own. */
export const EVENTS_PATH = "/directory-events";

export function loadEventsConfig(env: NodeJS.ProcessEnv, opts: { embedded: boolean; production: boolean; forward: boolean; budget?: { requests: number; windowSeconds: number } | null }): EventsConfig {
  const e = new Environment(env);
  const mode = e.choice("DIRECTORY_EVENTS", ["webhook", "poll", "off"] as const, opts.embedded && !opts.forward ? "poll" : "off");
  const publicUrl = e.httpUrl("DIRECTORY_EVENTS_PUBLIC_URL", { bare: true }) ?? null;
  const rawSecret = e.secret("DIRECTORY_EVENTS_SECRET", { production: opts.production, minLength: 32 });
  const pollMs = e.integer("DIRECTORY_EVENTS_POLL_MS", pollDefaultMs(opts.budget ?? null), 10, 600_000);
  if (mode !== "off" && opts.forward) {
    // the ingestion reads and registers as the facade itself, which forward mode has no token for
    throw new ConfigError("DIRECTORY_EVENTS needs DIRECTORY_AUTH=service: in forward mode the facade has no identity of its own to read the events with", "DIRECTORY_EVENTS");
  }
  if (mode === "webhook" && publicUrl === null) throw new ConfigError("DIRECTORY_EVENTS_PUBLIC_URL is required when DIRECTORY_EVENTS is webhook", "DIRECTORY_EVENTS_PUBLIC_URL");
  return { mode, publicUrl, secret: rawSecret ?? null, pollMs };
}

/** A tenth of the request budget at most: one poll every 10 × W / N seconds, at least every second. */
export function pollDefaultMs(budget: { requests: number; windowSeconds: number } | null): number {
  return budget === null ? 1000 : Math.max(1000, Math.ceil((10 * budget.windowSeconds * 1000) / budget.requests));
}
