import { loadSubscriptionSettings, type SubscriptionSettings } from "./subscriptions.js";
import { readyCheckIntervalMs } from "../platform/readiness.js";
import { authMode, ConfigError, debugErrors, Environment, graphPrefix, isProduction, listenHost, excerpt, subgraphSecret } from "../platform/config.js";
import { loadOperationLimits, type OperationLimits } from "../platform/limits.js";
import { readLogLevel, type LogLevel } from "../platform/log.js";
import { parseCorsAllowedHeaders, parseCorsOrigins, type CorsOrigins } from "./cors.js";
import { TRUSTED_DOCUMENTS_MANIFEST, type TrustedDocumentsMode } from "./trusted-documents.js";
import { fileURLToPath } from "node:url";
import { loadRateLimits, type RateLimits } from "./rate-limits.js";
import { refusedTokenTtlSeconds } from "../platform/refused-tokens.js";
import { loadSharedStateConfig, type SharedStateConfig } from "../platform/shared-state.js";

/** The gateway's configuration, parsed and validated once at start-up from the environment. */

export const SUBGRAPH_NAMES = ["people", "organisation", "legacy-time"] as const;
export type SubgraphName = (typeof SUBGRAPH_NAMES)[number];

export interface GatewayConfig {
  /** GATEWAY_PORT, default 4000 (0 picks a free port) */
  port: number;
  /** HOST, default 127.0.0.1 */
  host: string;
  /** GATEWAY_COMPOSE: `supergraph` (default, the committed schema/supergraph.graphql) or `introspect` (compose the live subgraphs) */
  compose: "supergraph" | "introspect";
  /** GATEWAY_SUPERGRAPH: path of the supergraph SDL, default schema/supergraph.graphql (schema/prefixed/supergraph.graphql with GRAPH_PREFIX) */
  supergraphPath: string;
  /** GRAPH_PREFIX: the subgraphs' namespace; the supergraph served must carry it (null: none) */
  prefix: string | null;
  /** PEOPLE_URL, ORGANISATION_URL, LEGACY_TIME_URL: override the routing URLs of the supergraph */
  subgraphUrls: Record<SubgraphName, string>;
  /** GATEWAY_SUBSCRIPTIONS_PER_CLIENT, GATEWAY_SUBSCRIPTION_HEARTBEAT_MS, GATEWAY_SUBSCRIPTION_QUEUE (subscriptions.ts) */
  subscriptions: SubscriptionSettings;
  /** SUBGRAPH_SECRET: sent to every subgraph in `x-subgraph-secret` */
  subgraphSecret: string | null;
  /** DIRECTORY_AUTH: in `forward` mode an operation without a bearer token is refused */
  auth: "service" | "forward";
  /** NODE_ENV=production: no Sandbox landing page, no introspection */
  production: boolean;
  logLevel: LogLevel;
  /** GRAPHQL_MAX_*: the operation limits, checked before validation and planning */
  limits: OperationLimits;
  /** GATEWAY_DEADLINE_MS, default 10000: an operation's time budget, subgraph fetches included */
  deadlineMs: number;
  /** GRAPHQL_DEBUG_ERRORS, default false: unmasked errors with stack traces and subgraph details */
  debugErrors: boolean;
  /** GATEWAY_CORS_ORIGINS: the origins browser frontends may call from (default: loopback outside production, none in production) */
  corsOrigins: CorsOrigins;
  /** the request headers a browser may send: the defaults of cors.ts plus GATEWAY_CORS_ALLOWED_HEADERS */
  corsAllowedHeaders: string[];
  /** GATEWAY_EXPLORER: the exploration pages served (default: both outside production, none in production) */
  explorers: Explorers;
  /** READY_CHECK_INTERVAL_MS, default 5000: how long `/ready`'s check of the subgraphs is kept (platform/readiness.ts) */
  readyIntervalMs?: number;
  /** GATEWAY_TRUSTED_DOCUMENTS: `off` (default outside production), `log` (default in production) or `enforce` (trusted-documents.ts) */
  trustedDocuments: TrustedDocumentsMode;
  /** GATEWAY_TRUSTED_DOCUMENTS_MANIFEST: the manifest's path, default operations/trusted-documents.json */
  trustedDocumentsManifest: string;
  /** GATEWAY_RATE_LIMIT, GATEWAY_WRITE_RATE_LIMIT, GATEWAY_COST_LIMIT, GATEWAY_TRUSTED_PROXIES (rate-limits.ts) */
  rateLimits: RateLimits;
  /** GATEWAY_APQ_TTL_S, default 86400: how long a document registered by APQ is kept */
  apqTtlSeconds: number;
  /** GATEWAY_APQ_CACHE_MB × 2^20, default 32 MiB: the process's own APQ documents */
  apqCacheBytes: number;
  /** GATEWAY_PUBLIC_URL: the origin clients reach the gateway at, which file links name (default: `http://` and the request's Host) */
  publicUrl: string | null;
  /** DIRECTORY_REFUSED_TOKEN_TTL_S, default 30 (forward mode) */
  refusedTokenTtlSeconds: number;
  /** REDIS_URL, REDIS_KEY_PREFIX, REDIS_TIMEOUT_MS: the state the replicas share */
  shared: SharedStateConfig;
  /**
   * GATEWAY_PREFETCH: the subgraphs a query's later entity fetches are announced to as it starts
   * (apollo/speculate.ts), so that their reads needing no id begin in the first round; default
   * `organisation`, `none` for none
   */
  prefetch: ReadonlySet<SubgraphName>;
  /** GATEWAY_SPLIT_ROOT_FETCH, default true: the part of a root lookup's fetch later fetches need is asked on its own (apollo/speculate.ts) */
  splitRootFetch: boolean;
  /** GATEWAY_LOOKUP_SPECULATION, default true: a root lookup by id's next entity fetch starts with the root fetch (apollo/speculate.ts) */
  lookupSpeculation: boolean;
  /**
   * GATEWAY_SPECULATION_MAX_LOAD, percent, default 90: a subgraph that says a load at least this
   * high is asked nothing ahead (speculation-brake.ts); `off` (null): always asked
   */
  speculationMaxLoad: number | null;
}

