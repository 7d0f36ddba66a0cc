import { Agent, request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { directoryToken, postGraphQL } from "../helpers/stack.js";
import { cursorScope, encodeCursor } from "../../subgraphs/shared/graphql/index.js";
import { SUBGRAPH_SECRET_HEADER } from "../../platform/headers.js";
import { listen } from "../../platform/http.js";
import { collectingLogger } from "../helpers/logs.js";
import { INTERNAL_SECRET, startProbe, type Probe } from "./probe.js";


/** One keep-alive connection, so that a test sees what a refused request leaves behind on it. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** A raw HTTP exchange, for what fetch hides (bodies it refuses to send, exact statuses). */
function send(url: string, options: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string } = {}) {
  const target = new URL(options.path ?? "", url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(target, { method: options.method ?? "GET", headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

afterAll(() => agent.destroy());

describe("the subgraph server", () => {
  let probe: Probe;
  beforeAll(async () => {
    probe = await startProbe();
  });
  afterEach(() => probe.directory.faults.clear());
  afterAll(() => probe.close());

  it("/health answers without touching GraphQL or the upstream", async () => {
    probe.directory.stats.reset();
    const res = await send(probe.subgraph.url, { path: "/health" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok", subgraph: "probe" });
    expect(probe.directory.stats.snapshot().total).toBe(0);
  });

  it("GraphQL is served at / and at /graphql", async () => {
    for (const path of ["/", "/graphql"]) {
      const res = await postGraphQL(new URL(path, probe.subgraph.url).href, `{ title }`);
      expect(res.data).toEqual({ title: "Hi" });
    }
  });

  it("an answer is never to be cached: cache-control no-store, without Apollo's per-field cache hints", async () => {
    const res = await fetch(probe.subgraph.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ title }" }) });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ data: { title: "Hi" } });
  });

  it("any other path is a 404", async () => {
    const res = await send(probe.subgraph.url, { path: "/graphql/extra", method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body).errors[0].message).toBe("Not found");
  });

  it("a body over 1 MiB is refused with 413 before it is read", async () => {
    const query = JSON.stringify({ query: `{ title }`, variables: { pad: "x".repeat(2 << 20) } });
    const res = await send(probe.subgraph.url, { method: "POST", headers: { "content-type": "application/json" }, body: query });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  it("a body over 1 MiB sent without a length (chunked) is refused with 413 too", async () => {
    const res = await send(probe.subgraph.url, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: Buffer.alloc((1 << 20) + 10, 0x20),
    });
    expect(res.status).toBe(413);
  });

  it("the next request after a refused body is served", async () => {
    const refused = await send(probe.subgraph.url, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: Buffer.alloc(2 << 20, 0x20),
    });
    expect(refused.status).toBe(413);
    const next = await send(probe.subgraph.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ title }" }) });
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body).data).toEqual({ title: "Hi" });
  });

  it("an unreadable JSON body is a 400 from GraphQL, not a server failure", async () => {
    const res = await send(probe.subgraph.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(400);
  });

  it("a failed upstream call makes the field null with the GraphQL code and the failed call", async () => {
    probe.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    const res = await postGraphQL(probe.subgraph.url, `{ employee(id: "1") { id } }`);
    expect(res.data).toEqual({ employee: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]!.path).toEqual(["employee"]);
    expect(res.errors![0]!.extensions).toEqual({
      code: "UPSTREAM_UNAVAILABLE",
      upstream: { method: "GET", path: "/employees/1", status: 503 },
    });
    expect(res.errors![0]!.message).toBe("GET /employees/1 failed: 503 Service Unavailable");
  });

  it("an upstream 400 keeps the problem details' field errors", async () => {
    // a page cursor the upstream does not know, in a cursor this subgraph signed
    const after = encodeCursor({ p: "bogus", s: 0 }, { signer: probe.upstream.cursors, scope: cursorScope("/employees", {}) });
    const res = await postGraphQL(probe.subgraph.url, `{ employees(after: "${after}") { nodes { id } } }`);
    expect(res.errors![0]!.extensions).toMatchObject({ code: "BAD_USER_INPUT", upstream: { status: 400 }, fields: { page: [expect.any(String)] } });
  });

  it("a bad argument the resolver refuses keeps its code and field", async () => {
    const res = await postGraphQL(probe.subgraph.url, `{ fail(kind: "input") }`);
    expect(res.errors![0]).toMatchObject({ message: "value must be positive", extensions: { code: "BAD_USER_INPUT", field: "value" } });
  });

  it("an unexpected error is masked as INTERNAL_SERVER_ERROR, without its message or stack, and logged", async () => {
    const res = await postGraphQL(probe.subgraph.url, `{ fail(kind: "bug") }`);
    expect(res.data).toEqual({ fail: null });
    expect(res.errors![0]!.message).toBe("Internal server error");
    expect(res.errors![0]!.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(res)).not.toContain("hunter2");
    const logged = probe.logs.find((l) => l.msg === "unexpected error");
    expect(logged?.level).toBe("error");
    // the errorId leads from the answer to its log line
    expect(logged?.errorId).toBe(res.errors![0]!.extensions!.errorId);
    expect(String(logged?.error)).toContain(INTERNAL_SECRET);
  });

  it("GraphQL's own errors keep their codes", async () => {
    const res = await postGraphQL(probe.subgraph.url, `{ nope }`);
    expect(res.status).toBe(400);
    expect(res.errors![0]!.extensions!.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("each request gets its own upstream session: calls are counted per request", async () => {
    const [a, b] = await Promise.all([postGraphQL(probe.subgraph.url, `{ callsAfterOneRead }`), postGraphQL(probe.subgraph.url, `{ callsAfterOneRead }`)]);
    // the token request may fall in either session; the page read is each one's own
    expect([a.data.callsAfterOneRead, b.data.callsAfterOneRead].sort()).toEqual(expect.arrayContaining([1]));
    const again = await postGraphQL(probe.subgraph.url, `{ callsAfterOneRead }`);
    expect(again.data.callsAfterOneRead).toBe(1);
  });

  it("one log line per operation names it with its upstream calls and its errors' codes", async () => {
    probe.directory.faults.set({ errorRate: 1, errorStatus: 503 });
    await postGraphQL(probe.subgraph.url, `query Broken { employee(id: "1") { id } title }`);
    probe.directory.faults.clear();
    await postGraphQL(probe.subgraph.url, `query Fine { callsAfterOneRead }`);
    const lines = probe.logs.filter((l) => l.msg === "operation");
    expect(lines.find((l) => l.operation === "Broken")).toMatchObject({ level: "info", upstreamCalls: 1, errors: 1, codes: ["UPSTREAM_UNAVAILABLE"] });
    const fine = lines.find((l) => l.operation === "Fine");
    expect(fine).toMatchObject({ upstreamCalls: 1, errors: 0 });
    expect(fine).not.toHaveProperty("codes");
    expect(fine!.durationMs).toBeTypeOf("number");
  });
});

describe("a subgraph with SUBGRAPH_SECRET", () => {
  const secret = "gateway-only-secret";
  let probe: Probe;
  beforeAll(async () => {
    probe = await startProbe({ secret });
  });
  afterAll(() => probe.close());

  it("answers 403 FORBIDDEN without the secret header", async () => {
    const res = await postGraphQL(probe.subgraph.url, `{ title }`);
    expect(res.status).toBe(403);
    expect(res.errors![0]!.extensions!.code).toBe("FORBIDDEN");
  });

  it.each([
    ["a wrong secret of the same length", "gateway-only-secreX"],
    ["a prefix of the secret", "gateway-only"],
    ["the secret with more after it", `${secret}-and-more`],
    ["an empty header", ""],
  ])("answers 403 to %s", async (_, value) => {
    const res = await postGraphQL(probe.subgraph.url, `{ title }`, {}, { [SUBGRAPH_SECRET_HEADER]: value });
    expect(res.status).toBe(403);
  });

  it("serves a request carrying the secret", async () => {
    const res = await postGraphQL(probe.subgraph.url, `{ title }`, {}, { [SUBGRAPH_SECRET_HEADER]: secret });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ title: "Hi" });
  });

  it("still answers /health without the secret, for the gateway's readiness check", async () => {
    expect((await send(probe.subgraph.url, { path: "/health" })).status).toBe(200);
  });
});

describe("a subgraph in forward mode", () => {
  let probe: Probe;
  beforeAll(async () => {
    probe = await startProbe({ upstream: { auth: "forward", clientId: null, clientSecret: null } });
  });
  afterAll(() => probe.close());

  it("serves the caller with the caller's own token", async () => {
    const token = await directoryToken(probe.directory.url);
    const id = probe.directory.company.employees[0]!.id;
    const res = await postGraphQL(probe.subgraph.url, `query($id: ID!) { employee(id: $id) { id } }`, { id }, { authorization: `Bearer ${token}` });
    expect(res.data).toEqual({ employee: { id } });
  });

  it("a request without credentials is UNAUTHENTICATED and reaches no upstream", async () => {
    probe.directory.stats.reset();
    const res = await postGraphQL(probe.subgraph.url, `{ employee(id: "1") { id } }`);
    expect(res.data).toEqual({ employee: null });
    expect(res.errors![0]!.extensions).toMatchObject({ code: "UNAUTHENTICATED", upstream: { status: null } });
    expect(probe.directory.stats.snapshot().total).toBe(0);
  });

  it("the caller's token shows in no answer and no log line, whatever happens", async () => {
    const token = await directoryToken(probe.directory.url, "demo-limited");
    const headers = { authorization: `Bearer ${token}` };
    const answers = await Promise.all([
      postGraphQL(probe.subgraph.url, `{ employees(first: 2) { nodes { id } } }`, {}, headers),
      postGraphQL(probe.subgraph.url, `{ employee(id: "999999") { id } }`, {}, headers),
      postGraphQL(probe.subgraph.url, `{ fail(kind: "bug") }`, {}, headers),
      postGraphQL(probe.subgraph.url, `{ employee(id: "1") { id } }`, {}, { authorization: "Bearer forged-caller-token" }),
    ]);
    expect(answers[3]!.errors![0]!.extensions!.code).toBe("UNAUTHENTICATED");
    expect(probe.logs.filter((l) => l.msg === "operation").length).toBeGreaterThanOrEqual(4);
    const everything = JSON.stringify(answers) + probe.logText();
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("forged-caller-token");
  });
});

describe("listen", () => {
  const get = (url: string) => send(url);

  it("a handler that fails answers 500 without its message, and the failure is logged", async () => {
    const { logger, lines } = collectingLogger();
    const http = await listen(
      async () => {
        throw new Error("handler bug with internals");
      },
      { port: 0, host: "127.0.0.1", logger },
    );
    try {
      const res = await get(`${http.origin}/`);
      expect(res.status).toBe(500);
      expect(JSON.parse(res.body)).toEqual({ errors: [{ message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
      expect(lines.map((l) => [l.line.msg, l.level])).toEqual([["request failed", "error"]]);
      expect(String(lines[0]!.line.error)).toContain("handler bug with internals");
    } finally {
      await http.close();
    }
  });

  it("a handler that fails after it began answering cuts the connection instead of hanging", async () => {
    const { logger } = collectingLogger();
    const http = await listen(
      async (_, res) => {
        res.writeHead(200, { "content-length": "100" });
        res.write("partial");
        throw new Error("late failure");
      },
      { port: 0, host: "127.0.0.1", logger },
    );
    try {
      await expect(get(`${http.origin}/`)).rejects.toThrow();
    } finally {
      await http.close();
    }
  });

  it("a wildcard host is announced on loopback", async () => {
    const { logger } = collectingLogger();
    const http = await listen(async (_, res) => void res.end("ok"), { port: 0, host: "0.0.0.0", logger });
    try {
      expect(http.origin).toBe(`http://127.0.0.1:${http.port}`);
      expect((await get(http.origin)).body).toBe("ok");
    } finally {
      await http.close();
    }
  });
});
