import { loadEventsConfig, type EventsConfig } from "../events/config.js";
import { readyCheckIntervalMs } from "../../../platform/readiness.js";
import { authMode, ConfigError, Environment, excerpt, isProduction, PRODUCTION_SECRET_MIN_LENGTH } from "../../../platform/config.js";
import { loadSharedStateConfig, type SharedStateConfig } from "../../../platform/shared-state.js";
import { refusedTokenTtlSeconds } from "../../../platform/refused-tokens.js";
import { PRODUCTION_LIMITS } from "../../../contract/limits.js";
import type { RequestBudgetSettings } from "./pacer.js";

/**
 * Configuration of the upstream access layer, read from the environment once at start-up (with
 * the one reader, platform/config.ts) so a wrong variable stops the process with a message naming
 * it instead of failing per request.
 */

export interface UpstreamConfig {
  /** DIRECTORY_BASE_URL; unset → `http://127.0.0.1:${DIRECTORY_PORT ?? 4010}` (the in-process service) */
  baseUrl: string;
  /** true when DIRECTORY_BASE_URL is unset (demo credentials become the defaults) */
  embedded: boolean;
  /** DIRECTORY_TOKEN_URL; default `${baseUrl}/connect/token` */
  tokenUrl: string;
  /** DIRECTORY_CLIENT_ID (default demo-client when embedded; required in service mode otherwise) */
  clientId: string | null;
  /** DIRECTORY_CLIENT_SECRET (default demo-secret when embedded) */
  clientSecret: string | null;
  /** DIRECTORY_SCOPES space- or comma-separated */
  scopes: string[];
  /** DIRECTORY_API_KEY (default demo-api-key when embedded; required otherwise) */
  apiKey: string | null;
  /** DIRECTORY_AUTH, default service */
  auth: "service" | "forward";
  /**
   * DIRECTORY_FORWARD_LEGACY_WRITES, default none: who may use the legacy writes in forward mode
   * (`none`: nobody; `readers`: any caller whose token can read the employee the write concerns).
   * Service mode ignores it.
   */
  forwardLegacyWrites: "none" | "readers";
  /**
   * DIRECTORY_COMPRESSION (`on` | `off`): ask for compressed answers. Default `off` for the
   * in-process service (the same host: compressing costs both ends CPU and saves nothing), `on`
   * for a DIRECTORY_BASE_URL.
   */
  compression: boolean;
  /** DIRECTORY_TIMEOUT_MS, default 10000 */
  timeoutMs: number;
  /** DIRECTORY_RETRIES, default 2 */
  retries: number;
  /** DIRECTORY_MAX_RETRY_AFTER_S, default 10 (a longer Retry-After is not waited for) */
  maxRetryAfterSeconds: number;
  /** DIRECTORY_CONCURRENCY, default 8 (bounded concurrency of chunked lists and single reads) */
  concurrency: number;
  /**
   * DIRECTORY_ETAG_CACHE_SIZE, default 10000: answers kept for revalidation, all callers together
   * (0 disables conditional requests)
   */
  etagCacheSize: number;
  /** DIRECTORY_ETAG_CACHE_MB × 2^20, default 64 MiB: the cached bodies' total size (characters) */
  etagCacheBytes?: number;
  /**
   * DIRECTORY_TOKEN_REFRESH_MARGIN_S × 1000, default 60000: a cached token is replaced this long
   * (but at most 10% of its lifetime) before it expires. Tests may set a negative value to keep
   * using a token past its announced expiry and so provoke a 401.
   */
  tokenRefreshMarginMs?: number;
  /** base delay of the jittered exponential backoff between retries; default 100 ms */
  retryBaseDelayMs?: number;
  /**
   * DIRECTORY_CALL_BUDGET, default 100: the most upstream requests (retries and token requests
   * included) one subgraph request may make; beyond it the operation stops with
   * UPSTREAM_BUDGET_EXCEEDED instead of calling on.
   */
  callBudget: number;
  /**
   * SUBGRAPH_DEADLINE_MS, default 10000: the longest a subgraph request may spend on the upstream,
   * measured from its receipt. A shorter `x-deadline-ms` from the gateway wins; without the header
   * this is the deadline. Every attempt's timeout and every retry fit within it.
   */
  deadlineMs: number;
  /**
   * SUBGRAPH_CURSOR_SECRET: the key that signs connection cursors. Unset: a random key per process
   * (cursors do not survive a restart nor move between replicas: give every replica the same value).
   */
  cursorSecret: string | null;
  /**
   * File links (platform/file-links.ts, docs/security.md#file-links): FILE_LINK_SECRET, the key
   * that seals them (unset: derived from SUBGRAPH_CURSOR_SECRET, else one per process, so that
   * links open only in the process that minted them);
   * FILE_LINK_TTL_S, default 300, how long a link opens; FILE_LINK_BASE_URL, the public origin a
   * link names when the request does not say (a router other than the gateway), default the
   * subgraph's own origin.
   */
  fileLinks?: { secret: string | null; ttlSeconds: number; baseUrl: string | null };
  /** SUBGRAPH_MAX_REPRESENTATIONS, default 1000: the most `_entities` representations one request may carry */
  maxRepresentations: number;
  /**
   * DIRECTORY_BREAKER_FAILURES, default 20 (0: no breaker): after this many upstream requests in a
   * row failed with a 5xx, a timeout or a connection failure (after their retries), requests to
   * that API are not sent for `breakerOpenMs`; then one trial request decides.
   */
  breakerFailures: number;
  /** DIRECTORY_BREAKER_OPEN_S × 1000, default 5000 */
  breakerOpenMs: number;
  /** READY_CHECK_INTERVAL_MS, default 5000: how long `/ready`'s check of the upstream is kept (platform/readiness.ts) */
  readyIntervalMs: number;
  /**
   * DIRECTORY_REQUEST_BUDGET (`N/W`: N requests in any W seconds, or `off`) and
   * DIRECTORY_BACKGROUND_SHARE: the tenant's request budget as the directory counts it (both APIs
   * together, the token host apart), every replica's together when they share Redis (pacer.ts);
   * null when off. Default production's 50 in any 60 s, which is also the in-process directory's
   * own limit (contract/limits.ts).
   */
  requestBudget: RequestBudgetSettings | null;
  /**
   * DIRECTORY_REFERENCE_FRESH_S × 1000, default 300 s: how long a read of a reference list
   * (departments, establishments, legal entities, templates, qualifications, occupation
   * categories) answers again from memory (reference-cache.ts); the staleness bound, 0 off
   */
  referenceFreshMs?: number;
  /**
   * DIRECTORY_LEGACY_TIME_FRESH_S × 1000, default 30 s: how long a read of the legacy time data
   * (time entries, timesheets, axis sections), which the directory sends no event of, answers
   * again from memory (reference-cache.ts); the facade's own writes drop it at once; 0 off
   */
  legacyTimeFreshMs?: number;
  /** DIRECTORY_API_PREFIX, default `/service-api` (the interface's; production's is `/lucca-api`): the current API's path prefix on the wire (transport.ts `wire`) */
  apiPrefix?: string;
  /** DIRECTORY_LEGACY_AUTH_SCHEME, default `service` (the interface's; production's is `lucca`): the legacy API's `Authorization: <scheme> application=<key>` */
  legacyAuthScheme?: string;
  /** DIRECTORY_HELD_MB × 2^20, default 32 MiB: the most bytes of bodies (as JSON) the reference cache holds, the least recently read dropped first */
  heldBytes?: number;
  /**
   * DIRECTORY_HELD_FRESH_S × 1000, default 60 s: how old an ETag entry of an event-tagged read
   * (employees, employments, job positions, employee attributes) may be and still be served
   * without any request while the event path is heard (client.ts `holding`); 0 off
   */
  heldFreshMs?: number;
  /**
   * SUBGRAPH_MECHANISMS_OFF, default none: the subgraphs' round-saving mechanisms turned off, for
   * measuring what each buys (`prefetch-employee`, `operation-scope`, `embedded-priming`,
   * `adaptive-loaders`; bench/run.ts mechanismTable)
   */
  mechanismsOff?: ReadonlySet<string>;
  /** DIRECTORY_ETAG_CACHE_TTL_S, default 3600: how long a shared ETag entry lives in Redis */
  /** DIRECTORY_EVENTS and its settings: how the people subgraph's process hears of the directory's changes (absent: off) */
  events?: EventsConfig;
  etagCacheTtlSeconds?: number;
  /** DIRECTORY_REFUSED_TOKEN_TTL_S, default 30 (0: not remembered): how long a token the directory refused with 401 is refused without asking again */
  refusedTokenTtlSeconds?: number;
  /** REDIS_URL, REDIS_KEY_PREFIX, REDIS_TIMEOUT_MS (platform/shared-state.ts); absent: in process */
  shared?: SharedStateConfig;
}

