import type { SharedState } from "../../../platform/shared-state.js";
import { type ChangeFeed, InProcessFeed } from "./feed.js";

export type { ChangeFeed, ChangeListener, DirectoryChange } from "./feed.js";
export { InProcessFeed } from "./feed.js";

/**
 * The change feed of this process (docs/shared-state.md): one per process, shared by the
 * subgraphs it runs. In process for now; with REDIS_URL it becomes the replicas' feed.
 */
export function createChangeFeed(_state: SharedState): ChangeFeed {
  return new InProcessFeed();
}
