import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { SpanStatusCode } from "@opentelemetry/api";
import { LRUCache } from "lru-cache";
import { Webhook } from "standardwebhooks";
import { BodyTooLargeError, readBody, sendJson } from "../../../platform/http.js";
import type { Logger } from "../../../platform/log.js";
import { processMetrics } from "../../../platform/metrics.js";
import { tracer } from "../../../platform/request-scope.js";
import type { Upstream } from "../upstream/index.js";
import type { EventsConfig } from "./config.js";
import type { ChangeFeed, DirectoryChange } from "./feed.js";

/**
 * The ingestion of the directory's events (docs/shared-state.md#directory-events): every event
 * becomes at most one DirectoryChange published on the process's change feed, whose listeners on
 * every replica (caches, subscriptions) hear it.
 *
 * - **webhook**: registers DIRECTORY_EVENTS_PUBLIC_URL at the directory (`POST /webhook-endpoints`,
 *   all change topics) and answers its activation challenge; each delivery is verified (Standard
 *   Webhooks signature with DIRECTORY_EVENTS_SECRET, timestamp within 5 minutes: else 401), a
 *   `webhook-id` seen already is a replay, not processed again (answered 200, so that a retry of
 *   a delivery whose answer was lost does not count against the endpoint), and a delivery is
 *   acknowledged (202) once published: a claim and a publish, each bounded by REDIS_TIMEOUT_MS.
 *   One that could not be published is answered 503 with its claims released, so the directory's
 *   retry brings it again: none is lost.
 * - **poll**: reads `GET /events?after=<position>` from a resume position kept on Redis (in process
 *   without REDIS_URL), one replica at a time (the write lease of the `directory-events` record).
 *
 * Either way an event is handled once per deployment: its id is claimed with `SET NX` on Redis (in
 * process without it) before it is published. What Redis answers is checked (a position that is
 * not an event id is none).
 */

/** change topics the facade registers for; `confirmation` and `ping` are the directory's own */
export const CHANGE_TOPICS: readonly string[] = ["employee", "employment", "job-position", "employee-extension"].flatMap((r) => [
  `${r}.created`,
  `${r}.updated`,
  `${r}.deleted`,
]);

/** how long an event id is remembered as handled */
const SEEN_TTL_S = 7 * 86_400;
/** how long a `webhook-id` is remembered: past the signature's 5 minutes of tolerance, a replay is refused by its timestamp */
const MESSAGE_TTL_S = 600;
/** most events one poll pass takes in (then it goes on at once) */
const PASS_MAX = 1000;
/** the pause between two registrations the directory did not take */
const REGISTER_RETRY_MS = 5000;
/** the record whose lease makes one replica poll at a time */
const POLL_RECORD = "directory-events/poll";

type Mode = "webhook" | "poll";
type Outcome = "received" | "duplicate" | "ignored" | "refused_signature" | "refused_replay" | "refused_malformed";

export class EventIngestion {
  private readonly verifier: Webhook;
  private readonly localSeen = new LRUCache<string, true>({ max: 100_000, ttl: SEEN_TTL_S * 1000 });
  private readonly localMessages = new LRUCache<string, true>({ max: 100_000, ttl: MESSAGE_TTL_S * 1000 });
  /** the resume position without Redis (or while it does not answer) */
  private localPosition: string | null = null;
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
    this.verifier = new Webhook(config.secret);
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
    let warned = false;
    while (!this.stopped) {
      try {
        const endpoint = await this.upstream
          .session()
          .current.post<{ id: string; status: string }>("/webhook-endpoints", { name: "directory-graph", url: this.config.publicUrl, topics: CHANGE_TOPICS, secret: this.config.secret });
        if (endpoint.status === "active") return void this.logger.info("events endpoint registered", { endpoint: endpoint.id });
        if (!warned) this.logger.warn("the directory did not activate the events endpoint: its challenge did not come back through DIRECTORY_EVENTS_PUBLIC_URL", { endpoint: endpoint.id, status: endpoint.status });
      } catch (err) {
        if (!warned) this.logger.warn("registering the events endpoint failed; trying again", { error: (err as Error).message.slice(0, 200) });
      }
      warned = true;
      await this.pause(REGISTER_RETRY_MS);
    }
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

