import { DEFAULT_ETAG_CACHE_BYTES } from "./config.js";
import { LruMap } from "./util.js";

/**
 * The answers kept for conditional GETs (`If-None-Match`), one cache for the process, bounded in
 * entries and in size (least recently used first out). Every key starts with the caller's
 * identity (a hash of the forwarded credentials, or the facade's client), so that no caller is
 * ever answered from another caller's entry.
 */

/** bodies larger than this are not kept for revalidation */
const MAX_CACHED_BODY = 1 << 20;

export interface CachedBody {
  etag: string;
  text: string;
}

export class EtagCache {
  private readonly entries: LruMap<string, CachedBody>;

  constructor(entries: number, bytes: number = DEFAULT_ETAG_CACHE_BYTES) {
    this.entries = new LruMap(entries, bytes, (b: CachedBody) => b.text.length + b.etag.length);
  }

  static key(identity: string, method: string, url: string): string {
    return `${identity} ${method} ${url}`;
  }

  get(key: string): CachedBody | undefined {
    return this.entries.get(key);
  }

  /** Keeps a 2xx answer that carries an ETag and is small enough; forgets the key's entry otherwise. */
  remember(key: string, etag: string | undefined, text: string): void {
    if (etag && text.length <= MAX_CACHED_BODY) this.entries.set(key, { etag, text });
    else this.entries.delete(key);
  }

  forget(key: string): void {
    this.entries.delete(key);
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
