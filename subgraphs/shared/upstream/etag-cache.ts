import { createHash } from "node:crypto";
import type { SharedState } from "../../../platform/shared-state.js";
import { processMetrics } from "../../../platform/metrics.js";
import { DEFAULT_ETAG_CACHE_BYTES } from "./config.js";
import { LruMap } from "./util.js";

/**
 * The answers kept for conditional GETs (`If-None-Match`), bounded in entries and in size (least
 * recently used first out). Every key starts with the caller's identity (a hash of the forwarded
 * credentials, or the facade's client), so that no caller is ever answered from another caller's
 * entry.
 *
 * With Redis (platform/shared-state.ts) the entries are shared by every replica of every
 * subgraph: what replica A validated is a 304 for replica B, for the same caller only. A shared
 * entry lives `ttlSeconds` under a key hashed from the caller's identity and the URL (no token or
 * id in Redis's key space); Redis's `maxmemory` bounds their total (every key has a TTL, so
 * `volatile-lru` evicts them first). The process keeps its own bounded copy, used while Redis is
 * down.
 */

/** bodies larger than this are not kept for revalidation */
const MAX_CACHED_BODY = 1 << 20;

export interface CachedBody {
  etag: string;
  text: string;
}

export class EtagCache {
  private readonly entries: LruMap<string, CachedBody>;

  constructor(
    entries: number,
    bytes: number = DEFAULT_ETAG_CACHE_BYTES,
    private readonly shared: SharedState | null = null,
    private readonly ttlSeconds = 3600,
  ) {
    this.entries = new LruMap(entries, bytes, (b: CachedBody) => b.text.length + b.etag.length);
  }

  static key(identity: string, method: string, url: string): string {
    return `${identity} ${method} ${url}`;
  }

  private static sharedKey(key: string): string {
    return `etag:${createHash("sha256").update(key).digest("base64url")}`;
  }

  async get(key: string): Promise<CachedBody | undefined> {
    if (!this.shared?.enabled) return this.entries.get(key);
    return this.shared.use(
      "etag",
      async (redis) => {
        const raw = await redis.get(EtagCache.sharedKey(key));
        processMetrics().sharedCacheLookups.inc({ use: "etag", result: raw === null ? "miss" : "hit" });
        return raw === null ? undefined : (JSON.parse(raw) as CachedBody);
      },
      () => this.entries.get(key),
    );
  }

  /** Keeps a 2xx answer that carries an ETag and is small enough; forgets the key's entry otherwise. */
  async remember(key: string, etag: string | undefined, text: string): Promise<void> {
    if (!etag || text.length > MAX_CACHED_BODY) return this.forget(key);
    const entry: CachedBody = { etag, text };
    this.entries.set(key, entry);
    if (this.shared?.enabled) await this.shared.use("etag", (redis) => redis.set(EtagCache.sharedKey(key), JSON.stringify(entry), "EX", this.ttlSeconds), () => undefined);
  }

  async forget(key: string): Promise<void> {
    this.entries.delete(key);
    if (this.shared?.enabled) await this.shared.use("etag", (redis) => redis.del(EtagCache.sharedKey(key)), () => undefined);
  }

  /** entries kept (the `upstream_etag_cache_entries` metric) */
  get size(): number {
    return this.entries.size;
  }

  /** characters kept (the `upstream_etag_cache_bytes` metric) */
  get bytes(): number {
    return this.entries.weight;
  }
}
