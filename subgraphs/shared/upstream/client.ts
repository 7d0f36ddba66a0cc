import { randomBytes, randomUUID } from "node:crypto";
import type { Response } from "got";
import { GraphQLError } from "graphql";
import type { Readiness } from "../../../platform/readiness.js";
import { CurrentApiClient, LegacyApiClient, type RequestSpec, type SessionTransport } from "./apis.js";
import { UpstreamBreakers } from "./breakers.js";
import { UpstreamBudget } from "./budget.js";
import { cursorSigner } from "./cursor-signer.js";
import { CURRENT_PREFIX, type UpstreamConfig } from "./config.js";
import { API_VERSION, UpstreamCredentials } from "./credentials.js";
import { EtagCache, familyOf, type CachedBody } from "./etag-cache.js";
import { createChangeFeed, type ChangeFeed, type DirectoryChange } from "../events/index.js";
import { ReferenceCache } from "./reference-cache.js";
import { ErrorCode } from "../../../platform/error-codes.js";
import { UpstreamError, deadlineExceeded } from "./errors.js";
import { InFlight } from "../../../platform/inflight.js";
import { LoaderRegistry } from "./loaders.js";
import { attemptTimeout, classifyFailure, parseRetryAfter, retryDelay, writeOutcomeUnknown, type AttemptOutcome } from "./retry.js";
import type { CallCounter, CursorSigner, QueryParams, SessionOptions, UpstreamCallListener, UpstreamSession } from "./types.js";
import { Limiter, sleep } from "./util.js";
import { RecordLeases } from "./record-leases.js";
import { retrying } from "./observe.js";
import { routeOf } from "./routes.js";
import { UpstreamTransport, header, httpError, type StreamedAnswer } from "./transport.js";
import type { FileTarget } from "../../../platform/file-links.js";
import { processMetrics } from "../../../platform/metrics.js";
import { currentRequestId } from "../../../platform/request-scope.js";
import { REQUEST_ID_HEADER } from "../../../platform/headers.js";
import { Logger } from "../../../platform/log.js";
import type { RefusedTokens } from "../../../platform/refused-tokens.js";
import { SharedState } from "../../../platform/shared-state.js";
import type { SessionState } from "./session-state.js";

/**
 * The one HTTP access layer to both APIs of the directory service.
 *
 * - got with keep-alive agents owned by the transport (transport.ts, closed by `close()`); no got
 *   retries, no got cache: every attempt goes through its `attempt()`, the one place where an
 *   attempt is counted (on the session, which the budget and the operation log read, and on the
 *   process totals) and reported (the metrics, the span, the `onCall` listeners).
 * - Retries, as the pure policy of retry.ts decides them: reads on 429, 5xx gateways, timeouts and
 *   connection failures; writes only when they provably never left this process. Every attempt's
 *   timeout is its share of what is left of the request's deadline (`x-deadline-ms`, at most
 *   `deadlineMs`), so a hung request costs a fraction of the deadline and retries never make the
 *   caller wait longer than it. Past the deadline: DEADLINE_EXCEEDED.
 * - The APIs a session sees are apis.ts's classes; the service-mode token is token.ts's, the
 *   forwarded caller's checks credentials.ts's.
 * - A circuit breaker per API (cockatiel, breakers.ts): after `breakerFailures` requests in a row failed with a
 *   5xx, a timeout or a connection failure, that API is not called for `breakerOpenMs`. Only the
 *   upstream's own failures count: no caller can open it with bad requests (4xx).
 * - A budget of upstream calls per session (`callBudget`, budget.ts): the attempt beyond it is not
 *   made, the operation gets UPSTREAM_BUDGET_EXCEEDED.
 * - Conditional GETs through one ETag cache (etag-cache.ts), whose keys start with the caller's
 *   identity, so that no caller is ever answered from another caller's entry.
 * - Every attempt is counted in the process's metrics and, when tracing is on, is a client span
 *   whose context the request carries (`traceparent`); retries and refusals are span events
 *   (observe.ts). The request id of the subgraph request goes along in `x-request-id`.
 * - With REDIS_URL (platform/shared-state.ts) the replicas share the ETag cache, the upstream
 *   request budget (DIRECTORY_REQUEST_BUDGET, pacer.ts) and the tokens the directory refused
 *   (platform/refused-tokens.ts); each falls back to its in-process form while Redis is down.
 */

