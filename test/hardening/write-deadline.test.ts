import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { DEADLINE_HEADER } from "../../platform/headers.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { Logger } from "../../platform/log.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { loadSubgraphModule, postGraphQL } from "../helpers/stack.js";

/**
 * A write's outcome is told truthfully whatever deadline fires first (docs/graph.md#error-codes):
 * a mutation whose PUT was sent and not answered by the operation's deadline may have been
 * applied, so it answers WRITE_OUTCOME_UNKNOWN (read the item again before retrying), never
 * DEADLINE_EXCEEDED. The gateway's deadline used to fire a few ms before the subgraph's, and its
 * DEADLINE_EXCEEDED replaced the subgraph's WRITE_OUTCOME_UNKNOWN for a write the directory had
 * applied.
 */

const DEADLINE_MS = 1500;
/** what an answer may take beyond the deadline (the answer's own way back, a loaded machine) */
const MARGIN_MS = 1500;
const API_KEY = { authorization: "service application=demo-api-key" };
const ENTRY = "100097";
const WRITE = `mutation($comment: String) { updateTimeEntry(id: "${ENTRY}", input: { comment: $comment }) { __typename } }`;

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_DEADLINE_MS: String(DEADLINE_MS) } });
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function storedComment(): Promise<string | undefined> {
  const res = await fetch(`${stack.directory.url}/api/v3/timeentries/${ENTRY}`, { headers: API_KEY });
  return ((await res.json()) as { data: { comment?: { content: string } | null } }).data.comment?.content;
}

describe("a write held upstream past the operation's deadline", () => {
  it("answers WRITE_OUTCOME_UNKNOWN with what to do, never DEADLINE_EXCEEDED, by the deadline; the directory applied it", async () => {
    // in front of the directory: every request forwarded at once (a PUT is applied), the answer
    // to a PUT held 5 s, past the operation's deadline
    const puts: string[] = [];
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(`${stack.directory.url}${req.url}`, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization ?? ""), "content-type": "application/json" },
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = await answer.text();
      if (req.method === "PUT") {
        puts.push(String(req.url));
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
      if (!res.destroyed) res.writeHead(answer.status, { "content-type": "application/json" }).end(body);
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const upstream = new Upstream(
      loadUpstreamConfig({ DIRECTORY_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, DIRECTORY_REQUEST_BUDGET: "off", DIRECTORY_CLIENT_ID: "x", DIRECTORY_CLIENT_SECRET: "y", DIRECTORY_API_KEY: "demo-api-key" }),
      new Logger("held-writes", "silent"),
    );
    const subgraph = await startSubgraphModule(await loadSubgraphModule("legacy-time"), { upstream, port: 0, logger: new Logger("held-writes", "silent") });
    const gateway = await startExtraGateway(stack, { LEGACY_TIME_URL: subgraph.url });
    try {
      const comment = `held past the deadline ${Date.now()}`;
      const started = performance.now();
      const res = await postGraphQL(gateway.url, WRITE, { comment });
      const ms = performance.now() - started;
      expect(res.errors?.map((e) => e.extensions?.code)).toEqual(["WRITE_OUTCOME_UNKNOWN"]);
      expect(res.errors?.[0]?.message).toMatch(/read the item again before retrying/);
      expect(ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
      // the PUT was sent (and sent again: it is idempotent) and applied
      expect(puts.length).toBeGreaterThanOrEqual(1);
      expect(await storedComment()).toBe(comment);
    } finally {
      await gateway.close();
      await subgraph.close();
      await upstream.close();
    }
  });

  it("a subgraph that never answers a mutation: WRITE_OUTCOME_UNKNOWN by the deadline; a query there still DEADLINE_EXCEEDED", async () => {
    const seen: string[] = [];
    const server = createServer((req) => {
      // the operations' requests (the gateway's readiness probe, a GET of /ready, carries no deadline)
      if (req.method === "POST") seen.push(String(req.headers[DEADLINE_HEADER]));
      req.resume();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const gateway = await startExtraGateway(stack, { LEGACY_TIME_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` });
    try {
      const started = performance.now();
      const write = await postGraphQL(gateway.url, WRITE, { comment: "never answered" });
      expect(performance.now() - started).toBeLessThan(DEADLINE_MS + MARGIN_MS);
      expect(write.errors?.map((e) => e.extensions?.code)).toEqual(["WRITE_OUTCOME_UNKNOWN"]);
      expect(JSON.stringify(write)).not.toContain("127.0.0.1");
      // the subgraph is given less time than the gateway waits, to tell the write's outcome in
      expect(Number(seen[0])).toBeLessThan(DEADLINE_MS - 200);
      const read = await postGraphQL(gateway.url, `{ timeEntry(id: "${ENTRY}") { id } }`);
      expect(read.errors?.map((e) => e.extensions?.code)).toEqual(["DEADLINE_EXCEEDED"]);
    } finally {
      await gateway.close();
    }
  });
});
