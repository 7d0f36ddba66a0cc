import { request as httpRequest } from "node:http";
import { describe, expect } from "vitest";
import { startGateway } from "../../gateway/gateway.js";
import { loadGatewayConfig } from "../../gateway/config.js";
import { Logger } from "../../platform/log.js";
import { corpus, gateway, post, send, type SentRequest } from "./harness.js";

let loggedGateway: { lines: string[]; gateway: Awaited<ReturnType<typeof startGateway>> } | undefined;

/**
 * The HTTP surface of the gateway: bodies, content types, methods, batching, CSRF prevention,
 * operation names, and what errors carry (no stack traces, no subgraph URL or body) outside
 * production too.
 */

/** a chunked POST of `bytes` bytes without content-length (node's fetch always announces it) */
function chunked(url: string, bytes: number): Promise<SentRequest> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: JSON.parse(text) }));
    });
    req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "EPIPE" || (err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, " ");
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

const noStackOrInternals = (answer: SentRequest) => {
  for (const e of answer.body.errors ?? []) {
    expect(e.extensions).not.toHaveProperty("stacktrace");
    expect(e.extensions).not.toHaveProperty("response");
    expect(e.extensions).not.toHaveProperty("serviceName");
    expect(e.extensions).not.toHaveProperty("exception");
  }
};