export { API_VERSION };


/** One logical request's progress through its attempts (sendWithRetries). */
interface Attempts {
  headers: Record<string, string>;
  /** the service token sent, if any */
  token: string | null;
  cache: EtagCache | null;
  cacheKey: string;
  /** a PUT replaces the whole entity (the legacy writes): retried like a read; a POST never is (retry.ts) */
  idempotent: boolean;
  write: boolean;
  /**
   * an attempt of this write may have been applied without us knowing (no answer after it was
   * sent, or a proxy's 502/504): if no later attempt settles it, the outcome stays unknown
   */
  mayHaveApplied: boolean;
  retriesLeft: number;
  refreshed: boolean;
  attemptNo: number;
  /** the change counter (`Upstream.changesHeard`) when the request started: its answer is holdable only if no change came in between */
  changesAtStart: number;
}

/** What one attempt decided: the request's result, or another attempt. */
type Step<T> = { done: T | null } | "again";

/**
 * The facade the subgraphs use: sessions, the caller check, readiness. Its collaborators each
 * carry one concern: the transport (transport.ts), the credentials (credentials.ts), the
 * conditional-request cache (etag-cache.ts), the budget (budget.ts), the breakers (breakers.ts) and
 * the cursor signer (cursor-signer.ts); here are the deduplication of reads and the retry loop.
 */
export class Upstream {
  readonly config: UpstreamConfig;
  /** signs connection cursors with the configured key (or a random one for this process) */
  readonly cursors: CursorSigner;
  /** Redis when configured (REDIS_URL), else nothing shared */
  readonly shared: SharedState;
  /**
   * identical GETs in flight for one caller identity, made once; each joiner gets its own copy of
   * the body, and a budget or deadline error stays its session's
   */
  readonly inflight = new InFlight<unknown>((err) => err instanceof GraphQLError, (body) => structuredClone(body));

  private readonly transport: UpstreamTransport;
  private readonly credentials: UpstreamCredentials;
  private readonly budget: UpstreamBudget;
  /** the last 200 with an ETag per caller and URL; null when disabled */
  private readonly etags: EtagCache | null;
  /** stops the metrics' scrape of the cache and breakers */
  private readonly unwatch: () => void;
  private readonly base: URL;
  /** one breaker per API; none when `breakerFailures` is 0 */
  private readonly breakers: UpstreamBreakers;
  /** one read-merge-write at a time per record, across replicas with Redis */
  private readonly leases: RecordLeases;
  /** the directory's changes as this process hears them (subgraphs/shared/events) */
  readonly changes: ChangeFeed;
  /** reference data held warm for DIRECTORY_REFERENCE_FRESH_S (reference-cache.ts) */
  readonly references: ReferenceCache;
  /** until when (`Date.now()`) the ingestion vouches that every change is heard (`eventPathHeard`, `eventPathLost`) */
  private eventsHeardUntil = Number.NEGATIVE_INFINITY;
  /** every change heard on the feed, and every write through this client, bumps it (`holding`'s condition on an entry's request) */
  private changesHeard = 0;

  constructor(config: UpstreamConfig, logger: Logger = new Logger("upstream")) {
    this.config = Object.freeze({ ...config });
    this.shared = new SharedState(config.shared ?? { url: null, prefix: "", timeoutMs: 200 }, logger);
    this.leases = new RecordLeases(this.shared);
    this.budget = new UpstreamBudget(this.config, this.shared);
    this.base = new URL(config.baseUrl.replace(/\/+$/, ""));
    // a list read like any other, so asked with its links (CurrentApiClient.page), though the check follows no `next`
    const probe = (): RequestSpec => ({ api: "current", method: "GET", ...this.target("/service-api/employees", { limit: 1, include: "links" }) });
    this.credentials = new UpstreamCredentials(this.config, this.shared, new URL(config.tokenUrl).pathname, (state, spec) => this.sendDeduplicated(state, spec), probe);
    this.cursors = cursorSigner(config.cursorSecret ?? randomBytes(32).toString("hex"));
    this.breakers = new UpstreamBreakers(this.config);
    this.etags = config.etagCacheSize > 0 ? new EtagCache(config.etagCacheSize, config.etagCacheBytes, this.shared, config.etagCacheTtlSeconds) : null;
    this.unwatch = processMetrics().watchUpstream({
      etagEntries: () => this.etags?.size ?? 0,
      etagBytes: () => this.etags?.bytes ?? 0,
      heldEntries: () => this.references.size,
      heldBytes: () => this.references.bytes,
      breakers: () => this.breakers.metricStates(),
      budget: () => {
        const requests = this.budget.requests;
        if (requests === null) return null;
        return Object.fromEntries((["interactive", "background"] as const).map((share) => [share, { used: requests.used(share), limit: requests.limitOf(share) }]));
      },
    });
    this.transport = new UpstreamTransport(this.config, this.budget, logger);
    this.changes = createChangeFeed(this.shared, logger);
    // a change drops what this client holds of the changed resource, on every replica the feed reaches
    this.changes.listen((change) => {
      this.changesHeard++;
      void this.forget(change);
    });
    this.references = new ReferenceCache(this.config.referenceFreshMs ?? 0, this.changes, undefined, this.config.legacyTimeFreshMs ?? 0, this.config.heldBytes);
  }

