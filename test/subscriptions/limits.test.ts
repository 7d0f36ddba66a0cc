import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InProcessFeed, type DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { changesOf, SlowSubscriber } from "../../subgraphs/shared/events/stream.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { apiCalls } from "../helpers/subgraph.js";
import { collect, gatewaySse, gatewayWs, until, publishUntil as publishChanges } from "../helpers/subscriptions.js";

/** The limits of subscriptions: trusted documents, heartbeats, the drain, slow subscribers. */

const stack = useGatewayStack();
const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

let seq = 0;
const change = (resourceId: string, over: Partial<DirectoryChange> = {}): DirectoryChange => ({
  id: `lim-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: null,
  ...over,
});
const LISTED = `subscription Listed { employeeChanged(ids: ["20"]) { id employee { givenName } } }`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const sseAt = (gatewayUrl: string, request: Record<string, unknown>) => collect((sink) => gatewaySse(gatewayUrl, disposers).subscribe(request as never, sink));
const wsAt = (gatewayUrl: string, request: Record<string, unknown>) => collect((sink) => gatewayWs(gatewayUrl, disposers).subscribe(request as never, sink));

/** publishes until the subscriber(s) hear something (test/helpers/subscriptions.ts) */
const publishUntil = (make: () => DirectoryChange, heard: () => boolean) => publishChanges(stack.feed, make, heard);

describe("trusted documents in enforce mode", () => {
  it("refuses an unlisted subscription by either transport with no upstream call, and serves a listed one by documentId", async () => {
    const dir = mkdtempSync(join(tmpdir(), "subs-manifest-"));
    const manifest = join(dir, "manifest.json");
    writeFileSync(manifest, JSON.stringify({ [sha256(LISTED)]: LISTED }));
    const gateway = await startExtraGateway(stack, { GATEWAY_TRUSTED_DOCUMENTS: "enforce", GATEWAY_TRUSTED_DOCUMENTS_MANIFEST: manifest });
    disposers.push(() => gateway.close());
    stack.resetStats();
    const unlisted = `subscription { employeeChanged(ids: ["20"]) { id employee { familyName } } }`;
    const overSse = sseAt(gateway.url, { query: unlisted });
    const overWs = wsAt(gateway.url, { query: unlisted });
    await until(() => (overSse.results.length > 0 || overSse.error !== null) && (overWs.results.length > 0 || overWs.error !== null));
    expect(JSON.stringify(overSse.results[0] ?? overSse.error)).toContain("PERSISTED_QUERY_NOT_IN_LIST");
    expect(JSON.stringify(overWs.results[0] ?? overWs.error)).toContain("PERSISTED_QUERY_NOT_IN_LIST");
    expect(apiCalls(stack).total).toBe(0);

    const listed = sseAt(gateway.url, { documentId: `sha256:${sha256(LISTED)}`, query: undefined });
    await publishUntil(() => change("20"), () => listed.results.length > 0);
    expect(listed.results[0].errors).toBeUndefined();
    expect(listed.results[0].data.employeeChanged.id).toBe("20");
    expect(typeof listed.results[0].data.employeeChanged.employee.givenName).toBe("string");
  });
});

describe("heartbeats and the drain", () => {
  it("an open SSE subscription gets a comment line every GATEWAY_SUBSCRIPTION_HEARTBEAT_MS", async () => {
    const gateway = await startExtraGateway(stack, { GATEWAY_SUBSCRIPTION_HEARTBEAT_MS: "100" });
    disposers.push(() => gateway.close());
    const controller = new AbortController();
    disposers.push(() => controller.abort());
    const response = await fetch(gateway.url + "graphql/stream", { method: "POST", signal: controller.signal, headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify({ query: LISTED }) });
    const reader = response.body!.getReader();
    let text = "";
    const end = Date.now() + 700;
    while (Date.now() < end) {
      const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), end - Date.now()))]);
      if (chunk && !chunk.done) text += new TextDecoder().decode(chunk.value);
    }
    // graphql-sse's own first comment, then ours
    expect(text.split(":\n\n").length - 1).toBeGreaterThanOrEqual(4);
  });

  it("closing the gateway ends every open subscription cleanly (complete) by either transport, and does not wait for them", async () => {
    const gateway = await startExtraGateway(stack);
    const overSse = sseAt(gateway.url, { query: LISTED });
    const overWs = wsAt(gateway.url, { query: LISTED });
    await publishUntil(() => change("20"), () => overSse.results.length > 0 && overWs.results.length > 0);
    const started = Date.now();
    await gateway.close();
    expect(Date.now() - started).toBeLessThan(3000);
    await until(() => overSse.complete && (overWs.complete || overWs.error !== null));
    expect(overSse.error).toBeNull();
    expect(overSse.complete).toBe(true);
  });
});

describe("a slow subscriber", () => {
  it("is closed with a clear reason once its queue is full, while another subscriber keeps hearing every change", async () => {
    const feed = new InProcessFeed();
    const slow = changesOf(feed, () => true, 3);
    const fast = changesOf(feed, () => true, 3);
    const heard: string[] = [];
    const reading = (async () => {
      for await (const c of fast) {
        heard.push(c.id);
        if (heard.length === 10) break;
      }
    })();
    for (let i = 0; i < 10; i++) {
      await feed.publish(change(String(i), { id: `c${i}` }));
      await new Promise((r) => setImmediate(r));
    }
    await reading;
    expect(heard).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
    // the slow one never read: its 3 queued changes, then the reason
    const got: string[] = [];
    await expect(
      (async () => {
        for (;;) {
          const next = await slow.next();
          if (next.done) return;
          got.push(next.value.id);
        }
      })(),
    ).rejects.toBeInstanceOf(SlowSubscriber);
    expect(got.length).toBeLessThanOrEqual(3);
  });
});
