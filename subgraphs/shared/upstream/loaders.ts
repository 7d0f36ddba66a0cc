import DataLoader from "dataloader";
import type { Envelope, LoaderScope, QueryParams, UpstreamSession } from "./types.js";
import { MAX_FILTER_VALUES, asError, followPages, isListable, mapConcurrent, nextPageCursor } from "./util.js";

/**
 * The loader contract, the same for every loader of this file:
 *
 *   ids in, entities or null out — same length, same order as the keys; a key that does not
 *   exist (or that the caller may not see) resolves to null; when the upstream call behind a key
 *   fails, that key (and only the keys of that call) resolves to the Error.
 *
 * Loaders live in one request's `LoaderRegistry` (`session.loaders`) and are never shared across
 * requests: their memo holds what one caller was allowed to read.
 *
 * Every loader is a DataLoader: `load`, `loadMany` (failed keys as Errors in the answer; `loadEvery`
 * when one failure fails the whole), `prime`, `clear`.
 *
 * Which loader for which edge (docs/performance.md#batching-rules):
 * - `listByIdsLoader`: the list has an `id` filter — one list call per chunk of ≤100 ids;
 * - `singleReadLoader`: no such filter — concurrent single reads, bounded;
 * - `adaptiveLoader`: no `id` filter, and either a single read (the cheaper of single reads or the
 *   whole list, decided per batch) or none (the whole list, read once per request);
 * - `groupedLoader`: one-to-many edges — one list call filtered by the parents' ids per chunk,
 *   grouped back by parent.
 */

/** The request's memo of loaders: one loader per key, created on first use. */
export class LoaderRegistry implements LoaderScope {
  private readonly loaders = new Map<string, unknown>();

  get<T>(key: string, create: () => T): T {
    if (this.loaders.has(key)) return this.loaders.get(key) as T;
    const loader = create();
    this.loaders.set(key, loader);
    return loader;
  }

  forget(prefix: string): void {
    for (const key of [...this.loaders.keys()]) if (key.startsWith(prefix)) this.loaders.delete(key);
  }
}

/**
 * A loader that other reads of the request can answer ahead of it: a list that returned the
 * entities (`primeAll`, `primeEntries`), or a list still in flight that may hold some of the keys
 * (`expect`: a batch waits for the lists expected, then reads only the keys they did not answer).
 * An employee's employments list answers the reference to the applicable employment, so the two
 * reads of the same tick make one call (docs/performance.md#batching-rules). A list expected must not
 * itself wait for this loader.
 */
export class PrimableLoader<K, V> extends DataLoader<K, V> {
  private readonly known = new Map<K, V>();
  private readonly expected = new InFlightReads();

  constructor(
    batch: (keys: readonly K[]) => Promise<Array<V | Error>>,
    options: { maxBatchSize?: number } = {},
  ) {
    super(async (keys) => {
      await this.expected.settled();
      const missing = keys.filter((key) => !this.known.has(key));
      const answers = missing.length > 0 ? await batch(missing) : [];
      const read = new Map(missing.map((key, i) => [key, answers[i]]));
      return keys.map((key) => (this.known.has(key) ? (this.known.get(key) as V) : (read.get(key) as V | Error)));
    }, options);
  }

  /** Entities read elsewhere in the request, by key. */
  primeEntries(entries: Iterable<readonly [K, V]>): this {
    for (const [key, value] of entries) {
      this.known.set(key, value);
      this.prime(key, value as Exclude<V, Error>);
    }
    return this;
  }

  /** Entities read elsewhere in the request, keyed by their id. */
  primeAll(items: readonly NonNullable<V>[]): this {
    return this.primeEntries(items.flatMap((item) => (isIdentified(item) ? [[item.id as K, item] as const] : [])));
  }

  /** A read in flight whose entries answer some keys: batches wait for it; its failure primes nothing. */
  expect(entries: Promise<Iterable<readonly [K, V]>>): this {
    this.expected.add(entries.then((found) => this.primeEntries(found)));
    return this;
  }

  /** `expect` for a list of entities keyed by their id. */
  expectAll(items: Promise<readonly NonNullable<V>[]>): this {
    return this.expect(items.then((list) => list.flatMap((item) => (isIdentified(item) ? [[item.id as K, item] as const] : []))));
  }
}

/**
 * The reads in flight that may answer what a request asks later (`PrimableLoader.expect`,
 * `KnownChildren.expect`): `settled` waits until none is, a failed read counting as settled.
 */