  /** process-wide counters of every attempt (including token requests and 304s) */
  get totals(): CallCounter & { notModified: number } {
    return this.transport.totals;
  }

  /** forward mode: the tokens the directory refused with 401, refused without calling again */
  get refusedTokens(): RefusedTokens {
    return this.credentials.refusedTokens;
  }

  /** Subscribes to every upstream attempt; returns the unsubscribe function. */
  onCall(listener: UpstreamCallListener): () => void {
    return this.transport.onCall(listener);
  }

  /**
   * Forgets what this client holds of a changed resource (a DirectoryChange heard on its change
   * feed, `changes`): its ETag entries, here and on Redis. The loaders are
   * per operation (an operation's scope ends with it), so nothing else outlives a change.
   */
  async forget(change: { resource: { type: string; id: string } }): Promise<void> {
    await this.etags?.forgetChanged(change.resource.type, change.resource.id);
  }

  /**
   * Held reads (docs/shared-state.md#what-is-held-and-how-fresh): the ingestion vouches that the
   * event path is healthy for the next `forMs` (a poll pass that succeeded: 3 × DIRECTORY_EVENTS_POLL_MS
   * + 1 s; the webhook endpoint read active, or a delivery taken in: until the next check of the
   * endpoint), and `holding` is on meanwhile.
   */
  eventPathHeard(forMs: number): void {
    this.eventsHeardUntil = Math.max(this.eventsHeardUntil, Date.now() + forMs);
  }

  /** The ingestion knows a change may be missed (a pass failed, the endpoint is not active, a delivery was not published): nothing is held until it vouches again. */
  eventPathLost(): void {
    this.eventsHeardUntil = Number.NEGATIVE_INFINITY;
  }

  /** whether held reads are configured at all: DIRECTORY_HELD_FRESH_S above 0, the facade's own identity (forward mode never holds), events on */
  private get holdingConfigured(): boolean {
    return (this.config.heldFreshMs ?? 0) > 0 && this.config.auth !== "forward" && this.etags !== null && this.config.events !== undefined && this.config.events.mode !== "off";
  }

  /**
   * Whether an ETag entry of an event-tagged read may be served without a request now: held reads
   * configured, the ingestion's word that the event path is healthy still good (`eventPathHeard`),
   * and the change feed hearing the other replicas (a replica cut from Redis would miss the changes
   * another one took in). Each entry is then checked by `EtagCache.held` (its age, and no change
   * heard while its request was in flight).
   */
  get holding(): boolean {
    return this.holdingConfigured && Date.now() <= this.eventsHeardUntil && this.changes.hearing();
  }

  /** The body of a read served from a held entry, or null: the read goes upstream (counted in `upstream_held_reads_total`). */
  private heldRead<T>(state: SessionState, spec: RequestSpec): { body: T } | null {
    if (spec.api === "token" || !this.holdingConfigured) return null;
    const type = familyOf(spec.url);
    if (type === null) return null;
    const count = (result: string) => processMetrics().upstreamHeldReads.inc({ type, result });
    if (!this.holding) return count("refused_events_silent"), null;
    const found = this.etags!.held(EtagCache.key(state.identity, spec.method, spec.url), this.config.heldFreshMs!);
    if ("refused" in found) return count(`refused_${found.refused}`), null;
    count("served");
    return { body: parseJson<T>(found.body.text, spec) };
  }

