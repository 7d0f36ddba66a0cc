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
    subscriptions: loadSubscriptionSettings(env),
  };
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
