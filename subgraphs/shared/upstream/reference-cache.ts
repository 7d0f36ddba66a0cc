import { LRUCache } from "lru-cache";
import type { ChangeFeed } from "../events/index.js";
import { DEFAULT_HELD_BYTES } from "./config.js";

/**
 * Reference data held warm (docs/performance.md#what-a-company-router-gets): the reads of the
 * organisation's reference lists (departments, business establishments, legal entities,
 * employment templates, job qualifications, occupation categories) and of two parts of an
 * employment the directory sends no event of (probationary periods, legacy work contracts), and of
 * the legacy users and establishments, views of the current API's records (`DROPPED_BY`), kept per
 * caller identity and
 * URL for at most `freshMs` (DIRECTORY_REFERENCE_FRESH_S) after the read that fetched them
 * started. A read within that bound is answered from memory, with no upstream call and so no
 * round of its own, under any router; once an entry is half its bound old, a read still answered
 * from it revalidates it in the background (a conditional GET through the ETag cache, off the
 * critical path, in the request budget's background share). A change the directory reports for
 * one of these types, or for the employment or employee a collection is part of (the change feed,
 * subgraphs/shared/events), drops that collection's entries at once, and a read in flight when it
 * arrived is not kept; so does a write of ours to the collection (read-your-writes), before it is
 * sent and once it has answered. At most MAX_ENTRIES are kept, and at most `maxBytes` of bodies
 * (DIRECTORY_HELD_MB, measured as their JSON), the least recently read dropped first; a body
 * larger than the whole bound is not kept. 0 turns it off: every read goes upstream, as before.
 *
 * The legacy time data (time entries, timesheets, axis sections; `LEGACY_TIME`) is held the same
 * way for its own bound, `legacyTimeFreshMs` (DIRECTORY_LEGACY_TIME_FRESH_S): the directory sends no
 * event of it, so a change made elsewhere than through the facade shows within that bound, and the
 * facade's own writes drop it at once, on this replica here and on the others by the change feed
 * (client.ts `sendWrite`, `writtenChange`).
 */

/**
 * The collections held, by the change feed's `resource.type` whose changes drop them. Beside the
 * reference types, two collections the directory sends no event of and the facade never writes,
 * both parts of an employment: its probationary periods, and the legacy work contracts (the legacy
 * view of employments), dropped by every employment change and, for the contracts, which carry
 * their owner, by every employee change. The legacy users and establishments show the employee,
 * its employment and position, the establishment, the legal entity and (the users) the department
 * and an axis section: each change of those drops them. What only the legacy API holds of a user
 * (its personal data, changed in the directory's screens) has no event the facade hears: the bound.
 */
const DROPPED_BY: Record<string, readonly string[]> = {
  department: ["departments", "legacy-users"],
  "business-establishment": ["business-establishments", "legacy-users", "legacy-establishments"],
  "legal-entity": ["legal-entities", "legacy-users", "legacy-establishments"],
  "employment-template": ["employment-templates"],
  "job-qualification": ["job-qualifications"],
  "occupation-category": ["occupation-categories"],
  employment: ["probationary-periods", "work-contracts", "legacy-users", "legacy-establishments"],
  employee: ["work-contracts", "legacy-users", "legacy-establishments"],
  "job-position": ["legacy-users", "legacy-establishments"],
  "employee-personal-record": ["legacy-users"],
  // the facade's own writes of the legacy time data, heard from another replica (client.ts `writtenChange`)
  "time-entry": ["time-entries", "timesheets"],
  "axis-section": ["axis-sections", "legacy-users"],
};
/** the legacy time data the facade writes, by collection: the change-feed type of such a write */
const WRITTEN_TYPE: Record<string, string> = { "time-entries": "time-entry", "axis-sections": "axis-section" };
/** the collections of the legacy time data, by path segment, held for `legacyTimeFreshMs` */
const LEGACY_TIME: Record<string, string> = { timeentries: "time-entries", timmitimesheets: "timesheets", axisSections: "axis-sections" };
const LEGACY_TIME_COLLECTIONS: ReadonlySet<string> = new Set(Object.values(LEGACY_TIME));
const CURRENT = new RegExp(
  `^/service-api/(departments|business-establishments|legal-entities|employment-templates|job-qualifications|occupation-categories|probationary-periods)(?:/[^/]+)?$`,
);
const LEGACY = /^\/directory\/api\/4\.0\/(work-contracts)(?:\/[^/]+)?$/;
/** the legacy users and establishments, by path: views of the current API's records (their events drop them) */
const LEGACY_VIEWS: ReadonlyArray<[RegExp, string]> = [
  [/^\/api\/v3\/users(?:\/[^/]+)?$/, "legacy-users"],
  [/^\/organization\/structure\/api\/establishments(?:\/[^/]+)?$/, "legacy-establishments"],
];
const LEGACY_TIME_PATH = /^\/api\/v3\/(timeentries|timmitimesheets|axisSections)(?:\/[^/]+)?$/;
/** entries kept at most, over every collection and caller: the least recently read go first */
const MAX_ENTRIES = 10_000;

