import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { SpanStatusCode } from "@opentelemetry/api";
import { LRUCache } from "lru-cache";
import { BodyTooLargeError, readBody, sendJson } from "../../../platform/http.js";
import type { Logger } from "../../../platform/log.js";
import { processMetrics } from "../../../platform/metrics.js";
import { tracer } from "../../../platform/request-scope.js";
import { API_VERSION } from "../upstream/credentials.js";
import { UpstreamError } from "../upstream/errors.js";
import type { Upstream } from "../upstream/index.js";
import type { CurrentApi, Envelope } from "../upstream/types.js";
import type { EventsConfig } from "./config.js";
import type { ChangeFeed, DirectoryChange } from "./feed.js";

/**
 * The ingestion of the directory's events (docs/shared-state.md#directory-events): every event
 * becomes at most one DirectoryChange published on the process's change feed, whose listeners on
 * every replica (caches, subscriptions) hear it.
 *
 * - **webhook**: declares DIRECTORY_EVENTS_PUBLIC_URL at the directory (`POST /webhook-endpoints`,
 *   every change topic) and answers its activation GET (`?echo=`, the value back as text/plain).
 *   The secret is the one the registration answered, kept with the endpoint's id on Redis so that
 *   every replica verifies with it (in process without REDIS_URL), or DIRECTORY_EVENTS_SECRET when
 *   a deployment declared the endpoint itself. Each delivery is verified (`Lucca-Signature`, the
 *   base64 HMAC-SHA256 of `<Lucca-Timestamp>.<raw body>`; the timestamp within 5 minutes: else
 *   401), one that is no event is answered 400 (the directory tries it again; nothing is marked
 *   delivered that was not read), and one is acknowledged (202) once published: a claim of its
 *   event id and a publish, each bounded by REDIS_TIMEOUT_MS; a second delivery of the same event
 *   is acknowledged without publishing again. One that could not be published is answered 503 with
 *   its claim released, so the directory's retry brings it again: none is lost. Every
 *   ENDPOINT_CHECK_MS the endpoint's status is read; a suspended one is declared again.
 * - **poll**: reads `GET /events` page after page with the cursors of `links.next` from a resume
 *   position kept on Redis (in process without REDIS_URL), one replica at a time (the write lease
 *   of the `directory-events` record).
 *
 * Either way an event is handled once per deployment: its id is claimed with `SET NX` on Redis (in
 * process without it) before it is published. What Redis answers is checked (a position that is
 * not one we write is none).
 */

/** change topics the facade registers for: the employee's, and the reference data's (which drop the reference cache); `ping` is the directory's own */
export const CHANGE_TOPICS: readonly string[] = [
  "employee",
  "employment",
  "job-position",
  "employee-extension",
  "department",
  "business-establishment",
  "legal-entity",
  "job-qualification",
  "occupation-category",
].flatMap((r) => [
  `${r}.created`,
  `${r}.updated`,
  `${r}.deleted`,
]);

/** how long an event id is remembered as handled */
const SEEN_TTL_S = 7 * 86_400;
/** how far a delivery's `Lucca-Timestamp` may be from now */
const TIMESTAMP_TOLERANCE_MS = 5 * 60_000;
/** how often the endpoint's status is read (a suspended endpoint is declared again): one request in 5 minutes */
const ENDPOINT_CHECK_MS = 5 * 60_000;
/**
 * how long the endpoint read active, or a delivery taken in, vouches for the event path (held
 * reads, client.ts `holding`): until the next check, with a minute for it to be answered
 */
const WEBHOOK_HEARD_MS = ENDPOINT_CHECK_MS + 60_000;
/** the record whose lease makes one replica declare the endpoint at a time */
const ENDPOINT_RECORD = "directory-events/endpoint";
/** where the endpoint's id and secret are kept for every replica */
const ENDPOINT_KEY = "events:endpoint";
/** most events one poll pass takes in (then it goes on at once) */
const PASS_MAX = 1000;
/** the pause between two registrations the directory did not take */
const REGISTER_RETRY_MS = 5000;
/** the event and message ids each in-process dedupe cache keeps at most (without Redis) */
export const LOCAL_DEDUPE_KEYS = 100_000;

