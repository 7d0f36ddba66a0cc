import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * The links' base (the origin a file link names: GATEWAY_PUBLIC_URL, else the request's own) is
 * part of every answer that carries links, so it is part of the identical-operations key
 * (gateway/identical-operations.ts) and of the subgraph in-flight key (gateway/subgraph-fetch.ts):
 * a caller who sends a made-up `Host` while the directory is slow shares no answer with the
 * caller after it, whose links name the gateway.
 */

const PORTRAIT = `query($id: ID!) { employee(id: $id) { portrait { downloadUrl } } }`;

/** the portrait link of employee 7 asked with `host` as the request's Host */
function portrait(gatewayUrl: string, host?: string): Promise<string | null> {
  const url = new URL(gatewayUrl);
  const body = JSON.stringify({ query: PORTRAIT, variables: { id: "7" } });
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...(host ? { host } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")).data?.employee?.portrait?.downloadUrl ?? null));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the links' base in the in-flight keys", () => {
  const stack = useGatewayStack({ env: { FILE_LINK_SECRET: "links-base-secret-0123456789abcdef" } });

  it("a made-up Host's answer reaches no other caller while the directory is slow", async () => {
    const own = stack.gateway.url.replace(/\/$/, "");
    expect((await portrait(stack.gateway.url))?.startsWith(`${own}/files/`)).toBe(true);
    stack.directory.faults.set({ latencyMs: 400 });
    try {
      const attacker = portrait(stack.gateway.url, "evil.example");
      // the victim's identical request arrives while the attacker's is in flight
      await new Promise((r) => setTimeout(r, 100));
      const victim = await portrait(stack.gateway.url);
      expect(victim?.startsWith(`${own}/files/`), victim ?? "no link").toBe(true);
      await attacker;
    } finally {
      stack.directory.faults.clear();
    }
  });
});
