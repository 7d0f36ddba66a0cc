import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Upstream } from "../../subgraphs/shared/upstream/index.js";
import { configFor, upstreamError, useUpstreamFixture } from "./fixture.js";

/**
 * The production service's names (DIRECTORY_API_PREFIX, DIRECTORY_LEGACY_AUTH_SCHEME): production
 * serves the current API under `/lucca-api` and authenticates the legacy API with
 * `lucca application=<key>`, where the interface says `/service-api` and `service`. In front of the
 * in-process directory, a loopback front speaks production's names and only them: it serves
 * `/lucca-api/…` from the directory's `/service-api/…` (its links renamed the same way), answers
 * `/service-api/…` 404, and admits a legacy request only with the `lucca` scheme. The facade
 * configured with production's names reads through it what it reads from the directory itself,
 * following production's links past the first page; with the interface's names it is refused.
 */

const fx = useUpstreamFixture({ employees: 150, today: "2026-06-15" });
let front: Server;
let frontUrl: string;
const clients: Upstream[] = [];

const LEGACY = /^\/(api\/v3|directory\/api|organization\/)/;

function forward(req: IncomingMessage, res: ServerResponse, path: string, headers: Record<string, string | string[] | undefined>, rename: boolean): void {
  const target = new URL(fx.directory.url);
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path, headers: { ...headers, host: target.host, "accept-encoding": "identity" } }, (answer) => {
    const chunks: Buffer[] = [];
    answer.on("data", (c: Buffer) => chunks.push(c));
    answer.on("end", () => {
      let body = Buffer.concat(chunks).toString("utf8");
      // production's links name its own prefix
      if (rename) body = body.replaceAll("/service-api/", "/lucca-api/").replaceAll(fx.directory.url, frontUrl);
      const { "content-length": _length, etag: _etag, ...rest } = answer.headers;
      res.writeHead(answer.statusCode ?? 502, rest);
      res.end(body);
    });
  });
  req.pipe(upstream);
}

beforeAll(async () => {
  front = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/lucca-api/") || url.startsWith("/lucca-api?")) return forward(req, res, `/service-api${url.slice("/lucca-api".length)}`, req.headers, true);
    if (url.startsWith("/service-api")) return res.writeHead(404).end();
    if (LEGACY.test(url)) {
      const match = /^lucca application=(\S+)$/.exec(req.headers.authorization ?? "");
      if (!match) return res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ status: 401, message: "expected lucca application=<key>" }));
      return forward(req, res, url, { ...req.headers, authorization: `service application=${match[1]}` }, false);
    }
    return forward(req, res, url, req.headers, false);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => front.close(resolve));
});

function client(names: { apiPrefix?: string; legacyAuthScheme?: string }): Upstream {
  const upstream = new Upstream(configFor(frontUrl, { ...names, etagCacheSize: 0 }));
  clients.push(upstream);
  return upstream;
}

describe("production's names", () => {
  it("with DIRECTORY_API_PREFIX=/lucca-api and DIRECTORY_LEGACY_AUTH_SCHEME=lucca, reads what the directory serves, past the first page", async () => {
    const upstream = client({ apiPrefix: "/lucca-api", legacyAuthScheme: "lucca" });
    const routes: string[] = [];
    upstream.onCall((call) => routes.push(call.route));
    const session = upstream.session();
    const direct = fx.upstream.session();
    const employees = await session.current.all<{ id: string; givenName: string }>("/employees", {});
    expect(employees.length).toBe(150);
    // the same records (their own links name production's prefix)
    const names = (list: Array<{ id: string; givenName: string }>) => list.map((e) => `${e.id} ${e.givenName}`);
    expect(names(employees)).toEqual(names(await direct.current.all("/employees", {})));
    const one = await session.current.read<{ id: string }>(`/employees/${employees[0]!.id}`);
    expect(one?.id).toBe(employees[0]!.id);
    const users = await session.legacy.get<unknown>("/api/v3/users", { id: "1,2", fields: "id,firstName" });
    expect(users).toEqual(await direct.legacy.get<unknown>("/api/v3/users", { id: "1,2", fields: "id,firstName" }));
    // inside, the facade names the current API as the interface does, the pages its links named included
    expect([...new Set(routes)].sort()).toEqual(["GET /api/v3/users", "GET /service-api/employees", "GET /service-api/employees/{id}", "POST /connect/token"]);
    expect(routes.filter((r) => r === "GET /service-api/employees")).toHaveLength(2);
  });

  it("with the interface's names, production refuses the facade: 404 on the current API, 401 on the legacy one", async () => {
    const session = client({}).session();
    expect((await upstreamError(session.current.all("/employees", {}))).status).toBe(404);
    expect((await upstreamError(session.legacy.get("/api/v3/users", { id: "1" }))).status).toBe(401);
  });
});