/**
 * Every `.readonly` scope of a resource the facade reads, plus the one write it makes (which also
 * reads deliveries and their attempts). Job qualifications (with professions), webhook endpoints
 * and events have scopes of their own, as on the production service.
 */
export const DEFAULT_SCOPES: readonly string[] = [
  "employees.readonly",
  "employments.readonly",
  "job-positions.readonly",
  "employee-attributes.readonly",
  "employee-personal-records.readonly",
  "probationary-periods.readonly",
  "employment-templates.readonly",
  "occupation-categories.readonly",
  "job-qualifications.readonly",
  "legal-entities.readonly",
  "business-establishments.readonly",
  "taxonomies.readonly",
  "departments.readonly",
  "webhook-endpoints.readonly",
  "events.readonly",
  "webhook-deliveries.readwrite",
];

/**
 * DIRECTORY_REFERENCE_FRESH_S's default: reference data is at most five minutes old when the
 * directory's events for it do not arrive, and fresh at once when they do (reference-cache.ts)
 */
export const REFERENCE_FRESH_S = 300;

/**
 * DIRECTORY_LEGACY_TIME_FRESH_S's default: a time entry changed elsewhere than through the facade
 * (the directory's own screens) shows within half a minute; the facade's writes show at once
 */
export const LEGACY_TIME_FRESH_S = 30;