/** `sandbox`: Apollo Sandbox at `/` (loaded from Apollo's CDN); `explorer`: GraphiQL at `/explorer`, served offline. */
export interface Explorers {
  sandbox: boolean;
  explorer: boolean;
}

const URL_VARIABLES: Record<SubgraphName, string> = {
  people: "PEOPLE_URL",
  organisation: "ORGANISATION_URL",
  "legacy-time": "LEGACY_TIME_URL",
};
const PORT_VARIABLES: Record<SubgraphName, [string, number]> = {
  people: ["PEOPLE_PORT", 4001],
  organisation: ["ORGANISATION_PORT", 4002],
  "legacy-time": ["LEGACY_TIME_PORT", 4003],
};

/** Throws a ConfigError naming the first wrong variable. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const e = new Environment(env);
  const subgraphUrls = {} as Record<SubgraphName, string>;
  for (const name of SUBGRAPH_NAMES) {
    const [portVariable, defaultPort] = PORT_VARIABLES[name];
    subgraphUrls[name] = e.httpUrl(URL_VARIABLES[name]) ?? `http://127.0.0.1:${e.port(portVariable, defaultPort)}/graphql`;
  }
  const prefix = graphPrefix(env);
  const production = isProduction(env);
  return {
    port: e.port("GATEWAY_PORT", 4000),
    host: listenHost(env),
    compose: e.choice("GATEWAY_COMPOSE", ["supergraph", "introspect"] as const, "supergraph"),
    supergraphPath: e.text("GATEWAY_SUPERGRAPH") ?? new URL(prefix ? "../schema/prefixed/supergraph.graphql" : "../schema/supergraph.graphql", import.meta.url).pathname,
    prefix,
    subgraphUrls,
    subgraphSecret: subgraphSecret(env),
    auth: authMode(env),
    production,
    logLevel: readLogLevel(env),
    limits: loadOperationLimits(env),
    deadlineMs: e.integer("GATEWAY_DEADLINE_MS", 10_000, 100, 600_000),
    debugErrors: debugErrors(env),
    corsOrigins: parseCorsOrigins(e.text("GATEWAY_CORS_ORIGINS"), production),
    corsAllowedHeaders: parseCorsAllowedHeaders(e.text("GATEWAY_CORS_ALLOWED_HEADERS")),
    explorers: parseExplorers(e.text("GATEWAY_EXPLORER"), production),
    readyIntervalMs: readyCheckIntervalMs(env),
    trustedDocuments: e.choice("GATEWAY_TRUSTED_DOCUMENTS", ["off", "log", "enforce"] as const, production ? "log" : "off"),
    trustedDocumentsManifest: e.text("GATEWAY_TRUSTED_DOCUMENTS_MANIFEST") ?? fileURLToPath(TRUSTED_DOCUMENTS_MANIFEST),
    rateLimits: loadRateLimits(env, production),
    apqTtlSeconds: e.integer("GATEWAY_APQ_TTL_S", 86_400, 1, 30 * 86_400),
    apqCacheBytes: e.integer("GATEWAY_APQ_CACHE_MB", 32, 1, 4096) * (1 << 20),
    publicUrl: e.httpUrl("GATEWAY_PUBLIC_URL", { bare: true })?.replace(/\/+$/, "") ?? null,
    refusedTokenTtlSeconds: refusedTokenTtlSeconds(env),
    shared: loadSharedStateConfig(env),
    prefetch: parsePrefetch(e.text("GATEWAY_PREFETCH")),
    splitRootFetch: e.boolean("GATEWAY_SPLIT_ROOT_FETCH", true),
    lookupSpeculation: e.boolean("GATEWAY_LOOKUP_SPECULATION", true),
    speculationMaxLoad: speculationMaxLoad(e),
    subscriptions: loadSubscriptionSettings(env),
  };
}

/**
 * GATEWAY_SPECULATION_MAX_LOAD: unset → 90; `off` → null; else a whole percent from 50 to 100 (a
 * subgraph less than half busy is not saturated, and a lower limit would leave no room below it
 * to let go at: speculation-brake.ts's LOAD_HYSTERESIS).
 */