  /** One session per GraphQL request. */
  session(options: SessionOptions = {}): UpstreamSession {
    const state = this.sessionState(options);
    const { identity, deadlineMs } = state;
    const transport: SessionTransport = {
      send: (spec) => this.sendDeduplicated(state, spec),
      target: (path, query) => this.target(path, query),
      followHref: (href, from) => this.followHref(href, from),
      concurrency: this.config.concurrency,
    };
    return {
      current: new CurrentApiClient(transport),
      legacy: new LegacyApiClient(transport),
      caller: UpstreamCredentials.callerOf(identity),
      calls: state.calls,
      forwarded: this.config.auth === "forward",
      forwardLegacyWrites: this.config.forwardLegacyWrites,
      loaders: new LoaderRegistry(),
      concurrency: this.config.concurrency,
      cursors: this.cursors,
      deadlineMs,
      serialise: (record, write) =>
        this.leases.hold(record, deadlineMs, async () => {
          // a read in flight here may have started before the last write of this record (another replica's)
          this.inflight.forget();
          // and the merge reads what the directory holds now: nothing held answers it (`sendDeduplicated`)
          state.writing = (state.writing ?? 0) + 1;
          try {
            return await write();
          } finally {
            state.writing--;
          }
        }),
    };
  }

  /**
   * Forward mode: whether the directory knows the caller's token, for the gateway's check of a
   * token it has not seen (docs/security.md#unverified-tokens); credentials.ts.
   */
  verifyCaller(authorization: string | undefined): Promise<"accepted" | "refused" | "unknown"> {
    if (this.config.auth !== "forward") return Promise.resolve("unknown");
    return this.credentials.verify(this.sessionState({ authorization }));
  }

  private sessionState(options: SessionOptions): SessionState {
    return {
      calls: { total: 0, byRoute: {} },
      ...this.credentials.identityOf(options.authorization),
      limiter: new Limiter(this.config.concurrency),
      ...this.budget.deadlineOf(options.deadlineMs),
      ...(options.background ? { background: true } : {}),
    };
  }

  // ---- files (docs/security.md#file-links) ----

  /**
   * The path below the base (query kept) of a file address the upstream gave (`links.portrait`),
   * for a file link to seal; null when it is not on the upstream's origin.
   */
  filePath(href: string): string | null {
    let url: URL;
    try {
      url = new URL(href, `${this.base.href.replace(/\/+$/, "")}/`);
    } catch {
      return null;
    }
    if (url.origin !== this.base.origin) return null;
    const prefix = this.base.pathname.replace(/\/+$/, "");
    const path = prefix !== "" && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
    return `${path}${url.search}`;
  }

  /**
   * A file's bytes from the upstream, streamed, for an opened file link (platform/file-links.ts):
   * one attempt, counted as any other. A `tokened` address is read as the upstream gave it, without
   * credentials (its token is the right to it); a current-API file with the service token, or in
   * forward mode the caller's own (`authorization`: none, none is sent, and the directory refuses);
   * a legacy file with the API key, the link having been minted only for a caller who could read
   * its employee.
   */
  async file(target: FileTarget, authorization: string | undefined, conditional: Record<string, string> = {}): Promise<StreamedAnswer> {
    const path = target.kind === "tokened" ? target.path : target.kind === "current" ? `/service-api/files/${encodeURIComponent(target.id)}` : `/api/v3/files/${encodeURIComponent(target.id)}`;
    // the client's If-None-Match/If-Modified-Since: the upstream's 304 goes back as it is
    const headers: Record<string, string> = { ...conditional, accept: "*/*" };
    if (target.kind === "current") {
      headers["api-version"] = API_VERSION;
      const caller = this.config.auth === "forward" ? authorization : `Bearer ${await this.credentials.token(this.sessionState({}))}`;
      if (caller) headers.authorization = caller;
    }
    if (target.kind === "legacy") headers.authorization = `${this.config.legacyAuthScheme ?? "service"} application=${this.config.apiKey ?? ""}`;
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    return this.transport.stream(`${this.base.href.replace(/\/+$/, "")}${path}`, path.replace(/\?.*$/, ""), headers);
  }

  async close(): Promise<void> {
    this.unwatch();
    this.references.close();
    this.transport.close();
    await this.changes.close();
    await this.shared.close();
  }

  // ---- request targets ----

