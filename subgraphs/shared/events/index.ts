import { Logger } from "../../../platform/log.js";
import type { SharedState } from "../../../platform/shared-state.js";
import { type ChangeFeed, InProcessFeed } from "./feed.js";
import { RedisFeed } from "./redis-feed.js";

export type { ChangeFeed, ChangeListener, DirectoryChange } from "./feed.js";
export { InProcessFeed } from "./feed.js";
export { RedisFeed } from "./redis-feed.js";

/**
 * The change feed of this process (docs/shared-state.md#the-change-feed): one per process, shared
 * by the subgraphs it runs. With REDIS_URL the replicas' feed (Redis pub/sub: a change published on
 * any replica reaches every replica's listeners once), in process otherwise.
 */
export function createChangeFeed(state: SharedState, logger?: Logger): ChangeFeed {
  if (state.redis === null) return new InProcessFeed();
  return new RedisFeed(state, logger ?? new Logger("change-feed"));
}
