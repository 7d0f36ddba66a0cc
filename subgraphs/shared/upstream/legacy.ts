import type DataLoader from "dataloader";
import { isLegacyId } from "../../../platform/input-checks.js";
import { keyedLoader } from "./loaders.js";
import type { LegacyApi, QueryParams, UpstreamSession } from "./types.js";
import { MAX_FILTER_VALUES, chunk, filterValues, mapConcurrent } from "./util.js";

/**
 * Paging and batching over the legacy API, whose three lists page three different ways
 * (docs/interface.md#legacy-paging):
 * - `"page"`: work-contracts, `page` from 1 and `limit` (≤1000), `fields.root=count` so that the
 *   last page is known without reading an empty one, `{items, count}`;
 * - `"offset"`: time entries, `paging=<offset>,<limit>`, `{data: {items, count}}`;
 * - `"cursor"`: establishments, `page=<cursor>` from the previous answer's `next`, `limit` (≤100),
 *   `fields.root=count` to get `prev`/`next`, `{items, prev, next, count}`.
 */

export type LegacyPaging = "page" | "offset" | "cursor";

const DEFAULT_LIMIT: Record<LegacyPaging, number> = { page: 1000, offset: 1000, cursor: 100 };
/** a list that never ends is a bug upstream; stop rather than loop forever */
const MAX_PAGES = 10_000;

/** The items of a legacy list answer, `{items}` or `{data: {items}}`. */
export function legacyItems<T>(body: unknown): T[] {
  const b = body as { items?: unknown; data?: { items?: unknown } } | null;
  const items = b?.data?.items ?? b?.items;
  if (!Array.isArray(items)) throw new TypeError("legacy list answer without items");
  return items as T[];
}

/** The entity of a legacy single read, `{data: entity}` or the bare entity. */
export function legacyData<T>(body: unknown): T {
  const b = body as { data?: unknown } | null;
  return (b !== null && typeof b === "object" && "data" in b ? b.data : b) as T;
}

/** The `count` of a legacy list answer, `{count}` or `{data: {count}}`, when it was written. */
export function legacyCount(body: unknown): number | undefined {
  const b = body as { count?: unknown; data?: { count?: unknown } } | null;
  const count = b?.data?.count ?? b?.count;
  return typeof count === "number" ? count : undefined;
}

/**
 * Every page of a legacy list, one array of items per upstream call, following the list's own
 * paging style. `limit` in `query` overrides the default page size.
 */
export async function* legacyPages<T>(legacy: LegacyApi, path: string, paging: LegacyPaging, query: QueryParams = {}): AsyncIterable<T[]> {
  const requested = query.limit;
  const limit = typeof requested === "number" && requested > 0 ? requested : DEFAULT_LIMIT[paging];
  const { limit: _ignored, paging: _p, page: _pg, ...rest } = query;
  let read = 0;
  let cursor: string | number | undefined = paging === "cursor" ? undefined : paging === "page" ? 1 : 0;
  for (let n = 0; n < MAX_PAGES; n++) {
    const pageQuery: QueryParams =
      paging === "page"
        ? { ...rest, "fields.root": "count", page: cursor as number, limit }
        : paging === "offset"
          ? { ...rest, paging: `${cursor as number},${limit}` }
          : { ...rest, "fields.root": "count", limit, ...(cursor !== undefined ? { page: cursor } : {}) };
    const body = await legacy.get<unknown>(path, pageQuery);
    const items = legacyItems<T>(body);
    read += items.length;
    if (items.length > 0) yield items;
    const total = legacyCount(body);
    if (paging === "cursor") {
      const next = (body as { next?: unknown }).next;
      if (typeof next !== "string" && typeof next !== "number") return;
      if (next === "" || next === cursor) return;
      cursor = next;
    } else {
      if (items.length < limit || (total !== undefined && read >= total)) return;
      cursor = paging === "page" ? (cursor as number) + 1 : read;
    }
  }
  throw new Error(`GET ${path}: more than ${MAX_PAGES} pages`);
}

/** `legacyPages` collected into one array. */
export async function legacyAll<T>(legacy: LegacyApi, path: string, paging: LegacyPaging, query: QueryParams = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const items of legacyPages<T>(legacy, path, paging, query)) out.push(...items);
  return out;
}

