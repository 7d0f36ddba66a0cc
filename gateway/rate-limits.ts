import type { IncomingMessage } from "node:http";
import { createHash } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { ConfigError, Environment, excerpt } from "../platform/config.js";
import { ErrorCode } from "../platform/error-codes.js";
import type { Refusal } from "../platform/http.js";
import type { RequestedOperation } from "../platform/limits.js";
import { processMetrics } from "../platform/metrics.js";
import type { RefusedTokens } from "../platform/refused-tokens.js";
import type { SharedState } from "../platform/shared-state.js";

/**
 * Per-client limits at the gateway (docs/security.md#per-client-rate-limits), checked after the operation
 * limits and before any subgraph fetch: operations per minute, writes (mutations) per minute apart
 * with their own lower limit, and a cost budget per minute, the cost being the one the operation
 * limits measured (platform/limits.ts). A client is the hash of its bearer token in forward mode
 * (the address for a request without one), its address in service mode: the socket's peer, or,
 * behind GATEWAY_TRUSTED_PROXIES, the last address of `X-Forwarded-For` that is not one of them.
 * rate-limiter-flexible counts them; with Redis across every gateway replica, without it (or
 * while Redis is down) in the process. Over a limit: 429, `Retry-After`, one error naming it.
 *
 * In forward mode a token the directory refused a moment ago (platform/refused-tokens.ts) is
 * refused here, 401, before any subgraph fetch.
 */

export interface RateLimits {
  /** GATEWAY_RATE_LIMIT: operations per minute per client, 0: none */
  operations: number;
  /** GATEWAY_WRITE_RATE_LIMIT: mutations per minute per client, 0: none */
  writes: number;
  /** GATEWAY_COST_LIMIT: operation cost per minute per client, 0: none */
  cost: number;
  /** GATEWAY_TRUSTED_PROXIES: addresses and CIDR blocks whose X-Forwarded-For is believed */
  trustedProxies: string[];
}

export const PRODUCTION_RATE_LIMITS = { operations: 600, writes: 60, cost: 500_000 } as const;

export function loadRateLimits(env: NodeJS.ProcessEnv, production: boolean): RateLimits {
  const e = new Environment(env);
  const defaults = production ? PRODUCTION_RATE_LIMITS : { operations: 0, writes: 0, cost: 0 };
  const trustedProxies = (e.text("GATEWAY_TRUSTED_PROXIES") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const proxy of trustedProxies) {
    if (blockOf(proxy) === null) throw new ConfigError(`GATEWAY_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR blocks, got "${excerpt(proxy)}"`, "GATEWAY_TRUSTED_PROXIES");
  }
  return {
    operations: e.integer("GATEWAY_RATE_LIMIT", defaults.operations, 0, 1_000_000),
    writes: e.integer("GATEWAY_WRITE_RATE_LIMIT", defaults.writes, 0, 1_000_000),
    cost: e.integer("GATEWAY_COST_LIMIT", defaults.cost, 0, 1_000_000_000),
    trustedProxies,
  };
}

function blockOf(entry: string): { address: string; prefix: number; type: "ipv4" | "ipv6" } | null {
  const [address, bits] = entry.split("/");
  const version = isIP(address ?? "");
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address: address!, prefix, type: version === 4 ? "ipv4" : "ipv6" };
}

type Limit = "operations" | "writes" | "cost";

/** each limit's name in `graphql_refusals_total` */
const LIMIT_NAMES = { operations: "rateLimitOperations", writes: "rateLimitWrites", cost: "rateLimitCost" } as const;

const MESSAGES: Record<Limit, (value: number) => string> = {
  operations: (n) => `Rate limit exceeded: at most ${n} operations a minute for one client`,
  writes: (n) => `Rate limit exceeded: at most ${n} mutations a minute for one client`,
  cost: (n) => `Rate limit exceeded: at most ${n} of operation cost a minute for one client (GRAPHQL_MAX_COST's measure)`,
};

export function rateLimitGate(options: { limits: RateLimits; forward: boolean; shared: SharedState; refusedTokens: RefusedTokens }) {
  const { limits, shared } = options;
  const proxies = new BlockList();
  for (const entry of limits.trustedProxies) {
    const block = blockOf(entry)!;
    proxies.addSubnet(block.address, block.prefix, block.type);
  }
  const limiters = (Object.keys(MESSAGES) as Limit[])
    .filter((limit) => limits[limit] > 0)
    .map((limit) => {
      const settings = { keyPrefix: `rate-${limit}`, points: limits[limit], duration: 60 };
      const local = new RateLimiterMemory(settings);
      // the key prefix of ioredis applies too: `<REDIS_KEY_PREFIX>rate-operations:<client>`
      const redis = shared.redis ? new RateLimiterRedis({ ...settings, storeClient: shared.redis, rejectIfRedisNotReady: true }) : null;
      return { limit, local, redis };
    });

  const consume = (limiter: { local: RateLimiterAbstract; redis: RateLimiterAbstract | null }, key: string, points: number) =>
    limiter.redis ? shared.use("rate_limit", () => limiter.redis!.consume(key, points), () => limiter.local.consume(key, points)) : limiter.local.consume(key, points);

  /** The client address: behind trusted proxies, the last X-Forwarded-For entry that is not one. */
  const addressOf = (req: IncomingMessage): string => {
    let address = normalise(req.socket.remoteAddress ?? "");
    if (!isTrusted(proxies, address)) return address;
    const forwarded = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")
      .map((a) => normalise(a.trim()))
      .filter((a) => a !== "");
    while (forwarded.length > 0 && isTrusted(proxies, address)) address = forwarded.pop()!;
    return address;
  };

  return async (operation: RequestedOperation, req: IncomingMessage): Promise<Refusal | null> => {
    const authorization = typeof req.headers.authorization === "string" ? req.headers.authorization.trim() : "";
    const bearer = options.forward && /^Bearer\s+\S+/i.test(authorization);
    if (bearer && (await options.refusedTokens.has(authorization))) {
      processMetrics().refused("gateway", "refusedToken");
      return {
        status: 401,
        body: { errors: [{ message: "The directory refused this token a moment ago: get a new one", extensions: { code: ErrorCode.UNAUTHENTICATED } }] },
      };
    }
    if (limiters.length === 0) return null;
    const client = bearer ? `token:${createHash("sha256").update(authorization).digest("base64url")}` : `address:${addressOf(req)}`;
    const write = (operation.shape?.mutationFields ?? 0) > 0;
    for (const limiter of limiters) {
      if (limiter.limit === "writes" && !write) continue;
      const points = limiter.limit === "cost" ? Math.max(1, operation.shape?.cost ?? 1) : 1;
      try {
        await consume(limiter, client, points);
      } catch (verdict) {
        if (!(verdict instanceof RateLimiterRes)) throw verdict;
        processMetrics().refused("gateway", LIMIT_NAMES[limiter.limit]);
        const retryAfter = Math.max(1, Math.ceil(verdict.msBeforeNext / 1000));
        const value = limits[limiter.limit];
        return {
          status: 429,
          headers: { "retry-after": String(retryAfter) },
          body: { errors: [{ message: MESSAGES[limiter.limit](value), extensions: { code: ErrorCode.RATE_LIMITED, limit: limiter.limit, value, retryAfter } }] },
        };
      }
    }
    return null;
  };
}

/** `::ffff:127.0.0.1` → `127.0.0.1` */
function normalise(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && proxies.check(address, version === 4 ? "ipv4" : "ipv6");
}