/**
 * DIRECTORY_HELD_FRESH_S's default: an event-tagged read is served without a request for at most
 * a minute after it was last answered, and only while the directory's events are heard
 * (docs/shared-state.md#what-is-held-and-how-fresh)
 */
export const HELD_FRESH_S = 60;
const MIB = 1 << 20;
export const DEFAULT_ETAG_CACHE_BYTES = 64 * MIB;
/** The current API's path prefix as the interface names it, and as the facade does internally (DIRECTORY_API_PREFIX: on the wire) */
export const CURRENT_PREFIX = "/service-api";

/** DIRECTORY_HELD_MB's default: what the reference cache holds, in bytes of its bodies as JSON */
export const DEFAULT_HELD_BYTES = 32 * MIB;

const DEMO = { clientId: "demo-client", clientSecret: "demo-secret", apiKey: "demo-api-key" };
const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export function loadUpstreamConfig(env: NodeJS.ProcessEnv = process.env): UpstreamConfig {
  const e = new Environment(env);
  const rawBase = e.httpUrl("DIRECTORY_BASE_URL", { bare: true });
  const embedded = rawBase === undefined;
  // the directory's own DIRECTORY_PORT may be 0 (a free port); a client needs the real one
  const baseUrl = embedded ? `http://127.0.0.1:${e.integer("DIRECTORY_PORT", 4010, 1, 65535)}` : rawBase.replace(/\/+$/, "");
  const tokenUrl = e.httpUrl("DIRECTORY_TOKEN_URL", { bare: true }) ?? `${baseUrl}/connect/token`;
  const auth = authMode(env);
  const forwardLegacyWrites = e.choice("DIRECTORY_FORWARD_LEGACY_WRITES", ["none", "readers"] as const, "none");

  const production = isProduction(env);
  const clientId = e.text("DIRECTORY_CLIENT_ID") ?? (embedded ? DEMO.clientId : null);
  // the directory service issues these: no length of ours, but no placeholder either
  const clientSecret = e.secret("DIRECTORY_CLIENT_SECRET", { production: production && !embedded, minLength: 0 }) ?? (embedded ? DEMO.clientSecret : null);
  if (auth === "service") {
    if (clientId === null) {
      throw new ConfigError("DIRECTORY_CLIENT_ID is required when DIRECTORY_BASE_URL is set and DIRECTORY_AUTH is service", "DIRECTORY_CLIENT_ID");
    }
    if (clientSecret === null) {
      throw new ConfigError("DIRECTORY_CLIENT_SECRET is required when DIRECTORY_BASE_URL is set and DIRECTORY_AUTH is service", "DIRECTORY_CLIENT_SECRET");
    }
  }

  const apiKey = e.secret("DIRECTORY_API_KEY", { production: production && !embedded, minLength: 0 }) ?? (embedded ? DEMO.apiKey : null);
  if (apiKey === null) {
    throw new ConfigError("DIRECTORY_API_KEY is required when DIRECTORY_BASE_URL is set (the legacy API knows only application keys)", "DIRECTORY_API_KEY");
  }
  if (/[\r\n]/.test(apiKey)) throw new ConfigError("DIRECTORY_API_KEY must not contain line breaks", "DIRECTORY_API_KEY");

  const rawScopes = e.text("DIRECTORY_SCOPES");
  let scopes = [...DEFAULT_SCOPES];
  if (rawScopes !== undefined) {
    scopes = [...new Set(rawScopes.split(/[\s,]+/).filter((s) => s !== ""))];
    const bad = scopes.find((s) => !SCOPE_PATTERN.test(s));
    if (bad !== undefined) throw new ConfigError(`DIRECTORY_SCOPES contains an invalid scope "${excerpt(bad)}"`, "DIRECTORY_SCOPES");
  }

  const budget = requestBudget(e);
  const events = loadEventsConfig(env, { embedded, production, forward: auth === "forward", budget });
  // registering the webhook endpoint (docs/configuration.md#directory-events)
  if (events.mode === "webhook" && rawScopes === undefined) scopes.push("webhook-endpoints.readwrite");

  return {
    baseUrl,
    embedded,
    tokenUrl,
    clientId,
    clientSecret,
    scopes,
    apiKey,
    auth,
    forwardLegacyWrites,
    compression: e.choice("DIRECTORY_COMPRESSION", ["on", "off"] as const, embedded ? "off" : "on") === "on",
    timeoutMs: e.integer("DIRECTORY_TIMEOUT_MS", 10_000, 1, 600_000),
    retries: e.integer("DIRECTORY_RETRIES", 2, 0, 10),
    maxRetryAfterSeconds: e.integer("DIRECTORY_MAX_RETRY_AFTER_S", 10, 0, 3600),
    concurrency: e.integer("DIRECTORY_CONCURRENCY", 8, 1, 256),
    etagCacheSize: e.integer("DIRECTORY_ETAG_CACHE_SIZE", 10_000, 0, 1_000_000),
    etagCacheBytes: e.integer("DIRECTORY_ETAG_CACHE_MB", DEFAULT_ETAG_CACHE_BYTES / MIB, 1, 65_536) * MIB,
    tokenRefreshMarginMs: e.integer("DIRECTORY_TOKEN_REFRESH_MARGIN_S", 60, 0, 86_400) * 1000,
    retryBaseDelayMs: 100,
    callBudget: e.integer("DIRECTORY_CALL_BUDGET", 100, 1, 100_000),
    deadlineMs: e.integer("SUBGRAPH_DEADLINE_MS", 10_000, 100, 600_000),
    cursorSecret: cursorSecret(e, production && !embedded),
    fileLinks: {
      secret: e.secret("FILE_LINK_SECRET", { production, minLength: PRODUCTION_SECRET_MIN_LENGTH }) ?? null,
      ttlSeconds: e.integer("FILE_LINK_TTL_S", 300, 10, 86_400),
      baseUrl: e.httpUrl("FILE_LINK_BASE_URL", { bare: true }) ?? null,
    },
    maxRepresentations: e.integer("SUBGRAPH_MAX_REPRESENTATIONS", 1000, 1, 100_000),
    breakerFailures: e.integer("DIRECTORY_BREAKER_FAILURES", 20, 0, 10_000),
    breakerOpenMs: e.integer("DIRECTORY_BREAKER_OPEN_S", 5, 1, 3600) * 1000,
    readyIntervalMs: readyCheckIntervalMs(env),
    requestBudget: budget,
    etagCacheTtlSeconds: e.integer("DIRECTORY_ETAG_CACHE_TTL_S", 3600, 1, 7 * 86_400),
    referenceFreshMs: e.integer("DIRECTORY_REFERENCE_FRESH_S", REFERENCE_FRESH_S, 0, 86_400) * 1000,
    legacyTimeFreshMs: e.integer("DIRECTORY_LEGACY_TIME_FRESH_S", LEGACY_TIME_FRESH_S, 0, 86_400) * 1000,
    heldBytes: e.integer("DIRECTORY_HELD_MB", DEFAULT_HELD_BYTES / MIB, 1, 65_536) * MIB,
    apiPrefix: apiPrefix(e),
    legacyAuthScheme: legacyAuthScheme(e),
    heldFreshMs: e.integer("DIRECTORY_HELD_FRESH_S", HELD_FRESH_S, 0, 3600) * 1000,
    mechanismsOff: mechanismsOff(e),
    refusedTokenTtlSeconds: refusedTokenTtlSeconds(env),
    shared: loadSharedStateConfig(env),
    events,
  };
}