/** the record whose lease makes one replica poll at a time */
const POLL_RECORD = "directory-events/poll";
/** where the resume position is kept for every replica */
const POSITION_KEY = "events:position";
/** the events one page read asks for: production's largest page */
const EVENTS_PAGE = 100;
/**
 * how long the resume position outlives the last pass that wrote it: the directory keeps its
 * events 2 months, after which a position points at nothing left to read (62 days: two long months)
 */
export const POSITION_TTL_S = 62 * 86_400;

/**
 * Where the poll resumes: the cursor of the page it reads (null: the first page) and the id of the
 * last event taken in (null: none), the events of that page up to it being skipped.
 */
interface Position {
  page: string | null;
  last: string | null;
}

type Mode = "webhook" | "poll";
type Outcome = "received" | "duplicate" | "ignored" | "refused_signature" | "refused_malformed";

/** The endpoint the deliveries come to: its id at the directory (null: declared by the deployment) and the secret they are signed with. */
interface Endpoint {
  id: string | null;
  secret: string;
}

export class EventIngestion {
  // bounded by maxSize (one a key) rather than max: lru-cache preallocates its index arrays for `max` entries, megabytes for an empty cache
  private readonly localSeen = new LRUCache<string, true>({ maxSize: LOCAL_DEDUPE_KEYS, sizeCalculation: () => 1, ttl: SEEN_TTL_S * 1000 });
  /** the endpoint as this replica last knew it (without Redis: the only copy) */
  private endpoint: Endpoint | null = null;
  /** the resume position without Redis (or while it does not answer) */
  private localPosition: Position | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private pollFailing = false;

  constructor(
    private readonly upstream: Upstream,
    private readonly feed: ChangeFeed,
    readonly config: EventsConfig,
    private readonly logger: Logger,
  ) {
    if (config.secret !== null) this.endpoint = { id: null, secret: config.secret };
  }

  /**
   * webhook: registers the endpoint (its challenge is answered by `receive`), again every
   * REGISTER_RETRY_MS until the directory has taken it (a directory down at start-up does not keep
   * the subgraph from serving); poll: starts reading.
   */
  async start(): Promise<void> {
    if (this.config.mode === "webhook") this.loop = this.registerLoop();
    else if (this.config.mode === "poll") this.loop = this.pollLoop();
  }

  private async registerLoop(): Promise<void> {
    if (this.config.secret !== null) return void this.logger.info("events endpoint declared by the deployment: verifying with DIRECTORY_EVENTS_SECRET");
    let warned = false;
    let announced: string | null = null;
    while (!this.stopped) {
      let wait = REGISTER_RETRY_MS;
      try {
        const status = await this.ensureEndpoint();
        if (status === "active") {
          this.upstream.eventPathHeard(WEBHOOK_HEARD_MS);
          if (this.endpoint?.id !== announced) this.logger.info("events endpoint active", { endpoint: this.endpoint?.id });
          announced = this.endpoint?.id ?? null;
          warned = false;
          wait = ENDPOINT_CHECK_MS;
        } else {
          // a suspended or pending endpoint hears nothing: nothing is held
          this.upstream.eventPathLost();
          if (!warned) this.logger.warn("the directory did not activate the events endpoint: its activation GET did not come back through DIRECTORY_EVENTS_PUBLIC_URL", { status });
          warned = true;
        }
      } catch (err) {
        this.upstream.eventPathLost();
        if (!warned) this.logger.warn("declaring the events endpoint failed; trying again", { error: (err as Error).message.slice(0, 200) });
        warned = true;
      }
      await this.pause(wait);
    }
  }