interface Entry {
  body: unknown;
  /** when the read that fetched it started */
  at: number;
  collection: string;
  refreshing: boolean;
  /** the body's size as JSON, what `maxBytes` bounds */
  bytes: number;
}

export class ReferenceCache {
  private readonly entries: LRUCache<string, Entry>;
  /** per collection: bumped by each change, so that a read started before it is not kept */
  private readonly generations = new Map<string, number>();
  private readonly stop: () => void;

  constructor(
    readonly freshMs: number,
    feed: ChangeFeed | null,
    private readonly now: () => number = () => performance.now(),
    readonly legacyTimeFreshMs = 0,
    maxBytes = DEFAULT_HELD_BYTES,
  ) {
    this.entries = new LRUCache<string, Entry>({ max: MAX_ENTRIES, maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, entry.bytes) });
    this.stop =
      feed?.listen((change) => {
        for (const collection of DROPPED_BY[change.resource.type] ?? []) this.drop(collection);
      }) ?? (() => undefined);
  }

  /** The held collection a GET reads, or null. */
  static collectionOf(api: string, method: string, path: string): string | null {
    if (method !== "GET") return null;
    if (api === "current") return CURRENT.exec(path)?.[1] ?? null;
    if (api === "legacy") {
      return LEGACY.exec(path)?.[1] ?? LEGACY_TIME[LEGACY_TIME_PATH.exec(path)?.[1] ?? ""] ?? LEGACY_VIEWS.find(([pattern]) => pattern.test(path))?.[1] ?? null;
    }
    return null;
  }

  /**
   * What a write of ours to `path` changes: the change-feed type that names it to the other
   * replicas (the legacy time data, which no directory event reports; null otherwise), and the
   * collections it drops here (its own; for a time entry, its timesheet too).
   */
  static writtenBy(api: string, path: string): { type: string | null; collections: string[] } {
    const collection = ReferenceCache.collectionOf(api, "GET", path);
    const type = collection === null ? undefined : WRITTEN_TYPE[collection];
    if (type === undefined) return { type: null, collections: collection === null ? [] : [collection] };
    return { type, collections: [...DROPPED_BY[type]!] };
  }

  /** How long an entry of `collection` answers again. */
  private boundOf(collection: string): number {
    return LEGACY_TIME_COLLECTIONS.has(collection) ? this.legacyTimeFreshMs : this.freshMs;
  }

  /**
   * `fetch`'s answer, or the one kept under `key` while it is fresher than the bound; past half of
   * it, `refresh` (the same read as the facade's own work: the request budget's background share,
   * so that keeping an entry warm never takes a caller's slot) renews it off the critical path.
   */
  async read<T>(key: string, collection: string, fetch: () => Promise<T | null>, refresh: () => Promise<T | null> = fetch): Promise<T | null> {
    const freshMs = this.boundOf(collection);
    if (freshMs <= 0) return fetch();
    const entry = this.entries.get(key);
    const age = entry ? this.now() - entry.at : Infinity;
    if (entry && age < freshMs) {
      if (age >= freshMs / 2 && !entry.refreshing) {
        entry.refreshing = true;
        // off the critical path: a failure leaves the entry to age out
        void this.fetchAndKeep(key, collection, refresh).catch(() => undefined);
      }
      return structuredClone(entry.body) as T | null;
    }
    return structuredClone(await this.fetchAndKeep(key, collection, fetch));
  }

  /** Forgets a collection's entries (a change at the directory). */
  drop(collection: string): void {
    this.generations.set(collection, (this.generations.get(collection) ?? 0) + 1);
    for (const [key, entry] of [...this.entries.entries()]) if (entry.collection === collection) this.entries.delete(key);
  }

  close(): void {
    this.stop();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** the bytes of the bodies held, as JSON */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  private async fetchAndKeep<T>(key: string, collection: string, fetch: () => Promise<T | null>): Promise<T | null> {
    const at = this.now();
    const generation = this.generations.get(collection) ?? 0;
    try {
      const body = await fetch();
      if ((this.generations.get(collection) ?? 0) === generation) {
        this.entries.set(key, { body, at, collection, refreshing: false, bytes: Buffer.byteLength(JSON.stringify(body) ?? "null") });
      }
      return body;
    } catch (err) {
      const entry = this.entries.get(key);
      if (entry) entry.refreshing = false;
      throw err;
    }
  }
}