describe("hostile corpus: transport", () => {
  corpus("transport", [
    { name: "a plain operation still works", send: gateway(`{ employee(id: "1") { id } }`), status: 200, maxUpstreamCalls: 2 },
    { name: "a syntax error", send: gateway(`{ employee(id: "1") { id }`), status: 400, code: "GRAPHQL_PARSE_FAILED", check: noStackOrInternals },
    { name: "not JSON", send: (s) => post(s.gateway.url, "{not json", {}), status: 400 },
    { name: "GET with a mutation", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent("mutation { __typename }")}`, { headers: { "apollo-require-preflight": "1" } }), status: 405 },

    // bodies
    { name: "a body over 1 MB is refused when announced", send: (s) => post(s.gateway.url, JSON.stringify({ query: `# ${"x".repeat(1 << 20)}\n{ __typename }` })), status: 413, code: "BAD_REQUEST" },
    { name: "a chunked body over 1 MB is refused as it grows", send: (s) => chunked(s.gateway.url, 2 << 20), status: 413, code: "BAD_REQUEST" },
    { name: "an empty body", send: (s) => post(s.gateway.url, ""), status: 400 },
    { name: "a JSON body that is not an object", send: (s) => post(s.gateway.url, "42"), status: 400, code: "BAD_REQUEST" },
    { name: "a JSON null body", send: (s) => post(s.gateway.url, "null"), status: 400 },
    { name: "query is not a string", send: (s) => post(s.gateway.url, { query: 42 }), status: 400, code: "BAD_REQUEST" },
    { name: "variables are not an object", send: (s) => post(s.gateway.url, { query: "query($id: ID!) { employee(id: $id) { id } }", variables: "[1]" }), status: 400, code: "BAD_REQUEST" },
    { name: "a missing required variable", send: gateway("query($id: ID!) { employee(id: $id) { id } }", {}), status: 400, code: "BAD_USER_INPUT" },
    { name: "deeply nested JSON variables are refused by the type check", send: (s) => post(s.gateway.url, `{"query":"query($id: ID!) { employee(id: $id) { id } }","variables":{"id":${"[".repeat(5000)}${"]".repeat(5000)}}}`), status: 400, code: "BAD_USER_INPUT" },

    // content types and methods (CSRF prevention)
    { name: "text/plain POST (a CORS simple request) is refused", send: (s) => send(s.gateway.url, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ query: "{ __typename }" }) }), status: 400, code: "BAD_REQUEST" },
    { name: "form-encoded POST is refused", send: (s) => send(s.gateway.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "query=%7B__typename%7D" }), status: 400, code: "BAD_REQUEST" },
    { name: "GET without a preflight header is refused", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent(`{ employee(id: "1") { id } }`)}`, {}), status: 400, code: "BAD_REQUEST" },
    { name: "GET with the preflight header answers", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent(`{ employee(id: "1") { id } }`)}`, { headers: { "apollo-require-preflight": "1" } }), status: 200, maxUpstreamCalls: 2 },
    { name: "GET is held to the limits too", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent(`{ ${"a: __typename ".repeat(40)} }`)}`, { headers: { "apollo-require-preflight": "1" } }), status: 400, code: "OPERATION_LIMIT_EXCEEDED" },
    { name: "GET with unreadable variables", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent("query($id: ID!) { employee(id: $id) { id } }")}&variables=%7Bnope`, { headers: { "apollo-require-preflight": "1" } }), status: 400, code: "BAD_REQUEST" },
    { name: "PUT is not a GraphQL method", send: (s) => send(s.gateway.url, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) }), status: 405 },
    { name: "an unknown path", send: (s) => send(new URL("/admin", s.gateway.url).href, {}), status: 404 },

    // batching is off
    { name: "a batch of two operations is refused", send: (s) => post(s.gateway.url, [{ query: `{ employee(id: "1") { id } }` }, { query: `{ employee(id: "2") { id } }` }]), status: 400, code: "BAD_REQUEST" },
    { name: "a batch of 1 000 operations is refused without work", send: (s) => post(s.gateway.url, Array.from({ length: 1000 }, (_, i) => ({ query: `{ employee(id: "${i}") { id } }` }))), status: 400, code: "BAD_REQUEST" },

    // operation names
    { name: "an unknown operationName is a client error", send: (s) => post(s.gateway.url, { query: "query A { __typename }", operationName: "B" }), status: 400, code: "BAD_USER_INPUT", check: noStackOrInternals },
    { name: "two operations without an operationName", send: (s) => post(s.gateway.url, { query: "query A { __typename } query B { __typename }" }), status: 400, code: "BAD_USER_INPUT" },
    { name: "operationName not a string", send: (s) => post(s.gateway.url, { query: "query A { __typename }", operationName: { x: 1 } }), status: 400, code: "BAD_REQUEST" },
    {
      name: "a 500 KB operationName answers a short message and a short log line",
      // a gateway of its own that logs at info, started (composition and all) before the case counts
      prepare: async (s) => {
        const lines: string[] = [];
        loggedGateway = { lines, gateway: await startGateway(loadGatewayConfig({ ...s.gatewayEnv, LOG_LEVEL: "info" }), new Logger("gateway", "info", (line) => lines.push(line))) };
      },
      send: async () => {
        const { lines, gateway: logged } = loggedGateway!;
        try {
          const answer = await post(logged.url, { query: "query A { __typename }", operationName: "N".repeat(500_000) });
          const line = lines.find((l) => l.includes('"msg":"operation"'));
          expect(line, "the operation's log line").toBeDefined();
          expect(line!.length).toBeLessThan(1000);
          expect(JSON.stringify(answer.body).length).toBeLessThan(1000);
          return answer;
        } finally {
          await logged.close();
        }
      },
      status: 400,
      code: "BAD_USER_INPUT",
    },

    // errors carry no internals outside production either
    {
      name: "a date a subgraph's scalar refuses (variable) is BAD_USER_INPUT without the subgraph's URL or body",
      send: gateway(`query($from: Date!) { employee(id: "10") { id timeEntries(from: $from, to: "2026-06-14") { id } } }`, { from: "2026-13-45" }),
      status: 400,
      code: "BAD_USER_INPUT",
      check: (a) => {
        noStackOrInternals(a);
        expect(a.body.errors[0].message).toMatch(/calendar date/);
      },
      maxUpstreamCalls: 2,
    },
    {
      name: "a date a subgraph's scalar refuses (literal) is BAD_USER_INPUT",
      send: gateway(`{ employee(id: "10") { id timeEntries(from: "yesterday", to: "2026-06-14") { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: noStackOrInternals,
      maxUpstreamCalls: 2,
    },
    {
      name: "an id with a path in it is a client error before any upstream call, never an internal one",
      send: gateway(`{ employee(id: "../../connect/token") { id } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: noStackOrInternals,
    },
    { name: "a validation error has no stack trace", send: gateway(`{ nope }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noStackOrInternals },
  ]);
});
