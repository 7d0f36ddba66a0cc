import { EventEmitter } from "node:events";

/**
 * One change the directory told us of (docs/interface.md#events), as every consumer inside the
 * subgraphs sees it: the subscriptions, the caches that forget, the warm reference data. The
 * ingestion (webhook or `GET /events`) turns each directory event into one DirectoryChange,
 * deduplicated by `id`, and publishes it on the feed; with replicas the feed reaches every replica.
 * Beside them, the facade's own writes of what the directory sends no event of (the legacy time
 * data: types `time-entry`, `axis-section`, ids `facade-write:<uuid>`; client.ts `writtenChange`),
 * so that every replica drops what it holds of them.
 */
export interface DirectoryChange {
  /** the directory event's id: unique, the deduplication key */
  id: string;
  /** the directory's topic, `employee.updated`, `employment.created`, `job-position.deleted`… */
  topic: string;
  /** ISO 8601 instant the change happened at the directory */
  occurredAt: string;
  /** the changed resource's REST type and id (`employee` 10) */
  resource: { type: string; id: string };
  /** the business establishments the change concerns (the filter of subscriptions) */
  establishmentIds: string[];
  /** on updates: the attributes as they were before the change; null otherwise */
  previousAttributes: Record<string, unknown> | null;
}

export type ChangeListener = (change: DirectoryChange) => void;

/** Where changes are published once and heard by every listener of every replica. */
export interface ChangeFeed {
  publish(change: DirectoryChange): Promise<void>;
  /** returns the function that stops listening */
  listen(listener: ChangeListener): () => void;
  /** stops hearing the replicas (its Redis connection); publish and listen still work in process */
  close(): Promise<void>;
  /** whether every replica's changes reach this one now (held reads are served only then) */
  hearing(): boolean;
}

/**
 * The feed of one process: listeners are called in order, a throwing listener is isolated from
 * the others. The replicas' feed (Redis) delivers to an InProcessFeed on each replica.
 */
export class InProcessFeed implements ChangeFeed {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(change: DirectoryChange): Promise<void> {
    for (const listener of this.emitter.listeners("change") as ChangeListener[]) {
      try {
        listener(change);
      } catch {
        // one listener's failure is its own: the others still hear the change
      }
    }
  }

  listen(listener: ChangeListener): () => void {
    this.emitter.on("change", listener);
    return () => this.emitter.off("change", listener);
  }

  async close(): Promise<void> {}

  /** one process: every change it has is its own */
  hearing(): boolean {
    return true;
  }
}
