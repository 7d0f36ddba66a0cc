import { parseBoolean, parseGraphPrefix, parseInteger, parsePort } from "../platform/config.js";
import { loadOperationLimits, type OperationLimits } from "../platform/limits.js";
import { parseLogLevel, type LogLevel } from "../platform/log.js";
import { parseCorsOrigins, type CorsOrigins } from "./cors.js";

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
  /** GATEWAY_EXPLORER: the exploration pages served (default: both outside production, none in production) */
  explorers: Explorers;
}

/** `sandbox`: Apollo Sandbox at `/` (loaded from Apollo's CDN); `explorer`: GraphiQL at `/explorer`, served offline. */
export interface Explorers {
  sandbox: boolean;
  explorer: boolean;
}

export class GatewayConfigError extends Error {}

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

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = parsePortVariable(env, "GATEWAY_PORT", 4000);
  const compose = env.GATEWAY_COMPOSE ?? "supergraph";
  if (compose !== "supergraph" && compose !== "introspect") {
    throw new GatewayConfigError(`GATEWAY_COMPOSE must be "supergraph" or "introspect", got "${compose}"`);
  }
  const auth = env.DIRECTORY_AUTH ?? "service";
  if (auth !== "service" && auth !== "forward") {
    throw new GatewayConfigError(`DIRECTORY_AUTH must be "service" or "forward", got "${auth}"`);
  }
  const subgraphUrls = {} as Record<SubgraphName, string>;
  for (const name of SUBGRAPH_NAMES) {
    const variable = URL_VARIABLES[name];
    const [portVariable, defaultPort] = PORT_VARIABLES[name];
    const value = env[variable] || `http://127.0.0.1:${parsePortVariable(env, portVariable, defaultPort)}/graphql`;
    try {
      const url = new URL(value);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    } catch {
      throw new GatewayConfigError(`${variable} must be an http(s) URL, got "${value}"`);
    }
    subgraphUrls[name] = value;
  }
  let logLevel: LogLevel;
  let prefix: string | null;
  let limits: OperationLimits;
  let deadlineMs: number;
  let debugErrors: boolean;
  try {
    logLevel = parseLogLevel(env.LOG_LEVEL);
    prefix = parseGraphPrefix("GRAPH_PREFIX", env.GRAPH_PREFIX);
    limits = loadOperationLimits(env);
    deadlineMs = parseInteger("GATEWAY_DEADLINE_MS", env.GATEWAY_DEADLINE_MS, 10_000, 100, 600_000);
    debugErrors = parseBoolean("GRAPHQL_DEBUG_ERRORS", env.GRAPHQL_DEBUG_ERRORS, false);
  } catch (err) {
    throw new GatewayConfigError((err as Error).message);
  }
  const production = env.NODE_ENV === "production";
  let corsOrigins: CorsOrigins;
  try {
    corsOrigins = parseCorsOrigins(env.GATEWAY_CORS_ORIGINS, production);
  } catch (err) {
    throw new GatewayConfigError((err as Error).message);
  }
  return {
    port,
    host: env.HOST || "127.0.0.1",
    compose,
    supergraphPath: env.GATEWAY_SUPERGRAPH || new URL(prefix ? "../schema/prefixed/supergraph.graphql" : "../schema/supergraph.graphql", import.meta.url).pathname,
    prefix,
    subgraphUrls,
    subgraphSecret: env.SUBGRAPH_SECRET || null,
    auth,
    production,
    logLevel,
    limits,
    deadlineMs,
    debugErrors,
    corsOrigins,
    explorers: parseExplorers(env.GATEWAY_EXPLORER, production),
  };
}

function parsePortVariable(env: NodeJS.ProcessEnv, variable: string, fallback: number): number {
  try {
    return parsePort(variable, env[variable], fallback);
  } catch (err) {
    throw new GatewayConfigError((err as Error).message);
  }
}

/** GATEWAY_EXPLORER: unset or empty → both outside production, none in production; `none`; or a comma-separated list of `sandbox`, `explorer`. */
function parseExplorers(value: string | undefined, production: boolean): Explorers {
  const text = (value ?? "").trim();
  if (text === "") return { sandbox: !production, explorer: !production };
  const explorers = { sandbox: false, explorer: false };
  if (text === "none") return explorers;
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry !== "sandbox" && entry !== "explorer") {
      throw new GatewayConfigError(`GATEWAY_EXPLORER must be "none" or a comma-separated list of "sandbox" and "explorer", got "${entry}"`);
    }
    explorers[entry] = true;
  }
  return explorers;
}
