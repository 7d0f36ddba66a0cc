import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { API_VERSION } from "../../subgraphs/shared/upstream/client.js";
import { COMPRESSION_MIN_BYTES } from "../../platform/compression.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";

/**
 * Compressed answers (platform/compression.ts): the gateway, the subgraphs and the in-process
 * directory answer brotli or gzip as `Accept-Encoding` asks, for bodies of COMPRESSION_MIN_BYTES
 * or more; the same bytes once decoded. The upstream client asks for it.
 */

const stack = useGatewayStack();
const operations = loadOperations();

/** a raw request (fetch would decode the body): status, headers and the bytes as sent */
function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const decode = (encoding: string | undefined, body: Buffer) =>
  (encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body).toString("utf8");

describe("compression", () => {
  it("the five operations: brotli and gzip when accepted, the same answer decoded; identity otherwise", async () => {
    const demo = pickDemoData(stack.directory.company);
    const rows: string[] = [];
    for (const operation of operations) {
      // the write is sent once, below
      if (operation.name === "UpdateTimeEntry") continue;
      const body = JSON.stringify({ query: operation.source, variables: variablesOf(demo, operation) });
      const post = (acceptEncoding: string) =>
        raw(stack.gateway.url, { method: "POST", headers: { "content-type": "application/json", "accept-encoding": acceptEncoding }, body });
      const plain = await post("identity");
      const gzip = await post("gzip");
      const br = await post("br, gzip");
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      const answer = plain.body.toString("utf8");
      expect(JSON.parse(answer).errors).toBeUndefined();
      if (plain.body.length < COMPRESSION_MIN_BYTES) {
        expect(gzip.headers["content-encoding"]).toBeUndefined();
      } else {
        expect(gzip.headers["content-encoding"]).toBe("gzip");
        expect(br.headers["content-encoding"]).toBe("br");
        expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
        expect(br.body.length).toBeLessThan(plain.body.length / 2);
      }
      // the same operation read again answers the same data
      expect(JSON.parse(decode(gzip.headers["content-encoding"], gzip.body))).toEqual(JSON.parse(answer));
      expect(JSON.parse(decode(br.headers["content-encoding"], br.body))).toEqual(JSON.parse(answer));
      rows.push(`${operation.name}: ${plain.body.length} B → gzip ${gzip.body.length} B, br ${br.body.length} B`);
    }
    expect(rows).toHaveLength(operations.length - 1);
    console.log(rows.join("\n"));
  });

  it("a write's answer (UpdateTimeEntry) is small: sent as is", async () => {
    const demo = pickDemoData(stack.directory.company);
    const operation = operations.find((o) => o.name === "UpdateTimeEntry")!;
    const body = JSON.stringify({ query: operation.source, variables: variablesOf(demo, operation) });
    const answer = await raw(stack.gateway.url, { method: "POST", headers: { "content-type": "application/json", "accept-encoding": "br, gzip" }, body });
    expect(JSON.parse(answer.body.toString("utf8")).errors).toBeUndefined();
    expect(answer.body.length).toBeLessThan(COMPRESSION_MIN_BYTES);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    console.log(`UpdateTimeEntry: ${answer.body.length} B (below ${COMPRESSION_MIN_BYTES} B: not compressed)`);
  });

  it("a subgraph and the directory answer compressed too", async () => {
    const subgraph = await raw(stack.subgraphs.people!.url, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip" },
      body: JSON.stringify({ query: "{ employees(first: 50) { nodes { id givenName familyName } } }" }),
    });
    expect(subgraph.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decode("gzip", subgraph.body)).data.employees.nodes).toHaveLength(50);

    const token = await stack.token();
    const directory = await raw(`${stack.directory.url}/service-api/employees?limit=50`, { headers: { authorization: `Bearer ${token}`, "api-version": API_VERSION, "accept-encoding": "br" } });
    expect(directory.status).toBe(200);
    expect(directory.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(decode("br", directory.body))).toBeTruthy();
  });

  /** The Accept-Encoding the upstream client sends, with these settings. */
  async function upstreamAsks(env: Record<string, string>): Promise<string | undefined> {
    let headers: IncomingHttpHeaders = {};
    const server = createServer((req, res) => {
      headers = req.headers;
      res.writeHead(401, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const upstream = new Upstream(loadUpstreamConfig({ DIRECTORY_BASE_URL: base, DIRECTORY_REQUEST_BUDGET: "off", DIRECTORY_CLIENT_ID: "c", DIRECTORY_CLIENT_SECRET: "s", DIRECTORY_API_KEY: "k", ...env }));
    try {
      await upstream.readiness();
      return headers["accept-encoding"];
    } finally {
      await upstream.close();
      server.close();
    }
  }

  it("the upstream client asks for brotli and gzip", async () => {
    expect(await upstreamAsks({})).toMatch(/\bgzip\b.*\bbr\b|\bbr\b.*\bgzip\b/);
  });

  it("with DIRECTORY_COMPRESSION=off it asks for uncompressed answers, and the in-process service then sends them", async () => {
    expect(await upstreamAsks({ DIRECTORY_COMPRESSION: "off" })).toBe("identity");
    const token = await stack.token();
    const answer = await raw(`${stack.directory.url}/service-api/employees?limit=50`, { headers: { authorization: `Bearer ${token}`, "api-version": API_VERSION, "accept-encoding": "identity" } });
    expect(answer.headers["content-encoding"]).toBeUndefined();
  });
});

it("the gateway asks its subgraphs for uncompressed answers (an internal hop: CPU over bytes)", async () => {
  let asked: string | undefined;
  const server = createServer((req, res) => {
    asked = req.headers["accept-encoding"];
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: { __typename: "Query" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const gateway = await startExtraGateway(stack, { PEOPLE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` });
  try {
    await fetch(stack.gateway.url.replace(String(stack.gateway.port), String(gateway.port)), {
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip" },
      body: JSON.stringify({ query: '{ employee(id: "1") { id email } }' }),
    });
    expect(asked).toBe("identity");
  } finally {
    await gateway.close();
    server.close();
  }
});
