/** Small building blocks of the upstream layer: a concurrency limiter, a bounded LRU map, filter values. */

/** At most `size` tasks run at once; the others wait in arrival order. */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`concurrency must be an integer >= 1, got ${size}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next waiter, so `active` stays accurate
      if (next) next();
      else this.active--;
    }
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapConcurrent<I, O>(items: readonly I[], limit: number, fn: (item: I, index: number) => Promise<O>): Promise<O[]> {
  const limiter = new Limiter(Math.max(1, Math.min(limit, items.length || 1)));
  return Promise.all(items.map((item, i) => limiter.run(() => fn(item, i))));
}

/**
 * A Map that forgets its least recently used entries beyond `capacity` entries or beyond
 * `maxWeight` in total (each entry weighs `weigh(value, key)`; an entry heavier than that is not kept).
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(
    readonly capacity: number,
    readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V, key: K) => number = () => 0,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value, key);
    if (this.capacity <= 0 || weight > this.maxWeight) return;
    this.map.set(key, { value, weight });
    this.totalWeight += weight;
    while (this.map.size > this.capacity || this.totalWeight > this.maxWeight) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.totalWeight -= entry.weight;
  }

  get size(): number {
    return this.map.size;
  }

  /** the keys, least recently used first (a snapshot: deleting while iterating is safe) */
  keys(): K[] {
    return [...this.map.keys()];
  }

  /** the sum of the entries' weights */
  get weight(): number {
    return this.totalWeight;
  }
}

export { MAX_FILTER_VALUES } from "../../../platform/user-input.js";

/** Whether a comma-joined list-valued filter can carry `value` (not empty, no comma). */
export function isListable(value: string): boolean {
  return value !== "" && !value.includes(",");
}

/**
 * The values of a list-valued filter, deduplicated and without empty ones. A value holding a
 * comma is refused: the upstream would read it as two values.
 */
export function filterValues(filter: string, values: readonly (string | number)[]): string[] {
  const unique = [...new Set(values.map(String).filter((v) => v !== ""))];
  const bad = unique.find((v) => v.includes(","));
  if (bad !== undefined) throw new RangeError(`filter ${filter}: the value ${JSON.stringify(bad.slice(0, 80))} contains a comma and cannot be listed`);
  return unique;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Items by key, in their order or sorted by `order`; an item without a key is left out. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | undefined, order?: (a: T, b: T) => number): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  if (order) for (const group of groups.values()) group.sort(order);
  return groups;
}

/** Two strings in code-unit order, as `sort` wants it (ISO dates and times, names of the schema): not the locale's. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A thrown value as an Error (a DataLoader settles a failed key with an Error). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** One page read by `followPages`: what it holds, and the cursor of the next page (null on the last). */
export interface FollowedPage<P> {
  page: P;
  next: string | null;
}

/**
 * The one next-page loop of the upstream lists that name their next page in each answer (the
 * current API's `links.next`, the legacy establishment list's `next`): `read(cursor)` reads the
 * page at `cursor` (`start`, null for the list's start) and the pages come one after another,
 * with the cursor each was read at, until one names no next page. A list that names a page it
 * already served again is an upstream bug: an Error, rather than a loop that never ends. A caller
 * that has what it needs stops iterating; `read` sees the state of the caller's loop as it is
 * when the next page is asked.
 */
export async function* followPages<P>(
  what: string,
  start: string | null,
  read: (cursor: string | null) => Promise<FollowedPage<P>>,
): AsyncGenerator<FollowedPage<P> & { cursor: string | null }, void, undefined> {
  const seen = new Set<string | null>();
  let cursor = start;
  for (;;) {
    if (seen.has(cursor)) throw new Error(`GET ${what}: the next page repeats a page already read`);
    seen.add(cursor);
    const { page, next } = await read(cursor);
    yield { page, next, cursor };
    if (next === null) return;
    cursor = next;
  }
}

/** The opaque `page` cursor of a REST envelope's `links.next`, or null on the last page. */
export function nextPageCursor(envelope: { links?: { next?: { href?: string } | null } | null }): string | null {
  const href = envelope.links?.next?.href;
  if (!href) return null;
  return new URL(href, "http://upstream.invalid").searchParams.get("page");
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
