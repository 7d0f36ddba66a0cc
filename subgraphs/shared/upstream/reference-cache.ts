import type { ChangeFeed } from "../events/index.js";

/**
 * Reference data held warm (docs/performance.md#what-a-company-router-gets): the reads of the
 * organisation's reference lists (departments, business establishments, legal entities,
 * employment templates, job qualifications, occupation categories), kept per caller identity and
 * URL for at most `freshMs` (DIRECTORY_REFERENCE_FRESH_S) after the read that fetched them
 * started. A read within that bound is answered from memory, with no upstream call and so no
 * round of its own, under any router; once an entry is half its bound old, a read still answered
 * from it revalidates it in the background (a conditional GET through the ETag cache, off the
 * critical path). A change the directory reports for one of these types (the change feed,
 * subgraphs/shared/events) drops that collection's entries at once, and a read in flight when it
 * arrived is not kept; so does a write of ours to the collection (read-your-writes), before it is
 * sent and once it has answered. 0 turns it off: every read goes upstream, as before.
 */

/** the REST collection of each reference type, as the change feed names it (`resource.type`) */
const COLLECTIONS: Record<string, string> = {
  department: "departments",
  "business-establishment": "business-establishments",
  "legal-entity": "legal-entities",
  "employment-template": "employment-templates",
  "job-qualification": "job-qualifications",
  "occupation-category": "occupation-categories",
};
const PATH = new RegExp(`^/service-api/(${Object.values(COLLECTIONS).join("|")})(?:/[^/]+)?$`);

interface Entry {
  body: unknown;
  /** when the read that fetched it started */
  at: number;
  collection: string;
  refreshing: boolean;
}

export class ReferenceCache {
  private readonly entries = new Map<string, Entry>();
  /** per collection: bumped by each change, so that a read started before it is not kept */
  private readonly generations = new Map<string, number>();
  private readonly stop: () => void;

  constructor(
    readonly freshMs: number,
    feed: ChangeFeed | null,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.stop =
      feed?.listen((change) => {
        const collection = COLLECTIONS[change.resource.type];
        if (collection !== undefined) this.drop(collection);
      }) ?? (() => undefined);
  }

  /** The reference collection a GET of the current API reads, or null. */
  static collectionOf(api: string, method: string, path: string): string | null {
    if (api !== "current" || method !== "GET") return null;
    return PATH.exec(path)?.[1] ?? null;
  }

  /** `fetch`'s answer, or the one kept under `key` while it is fresher than the bound. */
  async read<T>(key: string, collection: string, fetch: () => Promise<T | null>): Promise<T | null> {
    if (this.freshMs <= 0) return fetch();
    const entry = this.entries.get(key);
    const age = entry ? this.now() - entry.at : Infinity;
    if (entry && age < this.freshMs) {
      if (age >= this.freshMs / 2 && !entry.refreshing) {
        entry.refreshing = true;
        // off the critical path: a failure leaves the entry to age out
        void this.fetchAndKeep(key, collection, fetch).catch(() => undefined);
      }
      return structuredClone(entry.body) as T | null;
    }
    return structuredClone(await this.fetchAndKeep(key, collection, fetch));
  }

  /** Forgets a collection's entries (a change at the directory). */
  drop(collection: string): void {
    this.generations.set(collection, (this.generations.get(collection) ?? 0) + 1);
    for (const [key, entry] of this.entries) if (entry.collection === collection) this.entries.delete(key);
  }

  close(): void {
    this.stop();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private async fetchAndKeep<T>(key: string, collection: string, fetch: () => Promise<T | null>): Promise<T | null> {
    const at = this.now();
    const generation = this.generations.get(collection) ?? 0;
    try {
      const body = await fetch();
      if ((this.generations.get(collection) ?? 0) === generation) this.entries.set(key, { body, at, collection, refreshing: false });
      return body;
    } catch (err) {
      const entry = this.entries.get(key);
      if (entry) entry.refreshing = false;
      throw err;
    }
  }
}
