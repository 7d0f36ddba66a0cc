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
 *
 * Entries forget the resources that changed (docs/shared-state.md#caches-that-forget): each entry
 * is tagged by what its URL reads (`resourceTags`), and `forgetChanged` drops the entries of the
 * tags a change touches, here and on Redis (where each tag is a set of entry keys, hashed like
 * them, living as long as they do). An entry is revalidated before use anyway (the directory
 * answers a changed body with a new ETag), so this frees what can no longer answer a 304 rather
 * than keeping a stale answer from being served.
 */

/** bodies larger than this are not kept for revalidation */
const MAX_CACHED_BODY = 1 << 20;

export interface CachedBody {
  etag: string;
  text: string;
}

/**
 * an entry as this process keeps it: when it was last answered (a 200 or a 304, `Date.now()`), and
 * whether it may be held (served without a request, `held`): no change was heard while its request
 * was in flight
 */
interface LocalEntry extends CachedBody {
  at: number;
  holdable: boolean;
}

/** What `held` found: the body to serve without a request, or why not. */
export type HeldLookup = { body: CachedBody } | { refused: "absent" | "expired" | "changed" };

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

/**
 * The reads a URL's answer depends on, as tags: `employee:10` for a single read or an id filter,
 * `employee:*` for any other list of the family, and `employee:all` on every entry of the family.
 * Families: employees and legacy users (`employee`), employments and legacy work contracts
 * (`employment`), job positions (`job-position`), employee attributes (`employee-extension`).
 * Other reads (reference data, time entries, events) are no change topic's: no tag.
 */
export function resourceTags(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const match = FAMILY_PATH.exec(parsed.pathname);
  if (!match) return [];
  const family = FAMILIES[match[1]!.toLowerCase()]!;
  const tags = [`${family}:all`];
  if (match[2] !== undefined) tags.push(`${family}:${decodeURIComponent(match[2])}`);
  else {
    const ids = parsed.searchParams.get("id");
    if (ids === null || family === "employee-extension") tags.push(`${family}:*`);
    else for (const id of ids.split(",")) tags.push(`${family}:${id}`);
  }
  return tags;
}

const FAMILIES: Record<string, string> = {
  "/service-api/employees": "employee",
  "/api/v3/users": "employee",
  "/service-api/employments": "employment",
  "/directory/api/4.0/work-contracts": "employment",
  "/service-api/job-positions": "job-position",
  "/service-api/employee-attributes": "employee-extension",
};
const FAMILY_PATH = /(\/service-api\/(?:employees|employments|job-positions|employee-attributes)|\/api\/v3\/users|\/directory\/api\/4\.0\/work-contracts)(?:\/([^/]+))?$/i;

/** The family an event-tagged URL reads (`employee`, `employment`, `job-position`, `employee-extension`), or null: no change topic's. */
export function familyOf(url: string): string | null {
  const all = resourceTags(url)[0];
  return all === undefined ? null : all.slice(0, -":all".length);
}

/**
 * The tags a change of `type` `id` makes stale: the resource's own reads and its family's lists;
 * an employment or job position also changes what employees read (their status, applicable
 * employment and position), an extension the employees' attributes.
 */
export function changedTags(type: string, id: string): string[] {
  const family = type === "employee-attribute" ? "employee-extension" : type;
  if (!["employee", "employment", "job-position", "employee-extension"].includes(family)) return [];
  const tags = [`${family}:${id}`, `${family}:*`];
  if (family === "employment" || family === "job-position") tags.push("employee:all");
  if (family === "employee-extension") tags.push("employee-extension:all");
  return tags;
}

/** what an entry costs the heap beside its strings: the map's entry and the two objects holding it */
const ENTRY_BYTES = 160;

/** a string's bytes on V8's heap: one a character while every character is Latin-1, two otherwise */
function heapBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

/** a shared entry's key, as `sharedKey` makes them: what a tag's set may hold */
const SHARED_KEY = /^etag:[A-Za-z0-9_-]{43}$/;

export class EtagCache {
  private readonly entries: LruMap<string, LocalEntry>;

  constructor(
    entries: number,
    bytes: number = DEFAULT_ETAG_CACHE_BYTES,
    private readonly shared: SharedState | null = null,
    private readonly ttlSeconds = 3600,
  ) {
    this.entries = new LruMap(entries, bytes, (b: LocalEntry, key: string) => heapBytes(key) + heapBytes(b.text) + heapBytes(b.etag) + ENTRY_BYTES);
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

  /**
   * This process's entry of `key`, to serve without a request (docs/shared-state.md#what-is-held-and-how-fresh):
   * answered within `maxAgeMs` and holdable (no change heard while its request was in flight); the
   * caller has checked that the event path is heard. Only the process's own entries are held: what
   * another replica wrote on Redis was answered under another replica's hearing of the changes.
   */
  held(key: string, maxAgeMs: number, now = Date.now()): HeldLookup {
    const entry = this.entries.get(key);
    if (!entry) return { refused: "absent" };
    if (!entry.holdable) return { refused: "changed" };
    if (now - entry.at >= maxAgeMs) return { refused: "expired" };
    return { body: entry };
  }

  /** A 304 answered `body`'s ETag: this process's entry is as fresh as a new 200 (and holdable as its request was). */
  revalidated(key: string, body: CachedBody, holdable: boolean): void {
    this.entries.set(key, { etag: body.etag, text: body.text, at: Date.now(), holdable });
  }

  /** Keeps a 2xx answer that carries an ETag and is small enough; forgets the key's entry otherwise. `holdable`: see `held`. */
  async remember(key: string, etag: string | undefined, text: string, holdable = false): Promise<void> {
    if (!etag || text.length > MAX_CACHED_BODY) return this.forget(key);
    this.entries.set(key, { etag, text, at: Date.now(), holdable });
    if (this.shared?.enabled) {
      const shared: SharedEntry = { etag, text, sha256: bodyHash(text) };
      const sharedKey = EtagCache.sharedKey(key);
      const tags = resourceTags(key.split(" ", 3)[2] ?? "").map(EtagCache.tagKey);
      await this.shared.use(
        "etag",
        (redis) => {
          const batch = redis.multi().set(sharedKey, JSON.stringify(shared), "EX", this.ttlSeconds);
          // the tags' sets, so that a change on any replica finds the entry (they live as long)
          for (const tag of tags) batch.sadd(tag, sharedKey).expire(tag, this.ttlSeconds);
          return batch.exec();
        },
        () => undefined,
      );
    }
  }

  /**
   * Drops every entry, of every caller, that reads what the change of `type` `id` touched: in
   * this process, and on Redis through the tags' sets. A member of a set that is not an entry's
   * key (Redis is not trusted) is left alone.
   */
  async forgetChanged(type: string, id: string): Promise<number> {
    return this.forgetTags(new Set(changedTags(type, id)));
  }

  /**
   * Read-your-writes for held entries: a write through the facade to `url` drops, here and on
   * Redis, every entry of the written record's family (`employee:all`…) and of what reads it (an
   * employment's or job position's write: every employee entry), before the directory's event for
   * it is heard. Other URLs (time entries, reference data) drop nothing here.
   */
  async forgetWritten(url: string): Promise<number> {
    const family = familyOf(url);
    if (family === null) return 0;
    return this.forgetTags(new Set([`${family}:all`, ...changedTags(family, "*")]));
  }

  private async forgetTags(stale: Set<string>): Promise<number> {
    if (stale.size === 0) return 0;
    let dropped = 0;
    for (const key of this.entries.keys()) {
      const url = key.split(" ", 3)[2] ?? "";
      if (resourceTags(url).some((t) => stale.has(t))) {
        this.entries.delete(key);
        dropped++;
      }
    }
    if (this.shared?.enabled) {
      await this.shared.use(
        "etag",
        async (redis) => {
          const sets = [...stale].map(EtagCache.tagKey);
          const members = (await Promise.all(sets.map((set) => redis.smembers(set)))).flat().filter((m) => SHARED_KEY.test(m));
          if (members.length > 0) await redis.del(...members);
          await redis.del(...sets);
        },
        () => undefined,
      );
    }
    return dropped;
  }

  private static tagKey(tag: string): string {
    return `etag-tag:${createHash("sha256").update(tag).digest("base64url")}`;
  }

  async forget(key: string): Promise<void> {
    this.entries.delete(key);
    if (this.shared?.enabled) await this.shared.use("etag", (redis) => redis.del(EtagCache.sharedKey(key)), () => undefined);
  }

  /** entries kept (the `upstream_etag_cache_entries` metric) */
  get size(): number {
    return this.entries.size;
  }

  /** the heap bytes kept, keys and entries included (the `upstream_etag_cache_bytes` metric) */
  get bytes(): number {
    return this.entries.weight;
  }
}
