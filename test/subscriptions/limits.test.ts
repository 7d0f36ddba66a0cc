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

describe("a persisted subscription by its id, on every transport", () => {
  it("serves the listed document by `sha256:<hex>` or bare hex, as documentId or APQ's hash, over SSE (POST and GET) and graphql-ws (query \"\")", async () => {
    const dir = mkdtempSync(join(tmpdir(), "subs-ids-"));
    const manifest = join(dir, "manifest.json");
    writeFileSync(manifest, JSON.stringify({ [sha256(LISTED)]: LISTED }));
    const gateway = await startExtraGateway(stack, { GATEWAY_TRUSTED_DOCUMENTS: "enforce", GATEWAY_TRUSTED_DOCUMENTS_MANIFEST: manifest });
    disposers.push(() => gateway.close());
    const ids = [`sha256:${sha256(LISTED)}`, sha256(LISTED)];
    const forms = ids.flatMap((id) => [{ documentId: id }, { extensions: { persistedQuery: { version: 1, sha256Hash: id } } }]);
    // graphql-ws requires a query string: a persisted subscription sends "" (graphql-ws's own recipe)
    const subscribers = forms.flatMap((form) => [sseAt(gateway.url, { ...form, query: undefined }), wsAt(gateway.url, { ...form, query: "" })]);
    // an EventSource sends a GET: its id in the query string
    const controller = new AbortController();
    disposers.push(() => controller.abort());
    const gets = forms.map((form) => {
      const params = new URLSearchParams(Object.entries(form).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
      const received = { text: "", status: 0 };
      void fetch(`${gateway.url}graphql/stream?${params}`, { headers: { accept: "text/event-stream" }, signal: controller.signal }).then(async (res) => {
        received.status = res.status;
        const reader = res.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) received.text += Buffer.from(read.value).toString("utf8");
      }).catch(() => undefined);
      return received;
    });
    await publishUntil(() => change("20"), () => subscribers.every((s) => s.results.length > 0 || s.error !== null) && gets.every((g) => g.text.includes("event: next")));
    for (const s of subscribers) {
      expect(s.error).toBeNull();
      expect(s.results[0].errors).toBeUndefined();
      expect(s.results[0].data.employeeChanged.id).toBe("20");
    }
    for (const g of gets) {
      expect(g.status).toBe(200);
      expect(JSON.parse(/event: next\ndata: (.*)\n/.exec(g.text)![1]!).data.employeeChanged.id).toBe("20");
    }
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
    // a close that waited for its subscriptions would never resolve: their clients keep them open
    await gateway.close();
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
