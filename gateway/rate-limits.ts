import type { IncomingMessage } from "node:http";
import { createHash } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { LRUCache } from "lru-cache";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { ConfigError, Environment, excerpt } from "../platform/config.js";
import { canonicalAuthorization, isBearer } from "../platform/credentials.js";
import { ErrorCode, errorBody } from "../platform/error-codes.js";
import { InFlight } from "../platform/inflight.js";
import type { Refusal } from "../platform/http.js";
import type { RequestedOperation } from "../platform/limits.js";
import { processMetrics } from "../platform/metrics.js";
import type { RefusedTokens } from "../platform/refused-tokens.js";
import type { SharedState } from "../platform/shared-state.js";
import { introspectionOnly } from "./trusted-documents.js";

/**
 * Per-client limits at the gateway (docs/security.md#per-client-rate-limits), checked after the operation
 * limits and before any subgraph fetch: operations per minute, writes (mutations) per minute apart
 * with their own lower limit, and a cost budget per minute, the cost being the one the operation
 * limits measured (platform/limits.ts). A client (clientOf, the one identity of every per-client
 * limit) is the hash of its bearer token in forward mode once the directory accepted it, whatever
 * its spelling (platform/credentials.ts), else its address: the socket's peer, or, behind
 * GATEWAY_TRUSTED_PROXIES, the last address of `X-Forwarded-For` that is not one of them (an
 * `ip:port` entry counts as its address).
 * rate-limiter-flexible counts them; with Redis across every gateway replica, without it (or
 * while Redis is down) in the process. Over a limit: 429, `Retry-After`, one error naming it.
 *
 * In forward mode a token the directory refused a moment ago (platform/refused-tokens.ts) is
 * refused here, 401, before any subgraph fetch; a token this gateway has not seen is checked with
 * one directory call before the operation fans out, and such checks are budgeted per client
 * address (GATEWAY_UNVERIFIED_TOKEN_LIMIT; docs/security.md#unverified-tokens).
 */

export interface RateLimits {
  /** GATEWAY_RATE_LIMIT: operations per minute per client, 0: none */
  operations: number;
  /** GATEWAY_WRITE_RATE_LIMIT: mutations per minute per client, 0: none */
  writes: number;
  /** GATEWAY_COST_LIMIT: operation cost per minute per client, 0: none */
  cost: number;
  /** GATEWAY_UNVERIFIED_TOKEN_LIMIT: forward mode, checks of tokens not seen yet per minute per client address, 0: none */
  unverifiedTokens: number;
  /** GATEWAY_TRUSTED_PROXIES: addresses and CIDR blocks whose X-Forwarded-For is believed */
  trustedProxies: string[];
}

export const PRODUCTION_RATE_LIMITS = { operations: 600, writes: 60, cost: 500_000, unverifiedTokens: 20 } as const;