export class InFlightReads {
  private readonly pending = new Set<Promise<unknown>>();

  get any(): boolean {
    return this.pending.size > 0;
  }

  add(read: Promise<unknown>): void {
    const settled = read.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

function isIdentified(item: unknown): item is { id: string } {
  return typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string";
}

/**
 * A loader from a batch function answering a Map: keys missing from the Map resolve to null; a
 * rejected batch rejects each of its keys with that Error.
 */
export function keyedLoader<K, V>(
  batch: (keys: readonly K[]) => Promise<Map<K, V>>,
  options: { maxBatchSize?: number; cacheKeyFn?: (key: K) => unknown } = {},
): DataLoader<K, V | null> {
  return new DataLoader<K, V | null, unknown>(
    async (keys) => {
      let found: Map<K, V>;
      try {
        found = await batch(keys);
      } catch (err) {
        const error = asError(err);
        return keys.map(() => error);
      }
      return keys.map((key) => (found.has(key) ? (found.get(key) as V) : null));
    },
    {
      ...(options.maxBatchSize !== undefined ? { maxBatchSize: options.maxBatchSize } : {}),
      ...(options.cacheKeyFn !== undefined ? { cacheKeyFn: options.cacheKeyFn } : {}),
    },
  ) as DataLoader<K, V | null>;
}

/**
 * Entities by id through a list with a list-valued filter (default `id`): one call per chunk of
 * ≤100 ids. An id that a comma-joined filter cannot carry (it contains a comma) is read singly.
 */
export function listByIdsLoader<T extends { id: string }>(
  session: UpstreamSession,
  path: string,
  options: { filter?: string; query?: QueryParams } = {},
): PrimableLoader<string, T | null> {
  const filter = options.filter ?? "id";
  return new PrimableLoader<string, T | null>(
    async (ids) => {
      try {
        const listable = ids.filter(isListable);
        const single = ids.filter((id) => id.includes(","));
        const [items, singles] = await Promise.all([
          listable.length > 0 ? session.current.all<T>(path, { ...options.query, [filter]: listable, limit: MAX_FILTER_VALUES }) : [],
          mapConcurrent(single, session.concurrency, (id) => session.current.read<T>(`${path}/${encodeURIComponent(id)}`, options.query)),
        ]);
        const found = new Map<string, T>();
        for (const item of items) if (item && typeof item.id === "string") found.set(item.id, item);
        for (const item of singles) if (item) found.set(item.id, item);
        return ids.map((id) => found.get(id) ?? null);
      } catch (err) {
        const error = asError(err);
        return ids.map(() => error);
      }
    },
    { maxBatchSize: MAX_FILTER_VALUES },
  );
}

/**
 * Entities by id through single reads, at most `concurrency` at once; a 404 is null. Each key
 * carries its own outcome: one failed read does not fail the other keys of the batch.
 */
export function singleReadLoader<T>(
  session: UpstreamSession,
  path: (id: string) => string,
  options: { api?: "current" | "legacy"; concurrency?: number; query?: QueryParams; unwrap?: (body: any) => T } = {},
): DataLoader<string, T | null> {
  const api = options.api ?? "current";
  const concurrency = options.concurrency ?? session.concurrency;
  return new DataLoader<string, T | null>(async (ids) =>
    mapConcurrent(ids, concurrency, async (id): Promise<T | null | Error> => {
      try {
        const body =
          api === "current"
            ? await session.current.read<unknown>(path(id), options.query)
            : await session.legacy.getOrNull<unknown>(path(id), options.query);
        if (body === null || body === undefined) return null;
        return options.unwrap ? options.unwrap(body) : (body as T);
      } catch (err) {
        return asError(err);
      }
    }),
  );
}

/**
 * Entities by id for a list without an `id` filter (the organisation's reference lists).
 *
 * Two ways to answer a batch of k distinct ids from a collection of N items:
 * - k single reads (`GET /departments/{id}`, concurrent, bounded by the session): k calls;
 * - the whole collection: ceil(N / 100) calls, after which every later id of the request is free.
 * So the batch is answered adaptively:
 * - one id, nothing read yet, and a single read exists: one single read;
 * - otherwise the first page of the collection (100 items, with `totalCount`), then the cheaper of
 *   single reads for the ids still missing or the remaining pages. A batch thus costs at most
 *   min(k + 1, ceil(N / 100)) calls, and 1 for a collection of one page whatever k is.
 * Without a single read (`single` not given) the list is always read whole, once per request.
 *
 * `primeAll` makes items read elsewhere in the request (a root list's page) known: a reference to
 * one of them costs nothing. `all()` is the whole collection, read at most once per request.
 * Fires for every reference into such a list; SUBGRAPH_MECHANISMS_OFF=adaptive-loaders makes it
 * single reads only, for measuring it (docs/performance.md#which-mechanism-fires-when).
 */
export class AdaptiveLoader<T extends { id: string }> extends DataLoader<string, T | null> {
  private readonly known = new Map<string, T>();
  private firstPage: Promise<FirstPage<T>> | null = null;
  private whole: Promise<T[]> | null = null;

  constructor(
    private readonly session: UpstreamSession,
    private readonly options: AdaptiveLoaderOptions,
  ) {
    super((keys) => this.batch(keys));
  }

  /** The whole collection, read at most once per request. */
  all(): Promise<T[]> {
    this.whole ??= this.readAll().catch((err: unknown) => {
      // a failure is not kept: a later batch of the same request may try again
      this.whole = null;
      throw err;
    });
    return this.whole;
  }

  /**
   * Starts reading the collection's first page now, for references the operation will ask once
   * another read names them (a department's parent, an establishment's legal entity): a batch
   * then waits for that page instead of reading after it. While the collection fits one page the
   * page is the one call those references cost anyway (a batch of several ids reads it; one id
   * reads itself singly, also one call) and it answers them a round earlier; beyond one page an
   * id it does not hold costs one call more. Without a single read, the whole list. Settles
   * (never rejects) when that read has.
   */
  warm(): Promise<void> {
    const started = this.options.single === undefined ? this.all() : this.readFirstPage();
    // settled when the read is, never rejected: a failure is the batch's to report, when a reference asks
    return started.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Makes items read elsewhere in the request known to the loader. */
  primeAll(items: readonly T[]): this {
    this.remember(items);
    for (const item of items) if (item && typeof item.id === "string") this.prime(item.id, item);
    return this;
  }

  private embedQuery(): QueryParams {
    return this.options.embedded ? { include: "embedded" } : {};
  }

  private remember(items: readonly T[]): void {
    for (const item of items) if (item && typeof item.id === "string") this.known.set(item.id, item);
  }

  private readFirstPage(): Promise<FirstPage<T>> {
    this.firstPage ??= this.session.current
      .page<T>(this.options.list, { limit: PAGE, include: this.options.embedded ? "totalCount,embedded" : "totalCount" })
      .then((envelope) => {
        this.options.embedded?.(envelope);
        this.remember(envelope.items);
        return { items: envelope.items, next: nextPageCursor(envelope), total: envelope.totalCount ?? null };
      })
      .catch((err: unknown) => {
        this.firstPage = null;
        throw err;
      });
    return this.firstPage;
  }

  private async readAll(): Promise<T[]> {
    const items: T[] = [];
    const pages = followPages<readonly T[]>(this.options.list, null, async (cursor) => {
      if (cursor === null) {
        const first = await this.readFirstPage();
        return { page: first.items, next: first.next };
      }
      const envelope = await this.session.current.page<T>(this.options.list, { limit: PAGE, page: cursor, ...this.embedQuery() });
      this.options.embedded?.(envelope);
      this.remember(envelope.items);
      return { page: envelope.items, next: nextPageCursor(envelope) };
    });
    for await (const { page } of pages) items.push(...page);
    return items;
  }

  private async singleReads(ids: readonly string[]): Promise<Map<string, T | Error>> {
    const outcomes = new Map<string, T | Error>();
    // the session bounds how many of these are in flight at once
    await Promise.all(
      ids.map(async (id) => {
        try {
          const item = await this.session.current.read<T & { embedded?: Envelope<T>["embedded"] }>(this.options.single!(id), this.embedQuery());
          if (item) {
            this.options.embedded?.(item);
            this.known.set(id, item);
            outcomes.set(id, item);
          }
        } catch (err) {
          outcomes.set(id, asError(err));
        }
      }),
    );
    return outcomes;
  }

  private async batch(keys: readonly string[]): Promise<Array<T | null | Error>> {
    const answer = (extra?: Map<string, T | Error>) => keys.map((id): T | null | Error => extra?.get(id) ?? this.known.get(id) ?? null);
    // "" is no id (identifiers have a minimum length of 1) and would address the list itself
    const wanted = () => keys.filter((id) => id !== "" && !this.known.has(id));
    try {
      if (this.whole !== null || this.options.single === undefined) {
        await this.all();
        return answer();
      }
      if (wanted().length === 0) return answer();
      if (this.options.singleReadsOnly || (wanted().length === 1 && this.firstPage === null)) return answer(await this.singleReads(wanted()));

      const first = await this.readFirstPage();
      const missing = wanted();
      if (missing.length === 0 || first.next === null) return answer();
      // without a total, there is at least one more page: its lower bound keeps the choice safe
      const remainingPages = first.total === null ? 1 : Math.ceil(Math.max(0, first.total - first.items.length) / PAGE);
      if (missing.length <= remainingPages) return answer(await this.singleReads(missing));
      await this.all();
      return answer();
    } catch (err) {
      const error = asError(err);
      return keys.map(() => error);
    }
  }
}

export interface AdaptiveLoaderOptions {
  /** the list, e.g. `/departments` */
  list: string;
  /** the single read's path for an id, when the interface has one */
  single?: (id: string) => string;
  /**
   * when set, every read asks `include=embedded` and hands each answer (a page, or a single
   * read's representation) here, to prime the loaders of what it embeds (docs/performance.md#batching-rules)
   */
  embedded?: (answer: Pick<Envelope<unknown>, "embedded">) => void;
  /**
   * every id by its single read, as a client that knows no better would (SUBGRAPH_MECHANISMS_OFF=
   * adaptive-loaders: for measuring what the choice saves); a list without single read is read whole still
   */
  singleReadsOnly?: boolean;
}

const PAGE = 100;

interface FirstPage<T> {
  items: T[];
  next: string | null;
  total: number | null;
}

export function adaptiveLoader<T extends { id: string }>(session: UpstreamSession, options: AdaptiveLoaderOptions): AdaptiveLoader<T> {
  return new AdaptiveLoader<T>(session, options);
}

/**
 * The values of `keys` in order, for a field that fails as a whole: the first key that failed
 * rejects with its Error (`loadMany` would hand the Errors back among the values).
 */
export async function loadEvery<K, V>(loader: DataLoader<K, V, any>, keys: readonly K[]): Promise<V[]> {
  const values = await loader.loadMany(keys);
  const failure = values.find((v): v is Error => v instanceof Error);
  if (failure) throw failure;
  return values as V[];
}

/**
 * One-to-many: the children of many parents through one list filtered by the parents' ids
 * (`employee.id=1,2,3`, chunks of ≤100 read concurrently), grouped back by `keysOf(child)` (which
 * may itself load what it needs). A parent without children gets [].
 */
export function groupedLoader<T>(
  session: UpstreamSession,
  path: string,
  filter: string,
  keysOf: (item: T) => ParentKeys | Promise<ParentKeys>,
  query?: QueryParams,
  /** another read of the parents' children than the current API's list (a legacy list): it gets every parent id and says which it can ask for */
  read?: (parentIds: string[]) => Promise<T[]>,
): PrimableLoader<string, T[]> {
  return new PrimableLoader<string, T[]>(async (parentIds) => {
    const listable = read ? [...parentIds] : parentIds.filter(isListable);
    const groups = new Map<string, T[]>(listable.map((id) => [id, []]));
    try {
      const items = listable.length === 0 ? [] : read ? await read(listable) : await session.current.allByValues<T>(path, filter, listable, query);
      const keyLists = await Promise.all(items.map((item) => keysOf(item)));
      items.forEach((item, index) => {
        const keys = keyLists[index];
        if (keys === null || keys === undefined) return;
        for (const key of typeof keys === "string" ? [keys] : new Set(keys)) groups.get(key)?.push(item);
      });
    } catch (err) {
      const error = asError(err);
      return parentIds.map(() => error);
    }
    return parentIds.map((id) => groups.get(id) ?? (id === "" ? [] : unlistable(filter, id)));
  });
}

/** The parent id(s) a child belongs to. */
export type ParentKeys = string | readonly string[] | null | undefined;

/** A parent id that a comma-joined filter cannot carry: its children cannot be asked for. */
function unlistable(filter: string, id: string): Error {
  return new RangeError(`filter ${filter}: the value ${JSON.stringify(id.slice(0, 80))} cannot be listed`);
}
