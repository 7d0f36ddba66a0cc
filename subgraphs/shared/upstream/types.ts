/**
 * The public surface of the upstream access layer, shared by the three subgraphs.
 * Subgraphs import from `subgraphs/shared/upstream/index.ts` only.
 *
 * One `Upstream` per process (keep-alive agents, token cache, ETag caches); one
 * `UpstreamSession` per GraphQL request (the caller's credentials, the call counter, and the
 * request's loaders). Nothing of a session outlives its request.
 */

/** Query parameters: arrays are joined with commas; undefined and null are left out. */
export type QueryParams = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

/** The collection envelope of the current API. */
export interface Envelope<T> {
  type: string;
  url: string;
  totalCount?: number | null;
  items: T[];
  links: { prev: { href: string } | null; next: { href: string } | null };
  embedded?: Record<string, Record<string, unknown>>;
}

/** A reference object of the current API. */
export interface Ref {
  id: string;
  type: string;
  url: string;
}

export interface CallCounter {
  /** upstream HTTP requests made, including retries and token requests */
  total: number;
  /** `"GET /service-api/employees"` -> count (ids in paths are replaced by `{id}`) */
  byRoute: Record<string, number>;
}

/** The current API (`/service-api`), authenticated per the configured mode. */
export interface CurrentApi {
  /** GET one resource; null when the upstream answers 404. */
  read<T>(path: string, query?: QueryParams): Promise<T | null>;
  /** GET one page of a list. `query.page` is the opaque cursor of `links.next`. */
  page<T>(path: string, query?: QueryParams): Promise<Envelope<T>>;
  /** Every item of a list, following `links.next` (limit 100 per page). */
  iterate<T>(path: string, query?: QueryParams): AsyncIterable<T>;
  /** `iterate` collected into an array. */
  all<T>(path: string, query?: QueryParams): Promise<T[]>;
  /**
   * Every item whose list-valued `filter` is one of `values`: values are deduplicated, split into
   * chunks of at most 100, and the chunks are read concurrently (bounded) through all their pages.
   * An item that several chunks return is answered once.
   */
  allByValues<T>(path: string, filter: string, values: readonly string[], query?: QueryParams): Promise<T[]>;
  /** POST a JSON body; answers the created resource. Never retried. */
  post<T>(path: string, body: unknown, query?: QueryParams): Promise<T>;
}

/** The legacy API (`/api/v3`, `/directory/api/4.0`, `/organization/structure/api`), with the API key. */
export interface LegacyApi {
  get<T>(path: string, query?: QueryParams): Promise<T>;
  /** null when the upstream answers 404 */
  getOrNull<T>(path: string, query?: QueryParams): Promise<T | null>;
  /** Never retried once it may have reached the upstream. */
  put<T>(path: string, body: unknown, query?: QueryParams): Promise<T>;
}

export interface UpstreamSession {
  current: CurrentApi;
  legacy: LegacyApi;
  /**
   * A stable pseudonym of the caller for logs: 16 hex digits of a hash of the session's identity
   * (the forwarded credentials in forward mode, the facade's client in service mode), never the
   * credentials themselves.
   */
  caller: string;
  /** calls made by this session so far */
  calls: CallCounter;
  /** true in forward mode: the caller's own token is used for the current API */
  forwarded: boolean;
  /** DIRECTORY_FORWARD_LEGACY_WRITES: who may use the legacy writes in forward mode */
  forwardLegacyWrites: "none" | "readers";
  /** this request's loaders (`LoaderRegistry` of loaders.ts); they live and die with the session */
  loaders: LoaderScope;
  /** at most this many upstream requests of the session are in flight at once (config.concurrency) */
  concurrency: number;
  /** signs and checks this subgraph's connection cursors (one key per process or deployment) */
  cursors: CursorSigner;
  /** the request's deadline in ms from its receipt (the gateway's `x-deadline-ms`, at most the configured maximum) */
  deadlineMs: number;
  /**
   * Runs a read-merge-write of one record (`timeentries/42`) while no other write of the facade,
   * on any replica, holds it (record-leases.ts); the reads it makes join no read that started
   * before it held the record.
   */
  serialise<T>(record: string, write: () => Promise<T>): Promise<T>;
}

/** HMAC of a cursor's payload with the configured key. */
export interface CursorSigner {
  sign(payload: string): string;
  verify(payload: string, signature: string): boolean;
}

/** A per-request memo of loaders: `get` creates a loader on first use of `key`. */
export interface LoaderScope {
  get<T>(key: string, create: () => T): T;
  /** drops the loaders whose key starts with `prefix` (what a write made stale); the next `get` creates them afresh */
  forget(prefix: string): void;
}

export interface SessionOptions {
  /** the caller's `Authorization` header (used in forward mode) */
  authorization?: string;
  /** ms the caller allows (the gateway's `x-deadline-ms`); clamped to the configured maximum */
  deadlineMs?: number;
  /** the facade's own work, not a caller's: it takes the request budget's background share (pacer.ts) */
  background?: boolean;
}

/** One upstream HTTP attempt, for logs and metrics. */
export interface UpstreamCallEvent {
  api: "current" | "legacy" | "token";
  method: string;
  /** `GET /service-api/employees/{id}` */
  route: string;
  /** null: no answer (timeout or connection failure) */
  status: number | null;
  /** 1 for the first attempt of a request, 2 for its first retry, ... */
  attempt: number;
  durationMs: number;
  /** the answer was a 304 and the cached body was served */
  notModified: boolean;
  /** timeout or network error code when status is null */
  failure?: string;
}

export type UpstreamCallListener = (event: UpstreamCallEvent) => void;