export function loadRateLimits(env: NodeJS.ProcessEnv, production: boolean): RateLimits {
  const e = new Environment(env);
  const defaults = production ? PRODUCTION_RATE_LIMITS : { operations: 0, writes: 0, cost: 0, unverifiedTokens: 0 };
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
    unverifiedTokens: e.integer("GATEWAY_UNVERIFIED_TOKEN_LIMIT", defaults.unverifiedTokens, 0, 1_000_000),
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

type Limit = "operations" | "writes" | "cost" | "unverifiedTokens";

/** each limit's name in `graphql_refusals_total` */
const LIMIT_NAMES = { operations: "rateLimitOperations", writes: "rateLimitWrites", cost: "rateLimitCost", unverifiedTokens: "rateLimitUnverifiedTokens" } as const;

const MESSAGES: Record<Limit, (value: number) => string> = {
  operations: (n) => `Rate limit exceeded: at most ${n} operations a minute for one client`,
  writes: (n) => `Rate limit exceeded: at most ${n} mutations a minute for one client`,
  cost: (n) => `Rate limit exceeded: at most ${n} of operation cost a minute for one client (GRAPHQL_MAX_COST's measure)`,
  unverifiedTokens: (n) => `Rate limit exceeded: at most ${n} new tokens a minute from one address`,
};

/** What the directory says of a token (the subgraphs' CALLER_PATH): `unknown` when it did not say. */
export type CallerVerdict = "accepted" | "refused" | "unknown";

/** The 401 of a token the directory refused, before any subgraph fetch. */
const refusedToken = (message: string): Refusal => ({ status: 401, body: errorBody(ErrorCode.UNAUTHENTICATED, message) });
const REFUSED_A_MOMENT_AGO = refusedToken("The directory refused this token a moment ago: get a new one");
const REFUSED_NOW = refusedToken("The directory does not accept this token: get a new one");

export function rateLimitGate(options: {
  limits: RateLimits;
  forward: boolean;
  shared: SharedState;
  refusedTokens: RefusedTokens;
  /** forward mode: asks the directory (through a subgraph) whether it knows a token; one call at most */
  verifyCaller?: (authorization: string) => Promise<CallerVerdict>;
  /** how long a token the directory accepted is not checked again (DIRECTORY_REFUSED_TOKEN_TTL_S) */
  acceptedTtlSeconds?: number;
}) {
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
  const unverified = limiters.find((l) => l.limit === "unverifiedTokens");
  /** forward mode: the tokens the directory accepted a moment ago, by hash (this process) */
  const accepted = new LRUCache<string, true>({ max: 10_000, ttl: Math.max(1, options.acceptedTtlSeconds ?? 30) * 1000 });
  /** one check of a token at a time: the requests that carry it at once wait for its verdict */
  const checks = new InFlight<CallerVerdict | Refusal>();

  const consume = (limiter: { local: RateLimiterAbstract; redis: RateLimiterAbstract | null }, key: string, points: number) =>
    limiter.redis ? shared.use("rate_limit", () => limiter.redis!.consume(key, points), () => limiter.local.consume(key, points)) : limiter.local.consume(key, points);

  /** the 429 of a limit, or null when `points` fit in the client's budget */
  const spend = async (limiter: (typeof limiters)[number], client: string, points: number): Promise<Refusal | null> => {
    try {
      await consume(limiter, client, points);
      return null;
    } catch (verdict) {
      if (!(verdict instanceof RateLimiterRes)) throw verdict;
      processMetrics().refused("gateway", LIMIT_NAMES[limiter.limit]);
      const retryAfter = Math.max(1, Math.ceil(verdict.msBeforeNext / 1000));
      const value = limits[limiter.limit];
      return {
        status: 429,
        headers: { "retry-after": String(retryAfter) },
        body: errorBody(ErrorCode.RATE_LIMITED, MESSAGES[limiter.limit](value), { limit: limiter.limit, value, retryAfter }),
      };
    }
  };

  /** The client address: behind trusted proxies, the last X-Forwarded-For entry that is not one. */
  const addressOf = (req: IncomingMessage): string => {
    let address = normalise(req.socket.remoteAddress ?? "");
    if (!isTrusted(proxies, address)) return address;
    const forwarded = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")
      .map((a) => normalise(withoutPort(a.trim())))
      .filter((a) => a !== "");
    while (forwarded.length > 0 && isTrusted(proxies, address)) address = forwarded.pop()!;
    return address;
  };

  /**
   * Forward mode, a token not seen a moment ago: one check with the directory before the operation
   * fans out, the checks of one address within GATEWAY_UNVERIFIED_TOKEN_LIMIT a minute.
   */
  const verify = (authorization: string, key: string, req: IncomingMessage): Promise<CallerVerdict | Refusal> =>
    checks.run(key, async () => {
      const limited = unverified ? await spend(unverified, `address:${addressOf(req)}`, 1) : null;
      if (limited) return limited;
      const verdict = await options.verifyCaller!(authorization);
      if (verdict === "accepted") accepted.set(key, true);
      if (verdict === "refused") await options.refusedTokens.remember(authorization);
      return verdict;
    });

  /**
   * The client every per-client limit counts (operations, writes, cost, subscriptions, graphql-ws
   * connections, file fetches): in forward mode the hash of a bearer token the directory accepted
   * a moment ago, else the client's address (addressOf). A token not verified yet is no client of
   * its own: a fresh junk credential on each request counts against its sender's address, and in
   * service mode, where the facade verifies no `Authorization` header, the address is the client.
   */
  const clientOf = (req: IncomingMessage): string => {
    if (options.forward) {
      const authorization = canonicalAuthorization(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined) ?? "";
      if (isBearer(authorization)) {
        const key = tokenKey(authorization);
        if (accepted.has(key)) return key;
      }
    }
    return `address:${addressOf(req)}`;
  };

  const gate = async (operation: RequestedOperation, req: IncomingMessage): Promise<Refusal | null> => {
    const authorization = canonicalAuthorization(typeof req.headers.authorization === "string" ? req.headers.authorization : undefined) ?? "";
    const bearer = options.forward && isBearer(authorization);
    if (bearer && (await options.refusedTokens.has(authorization))) {
      processMetrics().refused("gateway", "refusedToken");
      return REFUSED_A_MOMENT_AGO;
    }
    const key = bearer ? tokenKey(authorization) : null;
    // a token not seen a moment ago is checked first (its own budget per address), so that the
    // limits below count a token the directory accepts as its client from its first operation;
    // an operation that reaches no subgraph (introspection, `__typename`, a syntax error) needs no check
    if (key !== null && options.verifyCaller && !accepted.has(key) && operation.document && !introspectionOnly(operation.document, typeof operation.operationName === "string" ? operation.operationName : null)) {
      const verdict = await verify(authorization, key, req);
      if (typeof verdict === "object") return verdict;
      if (verdict === "refused") {
        processMetrics().refused("gateway", "refusedToken");
        return REFUSED_NOW;
      }
    }
    const client = clientOf(req);
    const write = (operation.shape?.mutationFields ?? 0) > 0;
    for (const limiter of limiters) {
      if (limiter.limit === "unverifiedTokens" || (limiter.limit === "writes" && !write)) continue;
      const points = limiter.limit === "cost" ? Math.max(1, operation.shape?.cost ?? 1) : 1;
      const refusal = await spend(limiter, client, points);
      if (refusal) return refusal;
    }
    return null;
  };
  /**
   * A request that is no operation but reads upstream (a file link's fetch, gateway/files.ts):
   * counted against the same client's budgets as one read operation of cost 1, so that a client
   * over its limit is refused here too, before any subgraph or upstream call. A token refused a
   * moment ago is refused; no token is checked with the directory for it (the link is the right).
   */
  gate.request = (req: IncomingMessage): Promise<Refusal | null> => gate({ query: "", variables: {} }, req);
  gate.clientOf = clientOf;
  return gate;
}

const tokenKey = (authorization: string) => `token:${createHash("sha256").update(authorization).digest("base64url")}`;

/** `::ffff:127.0.0.1` → `127.0.0.1` */
function normalise(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The address of an `X-Forwarded-For` entry a proxy wrote with its port (`203.0.113.7:51234`,
 * `[2001:db8::1]:51234`): one client, whatever port it came from. Any other entry is kept as written.
 */
function withoutPort(entry: string): string {
  if (isIP(entry) !== 0) return entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed && isIP(bracketed[1]!) === 6) return bracketed[1]!;
  const v4 = /^([\d.]+):\d+$/.exec(entry);
  return v4 && isIP(v4[1]!) === 4 ? v4[1]! : entry;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && proxies.check(address, version === 4 ? "ipv4" : "ipv6");
}