/**
 * DIRECTORY_REQUEST_BUDGET and DIRECTORY_BACKGROUND_SHARE (docs/configuration.md#the-request-budget).
 * The default is the same against a real directory and the embedded one: production allows 50
 * requests in any 60 s, and the in-process directory keeps production's limit.
 */
function requestBudget(e: Environment): RequestBudgetSettings | null {
  if (e.text("DIRECTORY_RATE_LIMIT") !== undefined) {
    throw new ConfigError("DIRECTORY_RATE_LIMIT is replaced by DIRECTORY_REQUEST_BUDGET (N requests in any W seconds, both APIs together, e.g. 50/60)", "DIRECTORY_RATE_LIMIT");
  }
  const raw = e.text("DIRECTORY_REQUEST_BUDGET") ?? `${PRODUCTION_LIMITS.requests}/${PRODUCTION_LIMITS.windowSeconds}`;
  if (raw === "off") return null;
  const match = /^(\d{1,6})\/(\d{1,5})$/.exec(raw);
  const requests = match ? Number(match[1]) : NaN;
  const windowSeconds = match ? Number(match[2]) : NaN;
  if (!(requests >= 2 && windowSeconds >= 1 && windowSeconds <= 86_400)) {
    throw new ConfigError(`DIRECTORY_REQUEST_BUDGET must be off or N/W (at least 2 requests in a window of 1 to 86400 seconds, e.g. 50/60), got "${excerpt(raw)}"`, "DIRECTORY_REQUEST_BUDGET");
  }
  const percent = e.integer("DIRECTORY_BACKGROUND_SHARE", 20, 1, 50);
  // at least one slot each: the event poll must go on while frontends take every slot of theirs
  const background = Math.min(requests - 1, Math.max(1, Math.floor((requests * percent) / 100)));
  return { requests, windowSeconds, background };
}

