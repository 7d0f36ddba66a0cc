import { describe, expect, it } from "vitest";
import { EtagCache } from "../../subgraphs/shared/upstream/etag-cache.js";

/** The ETag cache's weight (subgraphs/shared/upstream/etag-cache.ts): bytes on the heap, keys included. */
describe("the ETag cache's weight", () => {
  it("counts the keys, and two bytes a character for text beyond Latin-1", async () => {
    const cache = new EtagCache(1000, 100_000);
    const key = EtagCache.key("service", "GET", `/service-api/employees?ids=${"1,".repeat(5_000)}`);
    await cache.remember(key, '"v1"', "é".repeat(10));
    // the key alone is 10 000 characters: the entry weighs more than its body
    expect(cache.bytes).toBeGreaterThan(key.length);
    const wide = new EtagCache(1000, 100_000);
    await wide.remember("k", '"v1"', "名".repeat(1_000));
    expect(wide.bytes).toBeGreaterThanOrEqual(2_000);
    // a cap that the keys fill keeps only what fits
    const small = new EtagCache(1000, 30_000);
    for (let i = 0; i < 10; i++) await small.remember(`${key}${i}`, '"v1"', "{}");
    expect(small.size).toBe(2);
    expect(small.bytes).toBeLessThanOrEqual(30_000);
  });
});
