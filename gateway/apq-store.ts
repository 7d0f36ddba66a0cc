import { createHash } from "node:crypto";
import type { ApolloServerOptions, BaseContext } from "@apollo/server";
import { LRUCache } from "lru-cache";
import { processMetrics } from "../platform/metrics.js";
import type { SharedState } from "../platform/shared-state.js";

/** the prefix Apollo Server puts before a hash in its APQ store (its `APQ_CACHE_PREFIX`, not exported) */
const APOLLO_APQ_PREFIX = "apq:";

type PersistedQueries = Exclude<NonNullable<ApolloServerOptions<BaseContext>["persistedQueries"]>, false>;
type DocumentCache = NonNullable<PersistedQueries["cache"]>;

/**
 * The APQ store (automatic persisted queries: a client sends a document's SHA-256, and the whole
 * document once when the gateway does not know it). Apollo Server's own store is in the process,
 * so a hash registered on gateway A was unknown to gateway B. With Redis the documents are shared
 * by every gateway, each with a TTL (GATEWAY_APQ_TTL_S); a document is at most GRAPHQL_MAX_BYTES
 * (the limits are checked before Apollo registers it). The process keeps its own copy, bounded in
 * size (GATEWAY_APQ_CACHE_MB), which serves while Redis is down.
 *
 * Written over the shared state rather than with Keyv's Redis adapter: the fallback to the process
 * and its counting are the point, and Keyv would turn a Redis outage into misses or errors.
 *
 * What Redis answers is not trusted (docs/shared-state.md#what-is-read-from-redis-is-checked): a
 * document is served for a hash only if it hashes to it, as Apollo checks a document it registers;
 * one that does not is a miss (`shared_cache_lookups_total{use="apq",result="rejected"}`), and the
 * client sends the whole document again, which registers it anew.
 */
export class ApqStore implements DocumentCache {
  private readonly local: LRUCache<string, string>;
  /**
   * hashes `document` found in no store a moment ago: the request is then left to Apollo Server,
   * whose own lookup of the same key is answered from here, once, rather than asked of Redis again
   */
  private readonly missed = new LRUCache<string, true>({ max: 10_000, ttl: 1000 });

  constructor(
    private readonly shared: SharedState,
    private readonly ttlSeconds: number,
    maxBytes: number,
  ) {
    this.local = new LRUCache<string, string>({ maxSize: maxBytes, sizeCalculation: (v) => Math.max(1, v.length), ttl: ttlSeconds * 1000 });
  }

  async get(key: string): Promise<string | undefined> {
    if (this.missed.delete(key)) return undefined;
    if (!this.shared.enabled) return this.local.get(key);
    return this.shared.use(
      "apq",
      async (redis) => {
        const value = await redis.get(key);
        const result = value === null ? "miss" : matchesHash(key, value) ? "hit" : "rejected";
        processMetrics().sharedCacheLookups.inc({ use: "apq", result });
        return result === "hit" ? value! : undefined;
      },
      () => this.local.get(key),
    );
  }

  /**
   * The document registered for `hash`, read as Apollo Server reads it (its keys are
   * `apq:<sha256>`: ApolloServer wraps the store in a PrefixingKeyValueCache with this prefix).
   */
  async document(hash: string): Promise<string | undefined> {
    const key = `${APOLLO_APQ_PREFIX}${hash}`;
    const document = await this.get(key);
    if (document === undefined) this.missed.set(key, true);
    return document;
  }

  async set(key: string, value: string): Promise<void> {
    this.missed.delete(key);
    this.local.set(key, value);
    if (this.shared.enabled) await this.shared.use("apq", (redis) => redis.set(key, value, "EX", this.ttlSeconds), () => undefined);
  }

  async delete(key: string): Promise<boolean> {
    this.local.delete(key);
    if (this.shared.enabled) await this.shared.use("apq", (redis) => redis.del(key), () => undefined);
    return true;
  }
}

/** Whether `document` is what the key's hash names: Apollo keys a document by its SHA-256 in hex, after a prefix (`apq:`). */
function matchesHash(key: string, document: string): boolean {
  const hash = key.slice(key.lastIndexOf(":") + 1);
  return createHash("sha256").update(document).digest("hex") === hash;
}