/** DIRECTORY_API_PREFIX: one or more path segments, `/lucca-api` against production */
function apiPrefix(e: Environment): string {
  const raw = e.text("DIRECTORY_API_PREFIX") ?? CURRENT_PREFIX;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) throw new ConfigError(`DIRECTORY_API_PREFIX must be a path such as /lucca-api (segments of letters, digits, ".", "_", "~", "-"), got "${excerpt(raw)}"`, "DIRECTORY_API_PREFIX");
  return raw;
}

/** DIRECTORY_LEGACY_AUTH_SCHEME: an HTTP authentication scheme token, `lucca` against production */
function legacyAuthScheme(e: Environment): string {
  const raw = e.text("DIRECTORY_LEGACY_AUTH_SCHEME") ?? "service";
  if (!/^[A-Za-z][A-Za-z0-9-]{0,31}$/.test(raw)) throw new ConfigError(`DIRECTORY_LEGACY_AUTH_SCHEME must be a scheme name such as lucca (a letter, then letters, digits or "-"), got "${excerpt(raw)}"`, "DIRECTORY_LEGACY_AUTH_SCHEME");
  return raw;
}

/** SUBGRAPH_MECHANISMS_OFF: the names it may list */
const MECHANISMS = ["prefetch-employee", "operation-scope", "embedded-priming", "adaptive-loaders"];

function mechanismsOff(e: Environment): ReadonlySet<string> {
  const names = (e.text("SUBGRAPH_MECHANISMS_OFF") ?? "").split(",").map((name: string) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !MECHANISMS.includes(name));
  if (unknown.length > 0) throw new ConfigError(`SUBGRAPH_MECHANISMS_OFF: ${unknown.join(", ")} is none of ${MECHANISMS.join(", ")}`, "SUBGRAPH_MECHANISMS_OFF");
  return new Set(names);
}

/**
 * SUBGRAPH_CURSOR_SECRET. Required in production against a real directory (`required`): a random
 * key per process would invalidate the cursors clients hold at every restart, and replicas would
 * refuse each other's; there it is a secret of the facade's (32 characters, no placeholder).
 */
function cursorSecret(e: Environment, required: boolean): string | null {
  const raw = e.secret("SUBGRAPH_CURSOR_SECRET", { production: required, minLength: PRODUCTION_SECRET_MIN_LENGTH });
  if (raw === undefined) {
    if (!required) return null;
    throw new ConfigError(
      "SUBGRAPH_CURSOR_SECRET is required in production (NODE_ENV=production with DIRECTORY_BASE_URL): without it cursors break at every restart and across replicas",
      "SUBGRAPH_CURSOR_SECRET",
    );
  }
  // a short key could be guessed from cursors, and a guessed key forges them
  if (raw.length < 16) throw new ConfigError("SUBGRAPH_CURSOR_SECRET must be at least 16 characters long", "SUBGRAPH_CURSOR_SECRET");
  return raw;
}