  private target(path: string, query?: QueryParams): { path: string; url: string } {
    const qs = buildQuery(query, { allowEmbedded: embeddable(path) });
    return { path, url: `${this.base.href.replace(/\/+$/, "")}${path}${qs ? `?${qs}` : ""}` };
  }

  /**
   * A `links.next.href` as a request target. Only hrefs on the configured upstream's origin are
   * followed, so the bearer token is never sent to another host named in a response.
   */
  private followHref(href: string, from: string): { path: string; url: string } {
    let url: URL;
    try {
      url = new URL(href, this.base);
    } catch {
      throw new Error(`GET ${from}: links.next is not a URL`);
    }
    if (url.origin !== this.base.origin) throw new Error(`GET ${from}: links.next points to another origin`);
    const prefix = this.base.pathname.replace(/\/+$/, "");
    const onBase = prefix !== "" && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
    // the directory's links name its own prefix (DIRECTORY_API_PREFIX); the facade names it `/service-api` (transport.ts `wire`)
    const wirePrefix = this.config.apiPrefix ?? CURRENT_PREFIX;
    const path = wirePrefix !== CURRENT_PREFIX && (onBase === wirePrefix || onBase.startsWith(`${wirePrefix}/`)) ? `${CURRENT_PREFIX}${onBase.slice(wirePrefix.length)}` : onBase;
    return this.target(path, Object.fromEntries(url.searchParams));
  }

  // ---- sending ----

