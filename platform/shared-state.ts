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
 *
 * A Redis that holds the connection open and answers nothing (a stopped process, a full network
 * buffer) would cost every command its own timeout, several per operation. So the first failure
 * opens a breaker (docs/shared-state.md#a-stuck-redis): while it is open every use falls back at
 * once, without a command (those waiting for Redis then too), and a PING as it opens, then every
 * PROBE_EVERY_MS (no use waits for it), closes it when Redis answers again. An operation pays one timeout at most, and
 * only while the breaker opens.
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

const ABANDONED = Symbol("abandoned");

/** How often an open breaker pings Redis to learn whether it answers again. */
export const PROBE_EVERY_MS = 1000;

export class SharedState {
  /** null without REDIS_URL */
  readonly redis: Redis | null;
  readonly prefix: string;
  private down = false;
  /**
   * The breaker: open from a failed command until a probe answers. Written by hand rather than
   * with cockatiel (the upstream's breakers): cockatiel's half-open state makes the calls made
   * meanwhile wait for its trial call, where a use here must never wait on a stuck Redis.
   */
  private open = false;
  private probeAt = 0;
  private probing = false;
  /** whether the client was ever ready; the connection attempts that failed in a row since it last was */
  private everReady = false;
  private failedConnections = 0;
  private readonly connectTimeoutMs: number;
  /** the uses waiting for Redis now: each falls back at once when the breaker opens */
  private readonly inFlight = new Set<() => void>();

  constructor(
    config: SharedStateConfig,
    private readonly logger: Logger,
  ) {
    this.prefix = config.prefix;
    this.connectTimeoutMs = Math.max(1000, config.timeoutMs);
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
      connectTimeout: this.connectTimeoutMs,
      // reconnect for ever, at most every 2 s: sharing resumes by itself when Redis is back
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: false,
    });
    // One failed connection attempt that the next one repairs (100 ms later) is not an outage: a
    // process busy with its own start (bundles, schemas) past the connect timeout sees its connect
    // timer fire before the connection it made is read, while Redis answers. So a connection error
    // is reported from the second attempt in a row that fails; a failed command still is at once.
    this.redis.on("ready", () => {
      this.everReady = true;
      this.failedConnections = 0;
    });
    this.redis.on("error", () => {
      if (++this.failedConnections >= 2) this.failed("connection");
    });
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
      return await this.attempt(use, shared, true);
    } catch (err) {
      if (err instanceof SharedStateUnavailable) return this.fallback(use, local);
      throw err;
    }
  }

  /**
   * `shared` against Redis with no in-process form to fall back to: for a use whose guarantee only
   * holds across replicas (the write leases, subgraphs/shared/upstream/record-leases.ts). Redis
   * configured but not ready, failing or slow throws `SharedStateUnavailable`, logged as `use`
   * would; without REDIS_URL this is not to be called (`enabled` is false). Such a use asks Redis
   * itself even while the breaker is open, bounded by its own command timeout: its refusal is the
   * caller's failure (a write refused), which a breaker opened by another use's one slow command
   * (an event loop starved past the timeout) would otherwise cause while Redis answers.
   */
  async required<T>(use: string, shared: (redis: Redis) => Promise<T>): Promise<T> {
    await this.firstConnection();
    return this.attempt(use, shared, false);
  }

  /**
   * Until the client was first ready, at most a connect timeout's wait for it: a use with no
   * in-process form asked at start (the events' reading, a first write) would otherwise be refused
   * while the first connection is being made.
   */
  private async firstConnection(): Promise<void> {
    const redis = this.redis;
    if (redis === null || this.everReady || redis.status === "ready" || redis.status === "end") return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off("ready", done);
        resolve();
      };
      const timer = setTimeout(done, this.connectTimeoutMs);
      redis.once("ready", done);
    });
  }

  /** One use against Redis; `braked`: refused at once while the breaker is open, and given up when it opens. */
  private async attempt<T>(use: string, shared: (redis: Redis) => Promise<T>, braked: boolean): Promise<T> {
    if (this.redis === null || this.redis.status !== "ready" || (braked && this.broken())) throw new SharedStateUnavailable(use);
    // a braked use in flight when the breaker opens gives up then rather than wait its own timeout
    let abandon!: () => void;
    const abandoned = new Promise<typeof ABANDONED>((resolve) => (abandon = () => resolve(ABANDONED)));
    if (braked) this.inFlight.add(abandon);
    try {
      const attempt = shared(this.redis);
      const result = await Promise.race([attempt, abandoned]);
      if (result === ABANDONED) {
        attempt.catch(() => undefined);
        throw new SharedStateUnavailable(use);
      }
      this.answered();
      return result;
    } catch (err) {
      if (!(err instanceof Error) || err instanceof SharedStateUnavailable) throw err;
      this.failed(use, err);
      this.trip();
      throw new SharedStateUnavailable(use);
    } finally {
      this.inFlight.delete(abandon);
    }
  }

  /** Whether the breaker is open (the uses fall back at once); starts a probe when one is due. */
  get breakerOpen(): boolean {
    return this.open;
  }

  private broken(): boolean {
    if (!this.open) return false;
    if (!this.probing && performance.now() >= this.probeAt) this.probe(this.redis!);
    return true;
  }

  private trip(): void {
    if (this.open) return;
    this.open = true;
    for (const abandon of this.inFlight) abandon();
    this.inFlight.clear();
    processMetrics().sharedStateBreaker.inc({ state: "open" });
    // probed at once: a command that only looked slow (this process's event loop starved past the
    // command timeout, a pause of Redis's) closes the breaker again within a round trip
    if (!this.probing) this.probe(this.redis!);
  }

  /** One PING, bounded by the command timeout; no use waits for it. */
  private probe(redis: Redis): void {
    this.probing = true;
    redis.ping().then(
      () => {
        this.probing = false;
        if (this.open) {
          this.open = false;
          processMetrics().sharedStateBreaker.inc({ state: "closed" });
        }
        this.answered();
      },
      () => {
        this.probing = false;
        this.probeAt = performance.now() + PROBE_EVERY_MS;
      },
    );
  }

  private answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info("redis is back: shared state resumes");
  }

  private fallback<T>(use: string, local: () => T | Promise<T>): T | Promise<T> {
    processMetrics().sharedStateFallbacks.inc({ use });
    return local();
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
