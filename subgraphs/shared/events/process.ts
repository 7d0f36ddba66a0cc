import type { Logger } from "../../../platform/log.js";
import type { Upstream } from "../upstream/index.js";
import { EventIngestion } from "./ingest.js";
import { createChangeFeed, type ChangeFeed } from "./index.js";

/**
 * The change feed of a process and who listens to it (docs/shared-state.md#directory-events). A
 * process has one upstream client (`npm start` shares one among its three subgraphs, a split
 * deployment has one per subgraph process), so the feed is made once per client, on its shared
 * state, and the client's caches listen from the start: a change drops what the client holds of
 * the changed resource (`Upstream.forget`), on every replica, since the feed reaches them all.
 */
const feeds = new WeakMap<Upstream, ChangeFeed>();

export function changeFeedOf(upstream: Upstream): ChangeFeed {
  let feed = feeds.get(upstream);
  if (!feed) {
    feed = createChangeFeed(upstream.shared);
    const made = feed;
    made.listen((change) => void upstream.forget(change));
    feeds.set(upstream, made);
  }
  return feed;
}

/**
 * The ingestion of the process whose subgraph takes the directory's events in (the people
 * subgraph's: one per deployment, `SubgraphModule.ingestsEvents`), or null when DIRECTORY_EVENTS
 * is off. Its `receive` is the webhook route, `start` runs once the subgraph listens.
 */
export function ingestionFor(upstream: Upstream, logger: Logger): EventIngestion | null {
  const config = upstream.config.events;
  if (!config || config.mode === "off") return null;
  return new EventIngestion(upstream, changeFeedOf(upstream), config, logger);
}