  /** One logical request; a read joins the identical read of the same identity in flight (inflight.ts). */
  private sendDeduplicated<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    if (spec.method !== "GET") return this.sendWrite<T>(state, spec);
    const key = `${state.identity} ${spec.api} ${spec.nullOn404 ? "null-on-404" : "throw-on-404"} ${spec.url}`;
    const send = () => this.inflight.run(key, () => this.sendThroughBreaker<T>(state, spec)) as Promise<T | null>;
    // a write's read-merge: from the directory, never from what is held (a merge of a stale copy would undo another's change)
    if (state.writing) return send();
    const held = this.heldRead<T>(state, spec);
    if (held !== null) return Promise.resolve(held.body);
    const collection = ReferenceCache.collectionOf(spec.api, spec.method, spec.path);
    if (collection === null) return send();
    // the revalidation of a held entry is the facade's own work: the budget's background share, as the caller's identity
    const refresh = () => {
      const background = this.sessionState({ authorization: state.authorization ?? undefined, background: true });
      return this.inflight.run(key, () => this.sendThroughBreaker<T>(background, spec)) as Promise<T | null>;
    };
    return this.references.read(key, collection, send, refresh);
  }

  /**
   * A write, read-your-writes: no read asked after it joins one that started before it, none is
   * answered from reference data held before it (reference-cache.ts), and none from an ETag entry
   * of the written record's family held before it (etag-cache.ts `forgetWritten`; the change
   * counter bumped, so that no read in flight across it is held either). Before and after it.
   */
  private async sendWrite<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const written = ReferenceCache.writtenBy(spec.api, spec.path);
    const forget = async () => {
      this.inflight.forget();
      for (const collection of written.collections) this.references.drop(collection);
      if (spec.api === "token") return;
      this.changesHeard++;
      await this.etags?.forgetWritten(spec.url);
    };
    await forget();
    try {
      return await this.sendThroughBreaker<T>(state, spec);
    } finally {
      await forget();
      if (written.type !== null) await this.changes.publish(this.writtenChange(written.type, spec.path));
    }
  }

  /**
   * A write of ours to the legacy time data, which the directory reports by no event, as a change
   * on the feed: the other replicas drop what they hold of it (reference-cache.ts `DROPPED_BY`).
   * Its type is no subscription's (changes.ts), and its id is ours, never a directory event's.
   */
  private writtenChange(type: string, path: string): DirectoryChange {
    const id = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
    return { id: `facade-write:${randomUUID()}`, topic: `${type}.updated`, occurredAt: new Date().toISOString(), resource: { type, id }, establishmentIds: [], previousAttributes: null };
  }

  /** One logical request through its API's circuit breaker (breakers.ts). */
  private sendThroughBreaker<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    return this.breakers.run(spec, () => this.sendWithRetries<T>(state, spec));
  }

  /** One logical request: authentication, retries, conditional GET, error mapping. */
  private async sendWithRetries<T>(state: SessionState, spec: RequestSpec): Promise<T | null> {
    const changesAtStart = this.changesHeard;
    const run = { ...(await this.prepare(state, spec)), changesAtStart };
    for (;;) {
      run.attemptNo++;
      const cached = await run.cache?.get(run.cacheKey);
      const step = await this.attemptOnce<T>(state, spec, run, cached);
      if (step !== "again") return step.done;
    }
  }

  /** The headers and retry state of a new logical request, authenticated (credentials.ts). */
  private async prepare(state: SessionState, spec: RequestSpec): Promise<Omit<Attempts, "changesAtStart">> {
    const headers: Record<string, string> = { accept: "application/json" };
    const requestId = currentRequestId();
    if (requestId !== undefined) headers[REQUEST_ID_HEADER] = requestId;
    const token = await this.credentials.authorize(state, spec, headers);
    return {
      headers,
      token,
      cache: spec.method === "GET" && spec.api !== "token" ? this.etags : null,
      cacheKey: EtagCache.key(state.identity, spec.method, spec.url),
      idempotent: spec.method === "GET" || spec.method === "PUT" || spec.api === "token",
      write: spec.method !== "GET" && spec.api !== "token",
      mayHaveApplied: false,
      retriesLeft: this.config.retries,
      refreshed: false,
      attemptNo: 0,
    };
  }

  /** One attempt, conditional when the cache holds the URL, and what its answer or failure decides. */
  private async attemptOnce<T>(state: SessionState, spec: RequestSpec, run: Attempts, cached: CachedBody | undefined): Promise<Step<T>> {
    const headers = cached ? { ...run.headers, "if-none-match": cached.etag } : run.headers;
    const timeoutFor = (leftMs: number) => attemptTimeout(leftMs, { idempotent: run.idempotent, retriesLeft: run.retriesLeft }, this.config.timeoutMs);
    let response: Response<string>;
    try {
      response = await this.transport.attempt(state, spec, headers, run.attemptNo, spec.api === "token" ? null : state.limiter, timeoutFor);
    } catch (err) {
      return this.afterFailure(state, spec, run, err);
    }
    return this.afterAnswer<T>(state, spec, run, response, cached);
  }

  /** An attempt that got no answer (or was not made): retried, or the request's error. */
  private async afterFailure(state: SessionState, spec: RequestSpec, run: Attempts, err: unknown): Promise<"again"> {
    // the deadline or budget stopped a retry of a write an earlier attempt may have applied
    if (err instanceof GraphQLError) throw run.mayHaveApplied ? outcomeUnknownError(spec) : err;
    const failure = classifyFailure(err);
    if (run.write && !failure.notSent) run.mayHaveApplied = true;
    if (await this.retried(state, spec, run, { failure }, failure.summary)) return "again";
    // a write that may have reached the upstream and got no answer: applied or not, nobody
    // knows, whatever cut it off (the deadline included)
    const outcomeUnknown = run.mayHaveApplied;
    if (!outcomeUnknown && failure.reason === "timeout" && this.budget.msLeft(state) <= 0) throw deadlineExceeded(state.deadlineMs);
    throw new UpstreamError({
      method: spec.method,
      path: spec.path,
      status: null,
      reason: failure.reason,
      summary: failure.summary,
      ...(outcomeUnknown ? { code: ErrorCode.WRITE_OUTCOME_UNKNOWN } : {}),
    });
  }

  /** An answer: the body (or the cached one on a 304), null on an allowed 404, a retry, or the request's error. */
  private async afterAnswer<T>(state: SessionState, spec: RequestSpec, run: Attempts, response: Response<string>, cached: CachedBody | undefined): Promise<Step<T>> {
    const status = response.statusCode;
    // a 304 answers the validator sent with this very attempt; one without a validator is an
    // upstream fault and falls through to the error below
    if (spec.api === "current" && (status === 304 || (status >= 200 && status < 300))) await this.credentials.answered(state, spec, status);
    // no change heard since the request started: the answer may be held (`holding`)
    const holdable = this.changesHeard === run.changesAtStart;
    if (status === 304 && cached) {
      run.cache?.revalidated(run.cacheKey, cached, holdable);
      return { done: parseJson<T>(cached.text, spec) };
    }
    if (status >= 200 && status < 300) {
      await run.cache?.remember(run.cacheKey, header(response, "etag"), response.body, holdable);
      return { done: parseJson<T>(response.body, spec, status) };
    }
    await run.cache?.forget(run.cacheKey);
    if (status === 404 && spec.nullOn404) return { done: null };
    if (status === 401) await this.credentials.answered(state, spec, status);
    if (status === 401 && run.token !== null && !run.refreshed) {
      // the token may have expired early or been revoked: one fresh token, one more try
      run.refreshed = true;
      run.token = await this.credentials.refresh(state, run.token, run.headers);
      return "again";
    }
    if (run.write && writeOutcomeUnknown(status)) run.mayHaveApplied = true;
    const retryAfter = status === 429 ? parseRetryAfter(header(response, "retry-after")) : undefined;
    // the directory's count is the truth: every caller waits until it frees a slot
    if (status === 429) await this.budget.hold(retryAfter);
    if (await this.retried(state, spec, run, { status, retryAfter }, String(status))) return "again";
    throw httpError(spec, response, retryAfter, run.mayHaveApplied);
  }

  /** Waits and returns true when the policy (retry.ts) retries after this outcome. */
  private async retried(state: SessionState, spec: RequestSpec, run: Attempts, outcome: AttemptOutcome, cause: string): Promise<boolean> {
    // a page the caller asks again smaller (apis.ts `iterate`)
    if (spec.smallerOn408 && "status" in outcome && outcome.status === 408) return false;
    const policy = { retries: this.config.retries, maxRetryAfterSeconds: this.config.maxRetryAfterSeconds, retryBaseDelayMs: this.config.retryBaseDelayMs ?? 100 };
    const delay = retryDelay(outcome, { idempotent: run.idempotent, retriesLeft: run.retriesLeft, leftMs: this.budget.msLeft(state) }, policy);
    if (delay === null) return false;
    retrying({ api: spec.api, method: spec.method, route: routeOf(spec.method, spec.path) }, run.attemptNo + 1, delay, cause);
    await sleep(delay);
    run.retriesLeft--;
    return true;
  }

  /**
   * `/ready`'s check (platform/readiness.ts): no breaker open, and the token endpoint answers
   * (transport.ts's probe, in either auth mode, around the breakers, the retries and the counters).
   */
  async readiness(): Promise<Readiness> {
    const breakers = this.breakers.readinessStates();
    const token = await this.transport.probeToken();
    const ready = token === "ok" && Object.values(breakers).every((state) => state !== "open");
    return { ready, checks: { token, ...(Object.keys(breakers).length > 0 ? { breakers } : {}) } };
  }
}

