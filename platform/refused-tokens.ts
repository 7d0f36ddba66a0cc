import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { Environment } from "./config.js";
import { canonicalAuthorization } from "./credentials.js";
import type { SharedState } from "./shared-state.js";

/**
 * Forward mode: the bearer tokens the directory just refused with 401, remembered for a short
 * while (DIRECTORY_REFUSED_TOKEN_TTL_S) by their SHA-256 only, so that a caller who cannot be
 * served costs nothing: the gateway refuses the token before any subgraph fetch, and a subgraph
 * before any upstream call. A token is remembered whatever its spelling (credentials.ts). With Redis every replica of the gateway and of each subgraph shares
 * the list (one replica's 401 is everyone's); the process keeps its own copy for when Redis is down.
 */
export class RefusedTokens {
  private readonly local: LRUCache<string, true> | null;

  constructor(
    private readonly ttlSeconds: number,
    private readonly shared: SharedState | null,
  ) {
    this.local = ttlSeconds > 0 ? new LRUCache<string, true>({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  private static key(authorization: string): string {
    return `refused-token:${createHash("sha256").update(canonicalAuthorization(authorization) ?? "").digest("base64url")}`;
  }

  async has(authorization: string): Promise<boolean> {
    if (this.local === null) return false;
    const key = RefusedTokens.key(authorization);
    if (this.local.has(key)) return true;
    if (!this.shared?.enabled) return false;
    return this.shared.use("refused_tokens", async (redis) => (await redis.exists(key)) === 1, () => false);
  }

  async remember(authorization: string): Promise<void> {
    if (this.local === null) return;
    const key = RefusedTokens.key(authorization);
    this.local.set(key, true);
    if (this.shared?.enabled) await this.shared.use("refused_tokens", (redis) => redis.set(key, "1", "EX", this.ttlSeconds), () => undefined);
  }
}

/** DIRECTORY_REFUSED_TOKEN_TTL_S (gateway, subgraphs), default 30; 0: a refused token is not remembered. */
export function refusedTokenTtlSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return new Environment(env).integer("DIRECTORY_REFUSED_TOKEN_TTL_S", 30, 0, 3600);
}