  /**
   * The endpoint, active: the one kept (Redis, else this process) when the directory still has it
   * active, else a new one declared, its secret kept. One replica at a time (the lease of
   * ENDPOINT_RECORD). Answers the status of the endpoint kept.
   */
  async ensureEndpoint(): Promise<string> {
    const session = this.upstream.session({ background: true });
    return session.serialise(ENDPOINT_RECORD, async () => {
      const kept = await this.keptEndpoint();
      if (kept?.id) {
        const read = await session.current.read<{ status?: unknown }>(`/webhook-endpoints/${encodeURIComponent(kept.id)}`);
        if (read?.status === "active") {
          this.endpoint = kept;
          return "active";
        }
        // gone or suspended: a suspended endpoint hears nothing until it is activated again, which a new declaration does
      }
      const declared = await session.current.post<{ id?: unknown; status?: unknown; secret?: unknown }>("/webhook-endpoints", {
        name: "directory-graph",
        webhookUrl: this.config.publicUrl,
        apiVersion: API_VERSION,
        topics: CHANGE_TOPICS,
        businessEstablishments: null,
        status: "active",
      });
      if (typeof declared.id !== "string" || typeof declared.secret !== "string" || declared.secret === "") throw new Error("the registration answered no id or secret");
      this.endpoint = { id: declared.id, secret: declared.secret };
      await this.upstream.shared.use("events", (redis) => redis.set(ENDPOINT_KEY, JSON.stringify(this.endpoint)), () => undefined);
      return String(declared.status);
    });
  }

