import type { GatewayRuntime } from "@graphql-hive/gateway-runtime";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hiveRuntime } from "../helpers/hive.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * File links under another router (docs/gateways.md#file-links): a company's edge serves Hive
 * Gateway (the committed supergraph) at `/graphql` and routes `/files/` of FILE_LINK_BASE_URL to
 * the people subgraph, adding nothing (no subgraph secret: a browser's `<img src>` has none). A
 * portrait's link obtained through Hive names that base URL and answers the directory's image; the
 * subgraph still refuses its GraphQL to a request without the secret.
 */

const SECRET = "hive-files-subgraph-secret";
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** the company's edge: its handler is set once the stack runs; its port is known before, for FILE_LINK_BASE_URL */
let route: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
const edge: Server = createServer((req, res) => route(req, res));
await new Promise<void>((resolve) => edge.listen(0, "127.0.0.1", resolve));
const edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;

const stack = useGatewayStack({ secret: SECRET, env: { FILE_LINK_SECRET: "hive-files-link-secret-0123456789", FILE_LINK_BASE_URL: edgeUrl } });
let hive: GatewayRuntime;

beforeAll(async () => {
  hive = await hiveRuntime(stack.gatewayEnv);
  const people = new URL(stack.subgraphs.people!.url);
  route = (req, res) => {
    if (!(req.url ?? "").startsWith("/files/")) return void hive(req, res);
    // the edge's rule: /files/ to the people subgraph, as it came (method, path, conditional headers)
    const forwarded = request({ host: people.hostname, port: people.port, path: req.url, method: req.method, headers: { ...req.headers, host: people.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  };
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    edge.close(() => resolve());
    edge.closeAllConnections();
  });
  await hive?.dispose();
});

describe("file links under Hive Gateway", () => {
  it("a portrait's link obtained through Hive names FILE_LINK_BASE_URL and answers the image there, without the subgraph secret, in one upstream call", async () => {
    const answer = await postGraphQL(`${edgeUrl}/graphql`, `{ employee(id: "7") { portrait { downloadUrl } } }`);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    const link: string = answer.data.employee.portrait.downloadUrl;
    expect(link.startsWith(`${edgeUrl}/files/`)).toBe(true);
    stack.resetStats();
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect([...Buffer.from(await res.arrayBuffer()).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/files/{id}": 1 });
  });

  it("without the secret, an altered link is refused before any upstream call, and the subgraph's GraphQL stays closed", async () => {
    const answer = await postGraphQL(`${edgeUrl}/graphql`, `{ employee(id: "7") { portrait { downloadUrl } } }`);
    const link: string = answer.data.employee.portrait.downloadUrl;
    const at = link.indexOf("/files/") + "/files/".length + 20;
    const altered = `${link.slice(0, at)}${link[at] === "A" ? "B" : "A"}${link.slice(at + 1)}`;
    stack.resetStats();
    expect((await fetch(altered)).status).toBe(403);
    expect(stack.stats().total).toBe(0);
    const direct = await fetch(stack.subgraphs.people!.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) });
    expect(direct.status).toBe(403);
  });
});
