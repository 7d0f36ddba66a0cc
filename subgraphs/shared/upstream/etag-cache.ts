import { createHash } from "node:crypto";
import { validateHeaderValue } from "node:http";
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
 *
 * What Redis answers is not trusted (docs/shared-state.md#what-is-read-from-redis-is-checked): a
 * shared entry carries the SHA-256 of its body and is used only if the body still hashes to it,
 * and only if its ETag is a valid header value (it is sent back as `If-None-Match`); any other
 * entry is a miss (`shared_cache_lookups_total{use="etag",result="rejected"}`), so the read is
 * sent in full and its answer replaces the entry.
 */

/** bodies larger than this are not kept for revalidation */
const MAX_CACHED_BODY = 1 << 20;

export interface CachedBody {
  etag: string;
  text: string;
}

/** an entry as kept in Redis: bound to its body by the body's hash */
interface SharedEntry extends CachedBody {
  sha256: string;
}

function bodyHash(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/** A shared entry read from Redis, if it is whole: the shape, its body's hash, an ETag that is a valid header value. */
function verifiedEntry(raw: string): CachedBody | undefined {
  let entry: Partial<SharedEntry>;
  try {
    entry = JSON.parse(raw) as Partial<SharedEntry>;
  } catch {
    return undefined;
  }
  if (typeof entry !== "object" || entry === null) return undefined;
  const { etag, text, sha256 } = entry;
  if (typeof etag !== "string" || etag === "" || typeof text !== "string" || typeof sha256 !== "string") return undefined;
  try {
    // Node's own check of what it would refuse to send (CR, LF, other control characters)
    validateHeaderValue("if-none-match", etag);
  } catch {
    return undefined;
  }
  return bodyHash(text) === sha256 ? { etag, text } : undefined;
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
        const entry = raw === null ? undefined : verifiedEntry(raw);
        processMetrics().sharedCacheLookups.inc({ use: "etag", result: raw === null ? "miss" : entry ? "hit" : "rejected" });
        return entry;
      },
      () => this.entries.get(key),
    );
  }

  /** Keeps a 2xx answer that carries an ETag and is small enough; forgets the key's entry otherwise. */
  async remember(key: string, etag: string | undefined, text: string): Promise<void> {
    if (!etag || text.length > MAX_CACHED_BODY) return this.forget(key);
    const entry: CachedBody = { etag, text };
    this.entries.set(key, entry);
    if (this.shared?.enabled) {
      const shared: SharedEntry = { ...entry, sha256: bodyHash(text) };
      await this.shared.use("etag", (redis) => redis.set(EtagCache.sharedKey(key), JSON.stringify(shared), "EX", this.ttlSeconds), () => undefined);
    }
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
