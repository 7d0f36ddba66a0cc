import DataLoader from "dataloader";
import { nextPageCursor } from "../shared/graphql/index.js";
import type { UpstreamSession } from "../shared/upstream/index.js";

/**
 * Entities by id for the lists of this subgraph, none of which has an `id` filter (docs/interface.md#current-api-resources).
 *
 * Contract (the same as every loader of `subgraphs/shared/upstream/loaders.ts`): ids in,
 * entities or null out, same length and order; an id the upstream does not know is null; a failed
 * call rejects the keys that depended on it. One instance per request (the request's
 * `LoaderRegistry`), never shared.
 *
 * Two ways to answer a batch of k distinct ids from a collection of N items:
 * - k single reads (`GET /departments/{id}`, concurrent, bounded): k calls;
 * - the whole collection: ceil(N / 100) calls, after which every later id of the request is free.
 * So the batch is answered adaptively:
 * - one id, nothing read yet, and a single read exists: one single read;
 * - otherwise the first page of the collection (100 items, with `totalCount`), then the cheaper of
 *   single reads for the ids still missing or the remaining pages. A batch thus costs at most
 *   min(k + 1, ceil(N / 100)) calls, and 1 for the small collections of the demo whatever k is.
 * Collections without a single read (employment templates, job qualifications, taxonomies) are
 * always read whole, once per request.
 *
 * Items from any list page of the request (root connections) are primed into the loader, so a
 * reference to an item already listed costs nothing.
 */
export interface ReferenceLoader<T extends { id: string }> {
  load(id: string): Promise<T | null>;
  /** Entities for `ids` in order; rejects with the first failure. */
  loadMany(ids: readonly string[]): Promise<Array<T | null>>;
  /** The whole collection, read at most once per request. */
  all(): Promise<T[]>;
  /** Makes items read elsewhere in the request known to the loader. */
  prime(items: readonly T[]): void;
}

export interface ReferenceLoaderOptions {
  /** the list, e.g. `/departments` */
  list: string;
  /** the single read's path for an id, when the interface has one */
  single?: (id: string) => string;
}

const PAGE = 100;

interface FirstPage<T> {
  items: T[];
  next: string | null;
  total: number | null;
}

export function referenceLoader<T extends { id: string }>(session: UpstreamSession, options: ReferenceLoaderOptions): ReferenceLoader<T> {
  const known = new Map<string, T>();
  let firstPage: Promise<FirstPage<T>> | null = null;
  let whole: Promise<T[]> | null = null;

  const remember = (items: readonly T[]) => {
    for (const item of items) if (item && typeof item.id === "string") known.set(item.id, item);
  };

  function readFirstPage(): Promise<FirstPage<T>> {
    firstPage ??= session.current
      .page<T>(options.list, { limit: PAGE, include: "totalCount" })
      .then((envelope) => {
        remember(envelope.items);
        return { items: envelope.items, next: nextPageCursor(envelope), total: envelope.totalCount ?? null };
      })
      .catch((err: unknown) => {
        // a failure is not kept: a later batch of the same request may try again
        firstPage = null;
        throw err;
      });
    return firstPage;
  }

  function readAll(): Promise<T[]> {
    whole ??= (async () => {
      const first = await readFirstPage();
      const items = [...first.items];
      let cursor = first.next;
      const seen = new Set<string>();
      while (cursor !== null) {
        if (seen.has(cursor)) throw new Error(`GET ${options.list}: links.next repeats a page already read`);
        seen.add(cursor);
        const envelope = await session.current.page<T>(options.list, { limit: PAGE, page: cursor });
        remember(envelope.items);
        items.push(...envelope.items);
        cursor = nextPageCursor(envelope);
      }
      return items;
    })().catch((err: unknown) => {
      whole = null;
      throw err;
    });
    return whole;
  }

  async function singleReads(ids: readonly string[]): Promise<Map<string, T | Error>> {
    const outcomes = new Map<string, T | Error>();
    // the session bounds how many of these are in flight at once
    await Promise.all(
      ids.map(async (id) => {
        try {
          const item = await session.current.read<T>(options.single!(id));
          if (item) {
            known.set(id, item);
            outcomes.set(id, item);
          }
        } catch (err) {
          outcomes.set(id, err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    return outcomes;
  }

  const loader = new DataLoader<string, T | null>(async (keys) => {
    const answer = (extra?: Map<string, T | Error>) =>
      keys.map((id): T | null | Error => extra?.get(id) ?? known.get(id) ?? null);
    // "" is no id (identifiers have a minimum length of 1) and would address the list itself
    const wanted = () => keys.filter((id) => id !== "" && !known.has(id));

    try {
      if (whole !== null || options.single === undefined) {
        await readAll();
        return answer();
      }
      if (wanted().length === 0) return answer();
      if (wanted().length === 1 && firstPage === null) return answer(await singleReads(wanted()));

      const first = await readFirstPage();
      const missing = wanted();
      if (missing.length === 0 || first.next === null) return answer();
      // without a total, there is at least one more page: its lower bound keeps the choice safe
      const remainingPages = first.total === null ? 1 : Math.ceil(Math.max(0, first.total - first.items.length) / PAGE);
      if (missing.length <= remainingPages) return answer(await singleReads(missing));
      await readAll();
      return answer();
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      return keys.map(() => error);
    }
  });

  return {
    load: (id) => loader.load(id),
    async loadMany(ids) {
      const results = await loader.loadMany(ids);
      const failure = results.find((r): r is Error => r instanceof Error);
      if (failure) throw failure;
      return results as Array<T | null>;
    },
    all: readAll,
    prime(items) {
      remember(items);
      for (const item of items) if (item && typeof item.id === "string") loader.prime(item.id, item);
    },
  };
}