  /** The endpoint kept on Redis (checked: an id and a secret, both strings), else this process's. */
  private async keptEndpoint(): Promise<Endpoint | null> {
    return this.upstream.shared.use(
      "events",
      async (redis) => {
        const raw = await redis.get(ENDPOINT_KEY);
        try {
          const parsed = raw === null ? null : (JSON.parse(raw) as Partial<Endpoint>);
          if (parsed && typeof parsed.id === "string" && typeof parsed.secret === "string" && parsed.secret !== "") return { id: parsed.id, secret: parsed.secret };
        } catch {
          // not what we wrote: none
        }
        return this.endpoint;
      },
      () => this.endpoint,
    );
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => (clearTimeout(timer), resolve());
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  // ------------------------------------------------------------------ webhook

  /** The handler of the people subgraph's `/directory-events`: the activation echo; a delivery verified, acknowledged, then processed. */
  readonly receive = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === "GET") return this.echo(req, res);
    if (req.method !== "POST") return sendJson(res, 405, { error: "GET or POST" }, { allow: "GET, POST" });
    let body: string;
    try {
      body = (await readBody(req)).toString("utf8");
    } catch (err) {
      if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: "too large" }, { connection: "close" });
      throw err;
    }
    if (!(await this.verified(body, single(req.headers["lucca-timestamp"]), single(req.headers["lucca-signature"])))) {
      this.count("webhook", "refused_signature");
      return sendJson(res, 401, { error: "signature" });
    }
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      event = undefined;
    }
    let outcome: Outcome;
    try {
      outcome = await this.ingest(event, "webhook");
    } catch (err) {
      // claimed, not published, released: the directory's retry of this delivery is taken in
      this.logger.warn("an event could not be published; the directory will deliver it again", { error: (err as Error).message.slice(0, 200) });
      // a change not heard until that retry: nothing is held meanwhile
      this.upstream.eventPathLost();
      return sendJson(res, 503, { error: "not published" }, { "retry-after": "1" });
    }
    // an event we cannot read is not acknowledged: the directory keeps it undelivered and tries again
    if (outcome === "refused_malformed") return sendJson(res, 400, { error: "not an event of a known topic" });
    // the directory delivers: the path is healthy (the only word on it with DIRECTORY_EVENTS_SECRET)
    this.upstream.eventPathHeard(WEBHOOK_HEARD_MS);
    sendJson(res, 202, { status: outcome === "duplicate" ? "duplicate" : "accepted" });
  };

  /** The activation GET: `?echo=<value>` (an older copy of the service's page says `?challenge=`) answered 200 with the value as text/plain. */
  private echo(req: IncomingMessage, res: ServerResponse): void {
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    const value = query.get("echo") ?? query.get("challenge");
    if (value === null || value.length > 1000) return sendJson(res, 400, { error: "an activation GET carries ?echo=" });
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" });
    res.end(value);
  }

  /**
   * The service's published check: `Lucca-Signature` is the base64 HMAC-SHA256, keyed with the
   * endpoint's secret, of `<Lucca-Timestamp>.<raw body>`, and the timestamp (UTC ISO 8601) is
   * within 5 minutes of now. Written by hand: it is two lines of node:crypto, no library speaks it.
   * A signature that does not match the secret this replica holds is checked once more against
   * the one kept on Redis (another replica may have declared the endpoint again).
   */
  private async verified(body: string, timestamp: string, signature: string): Promise<boolean> {
    if (timestamp === "" || signature === "" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(timestamp)) return false;
    const at = Date.parse(timestamp);
    if (!Number.isFinite(at) || Math.abs(Date.now() - at) > TIMESTAMP_TOLERANCE_MS) return false;
    const given = Buffer.from(signature, "base64");
    const matches = (secret: string) => {
      const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (this.endpoint && matches(this.endpoint.secret)) return true;
    if (this.config.secret !== null) return false;
    const kept = await this.keptEndpoint();
    if (kept && kept.secret !== this.endpoint?.secret && matches(kept.secret)) {
      this.endpoint = kept;
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------ poll

  private async pollLoop(): Promise<void> {
    while (!this.stopped) {
      let found = 0;
      try {
        found = await this.pollOnce();
        // every change up to this pass is heard: held reads may be served until the next pass is late (client.ts `holding`)
        this.upstream.eventPathHeard(3 * this.config.pollMs + 1000);
        if (this.pollFailing) this.logger.info("reading the directory's events again");
        this.pollFailing = false;
      } catch (err) {
        // a change may be missed until a pass succeeds: nothing is held meanwhile
        this.upstream.eventPathLost();
        // logged once per outage: the next pass tries again
        if (!this.pollFailing) this.logger.warn("reading the directory's events failed", { error: (err as Error).message.slice(0, 200) });
        this.pollFailing = true;
      }
      if (found === 0 && !this.stopped) await this.pause(this.config.pollMs);
    }
  }

  /**
   * One pass: the events after the resume position, one replica at a time; answers how many.
   * Only the paging production documents is used (docs/shared-state.md#the-events-resume-position):
   * the page the position holds (its cursor, or the first page) is read again, the events after
   * the last one taken in are taken in, and `links.next`, once there is one, becomes the position.
   */
  async pollOnce(): Promise<number> {
    const session = this.upstream.session({ background: true });
    return session.serialise(POLL_RECORD, async () => {
      let position = await this.readPosition();
      if (position === null) {
        // first start: from the newest event on (what happened before, nothing here held)
        await this.writePosition(await this.newest(session.current));
        return 0;
      }
      let count = 0;
      let examined = 0;
      for (;;) {
        let page: Envelope<{ id?: unknown }>;
        try {
          page = await session.current.page<{ id?: unknown }>("/events", { limit: EVENTS_PAGE, ...(position.page === null ? {} : { page: position.page }) });
        } catch (err) {
          if (!(err instanceof UpstreamError && err.status === 400 && position.page !== null)) throw err;
          // a cursor the directory no longer takes: from the first kept event again, skipping those taken in
          this.logger.warn("the directory refused the events' resume cursor; reading again from its first event", { error: err.message.slice(0, 200) });
          position = { page: null, last: position.last };
          await this.writePosition(position);
          continue;
        }
        for (const event of page.items) {
          examined++;
          const id = String(event.id);
          if (position.last !== null && !follows(id, position.last)) continue;
          await this.ingest(event, "poll");
          position = { page: position.page, last: id };
          await this.writePosition(position);
          count++;
          if (this.stopped) return count;
        }
        const next = pageCursor(page.links?.next?.href);
        if (next === null) break;
        position = { page: next, last: position.last };
        await this.writePosition(position);
        if (this.stopped || examined >= PASS_MAX) break;
      }
      // written at each pass: its TTL runs from the last pass, not from the last event
      await this.writePosition(position);
      return count;
    });
  }

  /**
   * The position of the newest event (none: before every event), with documented paging only: the
   * first page with `include=totalCount` (all of it when it holds every event), else the page
   * before the last by its index, whose `links.next` is the cursor of the last page, read once for
   * its newest event. One to three reads, on a first start only.
   */
  private async newest(api: CurrentApi): Promise<Position> {
    const first = await api.page<{ id?: unknown }>("/events", { limit: EVENTS_PAGE, include: "totalCount" });
    const total = first.totalCount;
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0) throw new Error("the directory's events answered no totalCount");
    const lastId = (items: Array<{ id?: unknown }>, fallback: string | null) => (items.length === 0 ? fallback : String(items.at(-1)!.id));
    if (total <= EVENTS_PAGE || first.links?.next == null) return { page: null, last: lastId(first.items, null) };
    const lastIndex = Math.ceil(total / EVENTS_PAGE);
    const before = lastIndex === 2 ? first : await api.page<{ id?: unknown }>("/events", { limit: EVENTS_PAGE, page: String(lastIndex - 1) });
    const cursor = pageCursor(before.links?.next?.href);
    if (cursor === null) return { page: null, last: lastId(before.items, lastId(first.items, null)) };
    const last = await api.page<{ id?: unknown }>("/events", { limit: EVENTS_PAGE, page: cursor });
    return { page: cursor, last: lastId(last.items, lastId(before.items, null)) };
  }

  private async readPosition(): Promise<Position | null> {
    return this.upstream.shared.use(
      "events",
      async (redis) => parsePosition(await redis.get(POSITION_KEY)) ?? this.localPosition,
      () => this.localPosition,
    );
  }

  private async writePosition(position: Position): Promise<void> {
    this.localPosition = position;
    await this.upstream.shared.use("events", (redis) => redis.set(POSITION_KEY, JSON.stringify(position), "EX", POSITION_TTL_S), () => undefined);
  }

  // ------------------------------------------------------------------ both

  /** One directory event (its `GET /events/{id}` representation): published once, or counted as a duplicate or refused. */
  async ingest(event: unknown, mode: Mode): Promise<Outcome> {
    return tracer.startActiveSpan("directory event", async (span) => {
      try {
        const change = toChange(event);
        if (change === null) {
          // the directory's own topic (a test delivery's ping) is no change; anything else is no event
          const topic = (event as { topic?: unknown } | null)?.topic;
          const outcome: Outcome = topic === "ping" ? "ignored" : "refused_malformed";
          this.count(mode, outcome);
          span.setAttribute("directory_graph.event.outcome", outcome);
          return outcome;
        }
        span.setAttributes({ "directory_graph.event.id": change.id, "directory_graph.event.topic": change.topic, "directory_graph.event.mode": mode });
        const claim = `events:seen:${hash(change.id)}`;
        const outcome: Outcome = (await this.first(claim, SEEN_TTL_S, this.localSeen)) ? "received" : "duplicate";
        if (outcome === "received") {
          try {
            await this.feed.publish(change);
          } catch (err) {
            // claimed but not published: released, so that the next delivery or poll pass takes it in
            await this.release(claim, this.localSeen);
            throw err;
          }
          const lag = (Date.now() - Date.parse(change.occurredAt)) / 1000;
          if (Number.isFinite(lag)) processMetrics().directoryEventLag.observe({ mode }, Math.max(0, lag));
        }
        this.count(mode, outcome);
        span.setAttribute("directory_graph.event.outcome", outcome);
        return outcome;
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    });
  }

  /** `SET key NX EX ttl` on Redis: whether this caller set it first; in process (`local`) without Redis. */
  private first(key: string, ttlSeconds: number, local: LRUCache<string, true>): Promise<boolean> {
    return this.upstream.shared.use(
      "events",
      async (redis) => (await redis.set(key, "1", "EX", ttlSeconds, "NX")) === "OK",
      () => {
        if (local.has(key)) return false;
        local.set(key, true);
        return true;
      },
    );
  }

  /** Undoes `first`: the key is free again. */
  private async release(key: string, local: LRUCache<string, true>): Promise<void> {
    local.delete(key);
    await this.upstream.shared.use("events", (redis) => redis.del(key), () => undefined);
  }

  private count(mode: Mode, outcome: Outcome): void {
    processMetrics().directoryEvents.inc({ mode, outcome });
  }

}

/** The change an event tells of, or null when the event is not one (a ping, a malformed body). */
export function toChange(event: unknown): DirectoryChange | null {
  if (typeof event !== "object" || event === null) return null;
  const e = event as Record<string, any>;
  if (typeof e.id !== "string" || e.id === "" || typeof e.topic !== "string" || !CHANGE_TOPICS.includes(e.topic)) return null;
  if (typeof e.occurredAt !== "string" || Number.isNaN(Date.parse(e.occurredAt))) return null;
  const data = e.data;
  if (typeof data !== "object" || data === null || typeof data.id !== "string" || typeof data.type !== "string") return null;
  const establishment = e.businessEstablishment?.id;
  const previous = e.previousAttributes;
  return {
    id: e.id,
    topic: e.topic,
    occurredAt: e.occurredAt,
    resource: { type: data.type, id: data.id },
    establishmentIds: typeof establishment === "string" ? [establishment] : [],
    previousAttributes: typeof previous === "object" && previous !== null && !Array.isArray(previous) ? previous : null,
  };
}

/**
 * The position Redis answered, checked: `{page, last}` as written, a cursor of printable text and an
 * event id of digits; an id alone (what an earlier version wrote) resumes from the first page after
 * it. Anything else is none.
 */
export function parsePosition(raw: string | null): Position | null {
  if (raw === null) return null;
  if (/^\d{1,15}$/.test(raw)) return { page: null, last: raw };
  try {
    const p = JSON.parse(raw) as Partial<Position> | null;
    if (typeof p !== "object" || p === null || Array.isArray(p)) return null;
    const page = p.page === null || (typeof p.page === "string" && /^[\x21-\x7e]{1,2048}$/.test(p.page)) ? p.page : undefined;
    const last = p.last === null || (typeof p.last === "string" && /^\d{1,15}$/.test(p.last)) ? p.last : undefined;
    return page === undefined || last === undefined ? null : { page, last };
  } catch {
    return null;
  }
}

/** The `page` of a `links.next` href (the cursor, opaque), or null when there is no next page. */
function pageCursor(href: string | null | undefined): string | null {
  if (typeof href !== "string" || href === "") return null;
  try {
    return new URL(href).searchParams.get("page") || null;
  } catch {
    return null;
  }
}

/** Whether an event id comes after another in the list's order (by id: decimal ids compare as numbers); an id that is no decimal is taken as new. */
function follows(id: string, last: string): boolean {
  if (!/^\d{1,15}$/.test(id)) return true;
  return id.length !== last.length ? id.length > last.length : id > last;
}

function single(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function hash(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/**
 * The ingestion of the process whose subgraph takes the directory's events in (the people
 * subgraph's: one per deployment, `SubgraphModule.ingestsEvents`), or null when DIRECTORY_EVENTS
 * is off. It publishes on the upstream client's change feed; its `receive` is the webhook route,
 * `start` runs once the subgraph listens.
 */
export function ingestionFor(upstream: Upstream, logger: Logger): EventIngestion | null {
  const config = upstream.config.events;
  if (!config || config.mode === "off") return null;
  return new EventIngestion(upstream, upstream.changes, config, logger);
}