/**
 * Every item of a legacy list whose list-valued `filter` is one of `values`, in chunks of ≤100
 * read concurrently (bounded by the session). Without `paging` each chunk is one call
 * (`/api/v3/users?id=…`); with it each chunk is read through all its pages.
 */
export async function legacyAllByValues<T>(
  session: UpstreamSession,
  path: string,
  filter: string,
  values: readonly (string | number)[],
  query: QueryParams = {},
  paging?: LegacyPaging,
): Promise<T[]> {
  const parts = await mapConcurrent(chunk(filterValues(filter, values), MAX_FILTER_VALUES), session.concurrency, async (c) => {
    const q = { ...query, [filter]: c };
    return paging ? legacyAll<T>(session.legacy, path, paging, q) : legacyItems<T>(await session.legacy.get<unknown>(path, q));
  });
  return parts.flat();
}

// a key that is not a legacy id (platform/input-checks.ts) is answered without asking the
// upstream: null for a read, NOT_FOUND for a write
export { isLegacyId };

/**
 * Legacy entities by id through a legacy list with an id filter (`/api/v3/users?id=1,2`), one
 * call per ≤100 ids. Keys are the ids as strings (legacy integers are the current API's string
 * ids); the answer's numeric ids are matched by their decimal form.
 */
export function legacyListByIdsLoader<T extends { id: number | string }>(
  session: UpstreamSession,
  path: string,
  options: { filter?: string; query?: QueryParams; paging?: LegacyPaging } = {},
): DataLoader<string, T | null> {
  const filter = options.filter ?? "id";
  return keyedLoader<string, T>(
    async (ids) => {
      // legacy ids are integers >= 1: any other key cannot exist and is not sent
      const valid = ids.filter(isLegacyId);
      const items = valid.length > 0 ? await legacyAllByValues<T>(session, path, filter, valid, options.query, options.paging) : [];
      return new Map(items.map((item) => [String(item.id), item]));
    },
    { maxBatchSize: MAX_FILTER_VALUES },
  );
}

/**
 * The `page`/`limit` pairs of a page-number list (docs/interface.md#legacy-paging) that cover the
 * items `[offset, offset + count)`: one page when some `limit` up to `max` holds the whole window
 * in one page, else the two pages of `count` items the window straddles.
 */
export function pageWindows(offset: number, count: number, max: number = DEFAULT_LIMIT.page): Array<{ page: number; limit: number }> {
  const size = Math.max(1, count);
  for (let limit = size; limit <= max; limit++) {
    const page = Math.floor(offset / limit);
    if (page === Math.floor((offset + size - 1) / limit)) return [{ page: page + 1, limit }];
  }
  const page = Math.floor(offset / size) + 1;
  return [
    { page, limit: size },
    { page: page + 1, limit: size },
  ];
}

/**
 * The items `[offset, offset + count)` of a legacy list paged by offset (`paging=<offset>,<count>`,
 * one call, whose `count` the list always writes) or by page number (`pageWindows`: one call,
 * two when the window straddles pages; `fields.root=count` only with `withCount`), and the
 * list's count when it was written.
 */
export async function legacyWindow<T>(
  legacy: LegacyApi,
  path: string,
  paging: "page" | "offset",
  query: QueryParams,
  window: { offset: number; count: number; withCount: boolean },
): Promise<{ items: T[]; count: number | undefined }> {
  const { offset, count, withCount } = window;
  if (paging === "offset") {
    const body = await legacy.get<unknown>(path, { ...query, paging: `${offset},${count}` });
    return { items: legacyItems<T>(body), count: legacyCount(body) };
  }
  const windows = pageWindows(offset, count);
  const bodies = await Promise.all(
    windows.map((w, i) => legacy.get<unknown>(path, { ...query, ...(withCount && i === 0 ? { "fields.root": "count" } : {}), page: w.page, limit: w.limit })),
  );
  const skip = offset - (windows[0]!.page - 1) * windows[0]!.limit;
  return { items: bodies.flatMap((body) => legacyItems<T>(body)).slice(skip, skip + count), count: legacyCount(bodies[0]) };
}
