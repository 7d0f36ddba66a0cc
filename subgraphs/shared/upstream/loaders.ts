import DataLoader from "dataloader";
import type { LoaderScope, QueryParams, UpstreamSession } from "./types.js";
import { MAX_FILTER_VALUES, isListable, mapConcurrent } from "./util.js";

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
 * Which loader for which edge (docs/graph.md#batching-rules):
 * - `listByIdsLoader`: the list has an `id` filter — one list call per chunk of ≤100 ids;
 * - `singleReadLoader`: no such filter — concurrent single reads, bounded;
 * - `collectionLoader`: small reference lists read whole, once per request;
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
): DataLoader<string, T | null> {
  const filter = options.filter ?? "id";
  return keyedLoader<string, T>(
    async (ids) => {
      const listable = ids.filter(isListable);
      const single = ids.filter((id) => id.includes(","));
      const [items, singles] = await Promise.all([
        listable.length > 0 ? session.current.all<T>(path, { ...options.query, [filter]: listable, limit: MAX_FILTER_VALUES }) : [],
        mapConcurrent(single, session.concurrency, (id) => session.current.read<T>(`${path}/${encodeURIComponent(id)}`, options.query)),
      ]);
      const found = new Map<string, T>();
      for (const item of items) if (item && typeof item.id === "string") found.set(item.id, item);
      for (const item of singles) if (item) found.set(item.id, item);
      return found;
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
 * Entities by id out of a whole collection read once per request (every page), for small
 * reference lists without an id filter.
 */
export function collectionLoader<T extends { id: string }>(
  session: UpstreamSession,
  path: string,
  query?: QueryParams,
): DataLoader<string, T | null> {
  let whole: Promise<Map<string, T>> | null = null;
  return keyedLoader<string, T>(async () => {
    whole ??= session.current.all<T>(path, query).then((items) => new Map(items.map((item) => [item.id, item])));
    try {
      return await whole;
    } catch (err) {
      // a failed read is not kept: a later load in the same request may try again
      whole = null;
      throw err;
    }
  });
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
): DataLoader<string, T[]> {
  return new DataLoader<string, T[]>(async (parentIds) => {
    const listable = parentIds.filter(isListable);
    const groups = new Map<string, T[]>(listable.map((id) => [id, []]));
    try {
      const items = listable.length > 0 ? await session.current.allByValues<T>(path, filter, listable, query) : [];
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

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
