import { UpstreamError } from "./errors.js";
import { expectItems, expectRepresentation } from "./expectations.js";
import type { CurrentApi, Envelope, LegacyApi, QueryParams } from "./types.js";
import { MAX_FILTER_VALUES, chunk, filterValues, followPages, mapConcurrent } from "./util.js";

/**
 * The two APIs of the directory service as one session sees them: what each call asks, sent
 * through the session's transport (the `Upstream` of client.ts: authentication, retries, the
 * breaker, the budget, the ETag cache).
 */

export const CURRENT_PREFIX = "/service-api";
const PAGE_LIMIT = 100;

/** One logical request, as the APIs hand it to the transport. */
export interface RequestSpec {
  api: "current" | "legacy" | "token";
  method: "GET" | "POST" | "PUT";
  /** path relative to the base URL (or the token URL's path), without query */
  path: string;
  /** the full URL, query included */
  url: string;
  json?: unknown;
  form?: Record<string, string>;
  /** answer null instead of throwing on 404 */
  nullOn404?: boolean;
  /**
   * a list page the caller asks again smaller on 408 (`iterate`): the directory aborted it for
   * running over its duration limit, and the same request would run as long again
   */
  smallerOn408?: boolean;
}

/** What a session's APIs need of the client, bound to the session. */
export interface SessionTransport {
  send<T>(spec: RequestSpec): Promise<T | null>;
  /** the request target of an API path and its query */
  target(path: string, query?: QueryParams): { path: string; url: string };
  /** a `links.next` href as a request target (only on the upstream's own origin) */
  followHref(href: string, from: string): { path: string; url: string };
  /** most requests of the session in flight at once */
  readonly concurrency: number;
}

/**
 * The `include` of a list read with `links` added: the service returns `links` (and so `next`)
 * only when asked, and a page read without them would look like the last one.
 */
function withLinks(include: QueryParams[string]): string {
  const values = (Array.isArray(include) ? include.join(",") : include === undefined || include === null ? "" : String(include)).split(",").map((v) => v.trim()).filter((v) => v !== "");
  return [...new Set([...values, "links"])].join(",");
}

/** A `links.next` address asking for `limit` items. */
function withLimit(href: string, limit: number): string {
  const url = new URL(href, "http://upstream.invalid");
  url.searchParams.set("limit", String(limit));
  return href.startsWith("/") ? `${url.pathname}${url.search}` : url.href;
}

/** The current API (`/service-api`), authenticated per the configured mode. */
export class CurrentApiClient implements CurrentApi {
  constructor(private readonly transport: SessionTransport) {}

  async read<T>(path: string, query?: QueryParams): Promise<T | null> {
    const full = currentPath(path);
    const body = await this.transport.send<T>({ api: "current", method: "GET", nullOn404: true, ...this.transport.target(full, query) });
    return expectRepresentation(full, body);
  }

  page<T>(path: string, query?: QueryParams): Promise<Envelope<T>> {
    return this.readPage<T>(path, query, false);
  }

  private async readPage<T>(path: string, query: QueryParams | undefined, smallerOn408: boolean): Promise<Envelope<T>> {
    const full = currentPath(path);
    const asked = { ...query, include: withLinks(query?.include) };
    return checkEnvelope<T>(await this.transport.send<Envelope<T>>({ api: "current", method: "GET", smallerOn408, ...this.transport.target(full, asked) }), full);
  }

  /**
   * Every item of the list, page after page. A page the directory aborts for its duration (408)
   * is asked again with half the items, down to one, and the pages after it keep the smaller size
   * (production: "retry a simpler request"); sent again as it was, it would run as long again.
   */
  async *iterate<T>(path: string, query?: QueryParams): AsyncIterable<T> {
    const first = currentPath(path);
    const asked = Number(query?.limit ?? PAGE_LIMIT);
    let limit = asked;
    // the cursors followed are the whole `links.next` addresses: the next page keeps the filters they carry
    const pages = followPages<Envelope<T>>(first, null, async (href) => {
      for (;;) {
        try {
          let envelope: Envelope<T>;
          if (href === null) envelope = await this.readPage<T>(first, { limit: PAGE_LIMIT, ...query, ...(limit < asked ? { limit } : {}) }, true);
          else {
            const target = this.transport.followHref(limit < asked ? withLimit(href, limit) : href, first);
            envelope = checkEnvelope<T>(await this.transport.send<Envelope<T>>({ api: "current", method: "GET", smallerOn408: true, ...target }), target.path);
          }
          return { page: envelope, next: envelope.links?.next?.href || null };
        } catch (err) {
          if (!(err instanceof UpstreamError) || err.status !== 408 || limit <= 1) throw err;
          limit = Math.floor(limit / 2);
        }
      }
    });
    for await (const { page } of pages) yield* page.items;
  }

  async all<T>(path: string, query?: QueryParams): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this.iterate<T>(path, query)) out.push(item);
    return out;
  }

  async allByValues<T>(path: string, filter: string, values: readonly string[], query?: QueryParams): Promise<T[]> {
    const chunks = chunk(filterValues(filter, values), MAX_FILTER_VALUES);
    const parts = await mapConcurrent(chunks, this.transport.concurrency, (c) => this.all<T>(path, { ...query, [filter]: c }));
    if (parts.length <= 1) return parts.flat();
    // an item matching values of two chunks (an occupation category valid for many
    // establishments) comes back once per chunk: keep its first copy
    const seen = new Set<unknown>();
    return parts.flat().filter((item) => {
      const id = (item as { id?: unknown } | null)?.id;
      if (id === undefined) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  }

  async post<T>(path: string, body: unknown, query?: QueryParams): Promise<T> {
    return (await this.transport.send<T>({ api: "current", method: "POST", json: body, ...this.transport.target(currentPath(path), query) })) as T;
  }
}

/** The legacy API (`/api/v3`, `/directory/api/4.0`, `/organization/structure/api`), with the API key. */
export class LegacyApiClient implements LegacyApi {
  constructor(private readonly transport: SessionTransport) {}

  async get<T>(path: string, query?: QueryParams): Promise<T> {
    return (await this.transport.send<T>({ api: "legacy", method: "GET", ...this.transport.target(checkPath(path), query) })) as T;
  }

  async getOrNull<T>(path: string, query?: QueryParams): Promise<T | null> {
    return this.transport.send<T>({ api: "legacy", method: "GET", nullOn404: true, ...this.transport.target(checkPath(path), query) });
  }

  async put<T>(path: string, body: unknown, query?: QueryParams): Promise<T> {
    return (await this.transport.send<T>({ api: "legacy", method: "PUT", json: body, ...this.transport.target(checkPath(path), query) })) as T;
  }
}

/** Current-API paths may be given relative to `/service-api` (`/employees`) or in full. */
function currentPath(path: string): string {
  checkPath(path);
  return path === CURRENT_PREFIX || path.startsWith(`${CURRENT_PREFIX}/`) ? path : `${CURRENT_PREFIX}${path}`;
}

function checkPath(path: string): string {
  if (!path.startsWith("/") || /[?#]/.test(path) || path.includes("..")) {
    throw new TypeError(`upstream path must start with "/" and carry no query string: ${JSON.stringify(path.slice(0, 80))}`);
  }
  return path;
}

function checkEnvelope<T>(body: unknown, path: string): Envelope<T> {
  const b = body as Envelope<T> | null;
  if (b === null || typeof b !== "object" || !Array.isArray(b.items)) {
    throw new UpstreamError({ method: "GET", path, status: 200, reason: "http", summary: "OK with a body that is not a collection" });
  }
  expectItems(path, b.items);
  return b;
}
