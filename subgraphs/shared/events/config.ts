import { randomBytes } from "node:crypto";
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
  /** DIRECTORY_EVENTS_SECRET: the Standard Webhooks secret (`whsec_<base64>`) registered with the endpoint; every replica verifies with it */
  secret: string;
  /** DIRECTORY_EVENTS_POLL_MS, default 1000: the pause between two reads of `GET /events` when the last one found nothing */
  pollMs: number;
}

/** Where the people subgraph receives deliveries when DIRECTORY_EVENTS_PUBLIC_URL has no path of its own. */
export const EVENTS_PATH = "/directory-events";

export function loadEventsConfig(env: NodeJS.ProcessEnv, opts: { embedded: boolean; production: boolean; forward: boolean }): EventsConfig {
  const e = new Environment(env);
  const mode = e.choice("DIRECTORY_EVENTS", ["webhook", "poll", "off"] as const, opts.embedded && !opts.forward ? "poll" : "off");
  const publicUrl = e.httpUrl("DIRECTORY_EVENTS_PUBLIC_URL", { bare: true }) ?? null;
  const rawSecret = e.secret("DIRECTORY_EVENTS_SECRET", { production: opts.production, minLength: 32 });
  const pollMs = e.integer("DIRECTORY_EVENTS_POLL_MS", 1000, 10, 600_000);
  if (mode !== "off" && opts.forward) {
    // the ingestion reads and registers as the facade itself, which forward mode has no token for
    throw new ConfigError("DIRECTORY_EVENTS needs DIRECTORY_AUTH=service: in forward mode the facade has no identity of its own to read the events with", "DIRECTORY_EVENTS");
  }
  if (mode === "webhook" && publicUrl === null) throw new ConfigError("DIRECTORY_EVENTS_PUBLIC_URL is required when DIRECTORY_EVENTS is webhook", "DIRECTORY_EVENTS_PUBLIC_URL");
  if (rawSecret !== undefined && !validSecret(rawSecret)) {
    throw new ConfigError("DIRECTORY_EVENTS_SECRET must be whsec_ followed by 24 to 64 bytes in base64", "DIRECTORY_EVENTS_SECRET");
  }
  if (mode === "webhook" && rawSecret === undefined && !opts.embedded) {
    // each replica must verify with the secret the endpoint was registered with
    throw new ConfigError("DIRECTORY_EVENTS_SECRET is required when DIRECTORY_EVENTS is webhook against a real directory", "DIRECTORY_EVENTS_SECRET");
  }
  return { mode, publicUrl, secret: rawSecret ?? `whsec_${randomBytes(32).toString("base64")}`, pollMs };
}

function validSecret(secret: string): boolean {
  if (!secret.startsWith("whsec_")) return false;
  const body = secret.slice(6);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false;
  const bytes = Buffer.from(body, "base64").length;
  return bytes >= 24 && bytes <= 64;
}
