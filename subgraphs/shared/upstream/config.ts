/**
 * Configuration of the upstream access layer, read from the environment once at start-up so a
 * wrong variable stops the process with a message naming it instead of failing per request.
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
}

/** A missing or malformed environment variable; the message names it. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Every `.readonly` scope of a resource the facade reads, plus the one write it makes. Job
 * qualifications have a scope of their own, as on the production service.
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
  "webhook-deliveries.readwrite",
];

const MIB = 1 << 20;
export const DEFAULT_ETAG_CACHE_BYTES = 64 * MIB;

const DEMO = { clientId: "demo-client", clientSecret: "demo-secret", apiKey: "demo-api-key" };
const SCOPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export function loadUpstreamConfig(env: NodeJS.ProcessEnv = process.env): UpstreamConfig {
  const get = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };

  const rawBase = get("DIRECTORY_BASE_URL");
  const embedded = rawBase === undefined;
  let baseUrl: string;
  if (embedded) {
    const port = integer(env, "DIRECTORY_PORT", 4010, 1, 65535);
    baseUrl = `http://127.0.0.1:${port}`;
  } else {
    baseUrl = httpUrl("DIRECTORY_BASE_URL", rawBase).replace(/\/+$/, "");
  }

  const rawTokenUrl = get("DIRECTORY_TOKEN_URL");
  const tokenUrl = rawTokenUrl === undefined ? `${baseUrl}/connect/token` : httpUrl("DIRECTORY_TOKEN_URL", rawTokenUrl);

  const rawAuth = get("DIRECTORY_AUTH") ?? "service";
  if (rawAuth !== "service" && rawAuth !== "forward") {
    throw new ConfigError(`DIRECTORY_AUTH must be "service" or "forward", got "${truncate(rawAuth)}"`, "DIRECTORY_AUTH");
  }
  const auth = rawAuth;

  const rawLegacyWrites = get("DIRECTORY_FORWARD_LEGACY_WRITES") ?? "none";
  if (rawLegacyWrites !== "none" && rawLegacyWrites !== "readers") {
    throw new ConfigError(
      `DIRECTORY_FORWARD_LEGACY_WRITES must be "none" or "readers", got "${truncate(rawLegacyWrites)}"`,
      "DIRECTORY_FORWARD_LEGACY_WRITES",
    );
  }
  const forwardLegacyWrites = rawLegacyWrites;

  const clientId = get("DIRECTORY_CLIENT_ID") ?? (embedded ? DEMO.clientId : null);
  const clientSecret = get("DIRECTORY_CLIENT_SECRET") ?? (embedded ? DEMO.clientSecret : null);
  if (auth === "service") {
    if (clientId === null) {
      throw new ConfigError("DIRECTORY_CLIENT_ID is required when DIRECTORY_BASE_URL is set and DIRECTORY_AUTH is service", "DIRECTORY_CLIENT_ID");
    }
    if (clientSecret === null) {
      throw new ConfigError("DIRECTORY_CLIENT_SECRET is required when DIRECTORY_BASE_URL is set and DIRECTORY_AUTH is service", "DIRECTORY_CLIENT_SECRET");
    }
  }

  const apiKey = get("DIRECTORY_API_KEY") ?? (embedded ? DEMO.apiKey : null);
  if (apiKey === null) {
    throw new ConfigError("DIRECTORY_API_KEY is required when DIRECTORY_BASE_URL is set (the legacy API knows only application keys)", "DIRECTORY_API_KEY");
  }
  if (/[\r\n]/.test(apiKey)) throw new ConfigError("DIRECTORY_API_KEY must not contain line breaks", "DIRECTORY_API_KEY");

  const rawScopes = get("DIRECTORY_SCOPES");
  let scopes = [...DEFAULT_SCOPES];
  if (rawScopes !== undefined) {
    scopes = [...new Set(rawScopes.split(/[\s,]+/).filter((s) => s !== ""))];
    const bad = scopes.find((s) => !SCOPE_PATTERN.test(s));
    if (bad !== undefined) throw new ConfigError(`DIRECTORY_SCOPES contains an invalid scope "${truncate(bad)}"`, "DIRECTORY_SCOPES");
  }

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
    timeoutMs: integer(env, "DIRECTORY_TIMEOUT_MS", 10_000, 1, 600_000),
    retries: integer(env, "DIRECTORY_RETRIES", 2, 0, 10),
    maxRetryAfterSeconds: integer(env, "DIRECTORY_MAX_RETRY_AFTER_S", 10, 0, 3600),
    concurrency: integer(env, "DIRECTORY_CONCURRENCY", 8, 1, 256),
    etagCacheSize: integer(env, "DIRECTORY_ETAG_CACHE_SIZE", 10_000, 0, 1_000_000),
    etagCacheBytes: integer(env, "DIRECTORY_ETAG_CACHE_MB", DEFAULT_ETAG_CACHE_BYTES / MIB, 1, 65_536) * MIB,
    tokenRefreshMarginMs: integer(env, "DIRECTORY_TOKEN_REFRESH_MARGIN_S", 60, 0, 86_400) * 1000,
    retryBaseDelayMs: 100,
    callBudget: integer(env, "DIRECTORY_CALL_BUDGET", 100, 1, 100_000),
    deadlineMs: integer(env, "SUBGRAPH_DEADLINE_MS", 10_000, 100, 600_000),
    cursorSecret: cursorSecret(get("SUBGRAPH_CURSOR_SECRET")),
    maxRepresentations: integer(env, "SUBGRAPH_MAX_REPRESENTATIONS", 1000, 1, 100_000),
    breakerFailures: integer(env, "DIRECTORY_BREAKER_FAILURES", 20, 0, 10_000),
    breakerOpenMs: integer(env, "DIRECTORY_BREAKER_OPEN_S", 5, 1, 3600) * 1000,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${truncate(raw)}"`, name);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${raw}`, name);
  return value;
}

function cursorSecret(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // a short key could be guessed from cursors, and a guessed key forges them
  if (raw.length < 16) throw new ConfigError("SUBGRAPH_CURSOR_SECRET must be at least 16 characters long", "SUBGRAPH_CURSOR_SECRET");
  return raw;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL`, name);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got protocol ${url.protocol}`, name);
  }
  if (url.search !== "" || url.hash !== "") throw new ConfigError(`${name} must not carry a query string or fragment`, name);
  // credentials in the URL would be sent with every call and could leak into logs
  if (url.username !== "" || url.password !== "") throw new ConfigError(`${name} must not contain credentials`, name);
  return raw;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