function speculationMaxLoad(e: Environment): number | null {
  const name = "GATEWAY_SPECULATION_MAX_LOAD";
  const raw = e.text(name);
  if (raw === undefined) return 90;
  if (raw === "off") return null;
  const value = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 50 && value <= 100)) throw new ConfigError(`${name} must be "off" or an integer from 50 to 100 (percent), got "${excerpt(raw)}"`, name);
  return value;
}

/** GATEWAY_PREFETCH: unset → `organisation`; `none`; or a comma-separated list of subgraph names. */
function parsePrefetch(text: string | undefined): ReadonlySet<SubgraphName> {
  if (text === undefined) return new Set(["organisation"]);
  if (text.trim() === "none") return new Set();
  const out = new Set<SubgraphName>();
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (!(SUBGRAPH_NAMES as readonly string[]).includes(entry)) {
      throw new ConfigError(`GATEWAY_PREFETCH must be "none" or a comma-separated list of ${SUBGRAPH_NAMES.join(", ")}, got "${excerpt(entry)}"`, "GATEWAY_PREFETCH");
    }
    out.add(entry as SubgraphName);
  }
  return out;
}

/** GATEWAY_EXPLORER: unset → both outside production, none in production; `none`; or a comma-separated list of `sandbox`, `explorer`. */
function parseExplorers(text: string | undefined, production: boolean): Explorers {
  if (text === undefined) return { sandbox: !production, explorer: !production };
  const explorers = { sandbox: false, explorer: false };
  if (text === "none") return explorers;
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry !== "sandbox" && entry !== "explorer") {
      throw new ConfigError(`GATEWAY_EXPLORER must be "none" or a comma-separated list of "sandbox" and "explorer", got "${excerpt(entry)}"`, "GATEWAY_EXPLORER");
    }
    explorers[entry] = true;
  }
  return explorers;
}
