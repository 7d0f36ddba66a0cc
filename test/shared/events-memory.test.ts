import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { Logger } from "../../platform/log.js";
import { InProcessFeed } from "../../subgraphs/shared/events/index.js";
import { EventIngestion } from "../../subgraphs/shared/events/ingest.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";

/** Event ingestion allocates its in-process dedupe caches as they fill, not up front (subgraphs/shared/events/ingest.ts). */
describe("event ingestion at rest", () => {
  it("holds no preallocated dedupe cache: twenty ingestions cost the heap under 10 MiB", () => {
    const silent = new Logger("events", "silent");
    const upstream = new Upstream(loadUpstreamConfig({ DIRECTORY_BASE_URL: "http://127.0.0.1:9", DIRECTORY_AUTH: "forward", DIRECTORY_API_KEY: "test" }), silent);
    const secret = `whsec_${Buffer.alloc(32).toString("base64")}`;
    const before = getHeapStatistics().used_heap_size;
    const kept = Array.from({ length: 20 }, () => new EventIngestion(upstream, new InProcessFeed(), { mode: "poll", publicUrl: null, secret, pollMs: 1000 } as never, silent));
    const grown = getHeapStatistics().used_heap_size - before;
    expect(kept).toHaveLength(20);
    // lru-cache with `max` preallocates its index arrays: megabytes for one ingestion's empty cache
    expect(grown).toBeLessThan(10 * 1024 * 1024);
  });
});
