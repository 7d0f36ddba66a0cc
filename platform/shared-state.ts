import { Redis } from "ioredis";
import { ConfigError, Environment } from "./config.js";
import type { Logger } from "./log.js";
import { processMetrics } from "./metrics.js";

/**
 * Redis as the optional state the replicas share (docs/deploying.md#running-several-replicas): the APQ
 * store, the ETag cache, the upstream request budget, the per-client limits and the tokens the
 * directory refused. Without REDIS_URL nothing changes: each use keeps its in-process form.
 *
 * Redis down or slow never fails an operation that would succeed without it. The client fails
 * fast instead of queueing (no offline queue, a command timeout of REDIS_TIMEOUT_MS, no retry of
 * a command), each use then falls back to its in-process form (counted per use in
 * `shared_state_fallbacks_total`), the first failure of an outage is logged once, and the client
 * reconnects on its own: the uses go back to Redis as soon as it answers again.
 */

export interface SharedStateConfig {
  /** REDIS_URL: `redis://` or `rediss://` (TLS), with credentials and database if any; null: in process */
  url: string | null;
  /** REDIS_KEY_PREFIX, default `directory-graph:`: every key starts with it (several deployments on one Redis) */
  prefix: string;
  /** REDIS_TIMEOUT_MS, default 200: the longest a command may take before its use falls back */
  timeoutMs: number;
}

export function loadSharedStateConfig(env: NodeJS.ProcessEnv = process.env): SharedStateConfig {
  const e = new Environment(env);
  const url = e.text("REDIS_URL") ?? null;
  if (url !== null) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // the value is never shown: it may carry a password
      throw new ConfigError("REDIS_URL must be a redis:// or rediss:// URL", "REDIS_URL");
    }
    if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got protocol ${parsed.protocol}`, "REDIS_URL");
  }
  const prefix = e.exact("REDIS_KEY_PREFIX") ?? "directory-graph:";
  if (!/^[A-Za-z0-9:._-]{1,64}$/.test(prefix)) throw new ConfigError("REDIS_KEY_PREFIX must be 1-64 letters, digits, ':', '.', '_' or '-'", "REDIS_KEY_PREFIX");
  return { url, prefix, timeoutMs: e.integer("REDIS_TIMEOUT_MS", 200, 10, 10_000) };
}

export class SharedState {
  /** null without REDIS_URL */
  readonly redis: Redis | null;
  readonly prefix: string;
  private down = false;

  constructor(
    config: SharedStateConfig,
    private readonly logger: Logger,
  ) {
    this.prefix = config.prefix;
    if (config.url === null) {
      this.redis = null;
      return;
    }
    this.redis = new Redis(config.url, {
      keyPrefix: config.prefix,
      // fail fast rather than wait: a command while disconnected is refused at once, a slow one
      // times out, none is retried (its use falls back instead)
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config.timeoutMs,
      connectTimeout: Math.max(1000, config.timeoutMs),
      // reconnect for ever, at most every 2 s: sharing resumes by itself when Redis is back
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: false,
    });
    this.redis.on("error", () => this.failed("connection"));

  }

  get enabled(): boolean {
    return this.redis !== null;
  }

  /** Whether Redis is connected (the uses go to it). */
  get healthy(): boolean {
    return this.redis !== null && this.redis.status === "ready";
  }

  /**
   * `shared` against Redis; when Redis is absent, not ready, fails or is slow, `local` instead
   * (counted under `use`). A rejection that is not an Error (a limiter's verdict) passes through.
   */
  async use<T>(use: string, shared: (redis: Redis) => Promise<T>, local: () => T | Promise<T>): Promise<T> {
    if (this.redis === null) return local();
    try {
      return await this.required(use, shared);
    } catch (err) {
      if (err instanceof SharedStateUnavailable) return this.fallback(use, local);
      throw err;
    }
  }

  /**
   * `shared` against Redis with no in-process form to fall back to: for a use whose guarantee only
   * holds across replicas (the write leases, subgraphs/shared/upstream/record-leases.ts). Redis
   * configured but not ready, failing or slow throws `SharedStateUnavailable`, logged as `use`
   * would; without REDIS_URL this is not to be called (`enabled` is false).
   */
  async required<T>(use: string, shared: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.redis === null || this.redis.status !== "ready") throw new SharedStateUnavailable(use);
    try {
      const result = await shared(this.redis);
      this.answered();
      return result;
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      this.failed(use, err);
      throw new SharedStateUnavailable(use);
    }
  }

  private fallback<T>(use: string, local: () => T | Promise<T>): T | Promise<T> {
    processMetrics().sharedStateFallbacks.inc({ use });
    return local();
  }

  private answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info("redis is back: shared state resumes");
  }

  private failed(use: string, err?: Error): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn("redis unavailable: shared state falls back to this process until it answers again", {
      use,
      ...(err ? { error: err.message.slice(0, 200) } : {}),
    });
  }

  async close(): Promise<void> {
    if (this.redis === null) return;
    this.redis.disconnect(false);
  }
}

/** Redis is configured but cannot serve a use that has no in-process form (`SharedState.required`). */
export class SharedStateUnavailable extends Error {
  constructor(readonly use: string) {
    super(`redis is unavailable for ${use}`);
  }
}