  /** The handler of the people subgraph's `/directory-events`: verify, refuse a replay, acknowledge, then process. */
  readonly receive = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST") return sendJson(res, 405, { error: "POST only" }, { allow: "POST" });
    let body: string;
    try {
      body = (await readBody(req)).toString("utf8");
    } catch (err) {
      if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: "too large" }, { connection: "close" });
      throw err;
    }
    const headers = {
      "webhook-id": single(req.headers["webhook-id"]),
      "webhook-timestamp": single(req.headers["webhook-timestamp"]),
      "webhook-signature": single(req.headers["webhook-signature"]),
    };
    let event: { type?: unknown; data?: any };
    try {
      // the signature over id, timestamp and body, and the timestamp within 5 minutes of now
      event = this.verifier.verify(body, headers) as typeof event;
    } catch {
      this.count("webhook", "refused_signature");
      return sendJson(res, 401, { error: "signature" });
    }
    if (event?.type === "confirmation") {
      const challenge = event.data?.data?.challenge;
      return sendJson(res, 200, { challenge: typeof challenge === "string" ? challenge : null });
    }
    const message = `events:message:${hash(headers["webhook-id"])}`;
    if (!(await this.first(message, MESSAGE_TTL_S, this.localMessages))) {
      // processed once already: not again. A 2xx all the same, so that the directory's retry of
      // a delivery whose answer it lost does not count against the endpoint
      this.count("webhook", "refused_replay");
      return sendJson(res, 200, { status: "duplicate" });
    }
    try {
      await this.ingest(event?.data, "webhook");
    } catch (err) {
      // not published: forgotten, so that the directory's retry of this delivery is taken in
      await this.release(message, this.localMessages);
      this.logger.warn("an event could not be published; the directory will deliver it again", { error: (err as Error).message.slice(0, 200) });
      return sendJson(res, 503, { error: "not published" }, { "retry-after": "1" });
    }
    sendJson(res, 202, { status: "accepted" });
  };

  // ------------------------------------------------------------------ poll

  private async pollLoop(): Promise<void> {
    while (!this.stopped) {
      let found = 0;
      try {
        found = await this.pollOnce();
        if (this.pollFailing) this.logger.info("reading the directory's events again");
        this.pollFailing = false;
      } catch (err) {
        // logged once per outage: the next pass tries again
        if (!this.pollFailing) this.logger.warn("reading the directory's events failed", { error: (err as Error).message.slice(0, 200) });
        this.pollFailing = true;
      }
      if (found === 0 && !this.stopped) await this.pause(this.config.pollMs);
    }
  }

  /** One pass: the events after the resume position, one replica at a time; answers how many. */
  async pollOnce(): Promise<number> {
    const session = this.upstream.session();
    return session.serialise(POLL_RECORD, async () => {
      let position = await this.readPosition();
      if (position === null) {
        // first start: from the newest event on (what happened before, nothing here held)
        const head = await session.current.page<{ id: string }>("/events", { sort: "-id", limit: 1 });
        await this.writePosition(head.items[0]?.id ?? "0");
        return 0;
      }
      let count = 0;
      for await (const event of session.current.iterate<{ id: string }>("/events", { after: position })) {
        if (this.stopped) break;
        await this.ingest(event, "poll");
        position = String(event.id);
        await this.writePosition(position);
        if (++count >= PASS_MAX) break;
      }
      return count;
    });
  }

  private async readPosition(): Promise<string | null> {
    return this.upstream.shared.use(
      "events",
      async (redis) => {
        const raw = await redis.get("events:position");
        // an id of the directory's events, or none (what Redis answers is checked)
        return raw !== null && /^\d{1,15}$/.test(raw) ? raw : (this.localPosition ?? null);
      },
      () => this.localPosition,
    );
  }

  private async writePosition(position: string): Promise<void> {
    this.localPosition = position;
    await this.upstream.shared.use("events", (redis) => redis.set("events:position", position), () => undefined);
  }

  // ------------------------------------------------------------------ both

  /** One directory event (its `GET /events/{id}` representation): published once, or counted as a duplicate or refused. */
  async ingest(event: unknown, mode: Mode): Promise<Outcome> {
    return tracer.startActiveSpan("directory event", async (span) => {
      try {
        const change = toChange(event);
        if (change === null) {
          // the directory's own topics (a confirmation, a ping) are no change; anything else is no event
          const topic = (event as { topic?: unknown } | null)?.topic;
          const outcome: Outcome = topic === "confirmation" || topic === "ping" ? "ignored" : "refused_malformed";
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

/** The change an event tells of, or null when the event is not one (a confirmation, a ping, a malformed body). */
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
