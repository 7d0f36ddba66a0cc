import type { Redis } from "ioredis";
import type { Logger } from "../../../platform/log.js";
import { processMetrics } from "../../../platform/metrics.js";
import type { SharedState } from "../../../platform/shared-state.js";
import { type ChangeFeed, type ChangeListener, type DirectoryChange, InProcessFeed } from "./feed.js";

/** how many change ids a replica remembers to hear each change once */
const REMEMBERED_IDS = 10_000;
/** a message larger than this is not a change of ours */
const MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * The replicas' change feed (docs/shared-state.md#the-change-feed): a change published on any
 * replica is PUBLISHed on one Redis channel; every replica SUBSCRIBEs on its own connection and
 * hands what it hears, once checked, to its InProcessFeed. So every listener of every replica hears
 * each change once, the publishing replica's included (it hears its own change back from Redis).
 *
 * Nothing read back from Redis is trusted: a message that is not a well-formed DirectoryChange is
 * dropped (counted `rejected`). Each replica remembers the last ids it delivered and drops a
 * repeat (two replicas ingesting the same directory event, or a publish that timed out yet
 * reached Redis). Redis down never fails a publish: the change is delivered on this replica only
 * (counted `local`) and queries are not touched; the subscriber reconnects and resubscribes by itself.
 */
export class RedisFeed implements ChangeFeed {
  private readonly local = new InProcessFeed();
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly seen = new Set<string>();
  private readonly ready: Promise<void>;
  private closed = false;
  /** the first SUBSCRIBE answered (ioredis subscribes again by itself on each reconnection) */
  private subscribedOnce = false;

  constructor(
    private readonly state: SharedState,
    private readonly logger: Logger,
  ) {
    if (state.redis === null) throw new Error("RedisFeed needs REDIS_URL");
    this.channel = `${state.prefix}changes`;
    // a connection of its own (a subscribed connection runs no other command); it queues its
    // SUBSCRIBE until connected and subscribes again after each reconnection. Unlike the shared
    // connection it has no command timeout and retries across reconnections: a SUBSCRIBE that timed
    // out would leave this replica deaf to every other replica's changes for good (a starved event
    // loop or a stuck Redis past REDIS_TIMEOUT_MS at start), so it waits its answer instead.
    this.subscriber = state.redis.duplicate({ enableOfflineQueue: true, autoResubscribe: true, lazyConnect: false, commandTimeout: undefined, maxRetriesPerRequest: null });
    this.subscriber.on("error", () => undefined); // the shared state logs Redis going away
    this.subscriber.on("messageBuffer", (channel: Buffer, message: Buffer) => {
      if (channel.toString() === this.channel) this.heard(message);
    });
    this.ready = this.subscribe();
  }

  /** SUBSCRIBE until it is in place (each refusal logged, then tried again a second later), or the feed closes. */
  private async subscribe(): Promise<void> {
    while (!this.closed) {
      try {
        await this.subscriber.subscribe(this.channel);
        this.subscribedOnce = true;
        return;
      } catch (err) {
        if (this.closed) return;
        this.logger.warn("change feed: SUBSCRIBE failed; trying again", { error: (err as Error).message.slice(0, 200) });
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  }

  /** resolves once the subscription is in place (tests, and a start that wants no change missed) */
  subscribed(): Promise<void> {
    return this.ready;
  }

  async publish(change: DirectoryChange): Promise<void> {
    const message = JSON.stringify(change);
    const published = await this.state.use(
      "change_feed",
      async (redis) => {
        await redis.publish(this.channel, message);
        return true;
      },
      () => false,
    );
    if (published) return;
    processMetrics().changeFeedMessages.inc({ outcome: "local" });
    this.deliver(change);
  }

  listen(listener: ChangeListener): () => void {
    return this.local.listen(listener);
  }

  /** subscribed and connected: a change another replica publishes now reaches this one */
  hearing(): boolean {
    return !this.closed && this.subscribedOnce && this.subscriber.status === "ready";
  }

  private heard(message: Buffer): void {
    const change = message.length <= MAX_MESSAGE_BYTES ? parseChange(message.toString("utf8")) : null;
    if (change === null) {
      processMetrics().changeFeedMessages.inc({ outcome: "rejected" });
      this.logger.warn("change feed: a message from Redis is not a directory change; dropped", { bytes: message.length });
      return;
    }
    processMetrics().changeFeedMessages.inc({ outcome: "delivered" });
    this.deliver(change);
  }

  private deliver(change: DirectoryChange): void {
    if (this.seen.has(change.id)) {
      processMetrics().changeFeedMessages.inc({ outcome: "duplicate" });
      return;
    }
    this.seen.add(change.id);
    if (this.seen.size > REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value as string);
    void this.local.publish(change);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriber.disconnect(false);
  }
}

const isString = (value: unknown, max = 1024): value is string => typeof value === "string" && value.length > 0 && value.length <= max;

/** A DirectoryChange out of untrusted JSON, or null: every field checked, nothing else kept. */
export function parseChange(text: string): DirectoryChange | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (!isString(v.id, 200) || !isString(v.topic, 100) || !isString(v.occurredAt, 64) || Number.isNaN(Date.parse(v.occurredAt))) return null;
  const resource = v.resource as Record<string, unknown> | null;
  if (typeof resource !== "object" || resource === null || !isString(resource.type, 100) || !isString(resource.id, 200)) return null;
  if (!Array.isArray(v.establishmentIds) || v.establishmentIds.length > 1000 || !v.establishmentIds.every((id) => isString(id, 200))) return null;
  const previous = v.previousAttributes;
  if (previous !== null && (typeof previous !== "object" || Array.isArray(previous))) return null;
  return {
    id: v.id,
    topic: v.topic,
    occurredAt: v.occurredAt,
    resource: { type: resource.type, id: resource.id },
    establishmentIds: [...(v.establishmentIds as string[])],
    previousAttributes: previous as Record<string, unknown> | null,
  };
}