// ---- helpers ----

/** A write an earlier attempt may have applied, stopped before any attempt settled it. */
function outcomeUnknownError(spec: RequestSpec): UpstreamError {
  return new UpstreamError({ code: ErrorCode.WRITE_OUTCOME_UNKNOWN, method: spec.method, path: spec.path, status: null, reason: "timeout", summary: "retry stopped" });
}

/**
 * The reads that may ask `include=embedded` (docs/performance.md#batching-rules): employee-attribute
 * definitions exist only embedded in attribute lists; an employee list's embedded job positions
 * and employments, and an establishment's embedded legal entity, prime the loaders of their type
 * (subgraphs/shared/graphql/embedded.ts). Lists and their single reads.
 */
const EMBEDDED_SOURCES = ["/service-api/employee-attributes", "/service-api/employees", "/service-api/business-establishments"];
const embeddable = (path: string) => EMBEDDED_SOURCES.some((source) => path === source || (path.startsWith(`${source}/`) && !path.slice(source.length + 1).includes("/")));

/**
 * Arrays comma-joined, null/undefined left out, `embedded` never requested (docs/performance.md#batching-rules) unless
 * `allowEmbedded` (the read is one of EMBEDDED_SOURCES).
 */
export function buildQuery(query?: QueryParams, options: { allowEmbedded?: boolean } = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    let text: string;
    if (Array.isArray(value)) {
      if (value.length === 0) throw new TypeError(`query parameter ${name} is an empty list`);
      text = value.join(",");
    } else text = String(value);
    if (name === "include" && !options.allowEmbedded) {
      text = text
        .split(",")
        .filter((v) => v.trim() !== "embedded")
        .join(",");
      if (text === "") continue;
    }
    params.set(name, text);
  }
  return params.toString();
}

function parseJson<T>(text: string, spec: RequestSpec, status = 200): T {
  if (text === "") return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UpstreamError({ method: spec.method, path: spec.path, status, reason: "http", summary: "with a body that is not JSON" });
  }
}
