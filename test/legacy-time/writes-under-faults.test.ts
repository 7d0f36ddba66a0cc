import { afterEach, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { legacyGet } from "./helpers.js";

/**
 * Legacy writes under the directory's faults (its `/_admin/faults` over HTTP): a legacy write is
 * a PUT of the whole entity, idempotent, so a 503 or a 429 (nothing applied) is retried like a
 * read, within the deadline and after `Retry-After` (docs/graph.md, docs/security.md#writes).
 */

// with 30% of requests failing, 8 retries make a request fail with 0.3^9 ≈ 2·10⁻⁵: 60 requests
// (a read and a write for each of 30 operations) then fail together with ≈ 0.1%, so the test
// cannot pass by luck when the PUT is not retried (30 writes, 30% each: 1 - 0.7^30 > 99.99%).
// The deadline leaves room for all 8 (backoffs of up to 38 s in all): within the default 10 s,
// 6 or 7 fit, and the test failed in about one run of a hundred to a few hundred (CI met one).
const stack = useStack({ subgraphs: ["legacy-time"], env: { DIRECTORY_RETRIES: "8", SUBGRAPH_DEADLINE_MS: "60000" } });

async function faults(settings: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${stack.directory.url}/_admin/faults`, {
    method: settings ? "PUT" : "DELETE",
    ...(settings ? { headers: { "content-type": "application/json" }, body: JSON.stringify(settings) } : {}),
  });
  expect(res.status).toBeLessThan(300);
}
afterEach(() => faults(null));

const write = `mutation($d: String!) { updateTimeEntry(id: "100097", input: { duration: $d }) { __typename ... on TimeEntry { duration } } }`;

describe("legacy writes under faults", () => {
  it("30 writes with 30% of the directory's answers a 503 all apply", async () => {
    await faults({ errorRate: 0.3, errorStatus: 503 });
    stack.resetStats();
    const durations = Array.from({ length: 30 }, (_, i) => `0${1 + (i % 8)}:${i % 2 === 0 ? "15" : "45"}:00`);
    const failures: unknown[] = [];
    for (const d of durations) {
      const res = await stack.gql(stack.subgraphs["legacy-time"]!.url, write, { d });
      if (res.errors || res.data?.updateTimeEntry?.duration !== d) failures.push(res.errors ?? res.data);
    }
    expect(failures).toEqual([]);
    // the faults took effect: more PUTs were sent than operations asked
    expect(stack.stats().byRoute["PUT /api/v3/timeentries/{id}"]).toBeGreaterThan(30);
    await faults(null);
    expect((await legacyGet(stack, "/api/v3/timeentries/100097")).data.duration).toBe(durations.at(-1));
  }, 90_000); // room for the longest backoffs the deadline now allows

  it("a write refused 429 with Retry-After: 1 is sent again after a second and applies", async () => {
    // one request a second: the write's read passes, its PUT meets a 429 with Retry-After: 1
    await faults({ rateLimitRequests: 1, rateLimitWindowSeconds: 1 });
    stack.resetStats();
    const started = Date.now();
    const res = await stack.gql(stack.subgraphs["legacy-time"]!.url, write, { d: "03:15:00" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry).toEqual({ __typename: "TimeEntry", duration: "03:15:00" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(stack.stats().byRoute["PUT /api/v3/timeentries/{id}"]).toBeGreaterThanOrEqual(2);
  });
});
