import { serverAudits, type AuditResult } from "graphql-http";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Answers a client can act on (platform/request-errors.ts, docs/graph.md#http-statuses): every
 * kind of request error (no `data`) is a 4xx, with `application/graphql-response+json` and with
 * `application/json` alike; field errors keep 200; a subgraph that cannot be reached is
 * SUBGRAPH_UNAVAILABLE with its name, not its address. graphql-http's server audits pass.
 */

const stack = useGatewayStack({ env: { GRAPHQL_MAX_DEPTH: "15" } });

const ACCEPTS = ["application/graphql-response+json", "application/json"] as const;

async function post(url: string, accept: string, body: unknown): Promise<{ status: number; type: string | null; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept }, body: JSON.stringify(body) });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
}

const REQUEST_ERRORS: Array<[string, unknown, number, string]> = [
  ["a document that does not parse", { query: "{ employee(id: " }, 400, "GRAPHQL_PARSE_FAILED"],
  ["a field that does not exist", { query: "{ nope }" }, 400, "GRAPHQL_VALIDATION_FAILED"],
  ["a variable of the wrong type", { query: "query($first: Int) { employees(first: $first) { nodes { id } } }", variables: { first: "ten" } }, 400, "BAD_USER_INPUT"],
  ["first over 100", { query: "{ employees(first: 101) { nodes { id } } }" }, 400, "BAD_USER_INPUT"],
  ["an id that is not one", { query: '{ employee(id: "../x") { id } }' }, 400, "BAD_USER_INPUT"],
  ["an id in a variable that is not one", { query: "query($id: ID!) { employee(id: $id) { id } }", variables: { id: "../x" } }, 400, "BAD_USER_INPUT"],
  ["an operation name the document does not define", { query: "query A { __typename }", operationName: "B" }, 400, "BAD_USER_INPUT"],
  ["an operation over a limit", { query: `{ ${"a: __typename ".repeat(40)} }` }, 400, "OPERATION_LIMIT_EXCEEDED"],
  ["no query", { variables: {} }, 400, "BAD_REQUEST"],
];

describe("request errors answer a 4xx, whatever checked them", () => {
  for (const accept of ACCEPTS) {
    it.each(REQUEST_ERRORS)(`${accept}: %s`, async (_name, body, status, code) => {
      // a subgraph: with graphql-response+json only (below)
      for (const url of accept === "application/json" ? [stack.gateway.url] : [stack.gateway.url, stack.subgraphs.people!.url]) {
        const answer = await post(url, accept, body);
        expect({ url, status: answer.status }).toEqual({ url, status });
        expect(answer.body.data).toBeUndefined();
        expect(answer.body.errors[0].extensions.code).toBe(code);
        expect(answer.type).toContain(accept);
      }
    });
  }

  it("a subgraph asked for application/json (as routers ask) keeps the specification's 200 for the input checks' refusals, which routers relay", async () => {
    const answer = await post(stack.subgraphs.people!.url, "application/json", { query: "{ employees(first: 101) { nodes { id } } }" });
    expect(answer.status).toBe(200);
    expect(answer.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });

  it("an answer with data keeps 200, even with errors (field errors)", async () => {
    for (const accept of ACCEPTS) {
      const answer = await post(stack.gateway.url, accept, { query: '{ employee(id: "999999") { id } department(id: "999999") { id } }' });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ employee: null, department: null });
    }
  });
});

describe("a subgraph that cannot be reached", () => {
  it("is SUBGRAPH_UNAVAILABLE, retryable, named but not addressed; the rest of the answer stays", async () => {
    // a port that refuses connections
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    const gateway = await startExtraGateway(stack, { LEGACY_TIME_URL: `http://127.0.0.1:${port}/graphql` });
    try {
      const answer = await post(gateway.url, "application/graphql-response+json", {
        // the legacy user by the employees' keys, after people's list (a root employee(id:) is legacy-time's too: its failure would null the whole)
        query: '{ employees(first: 1) { nodes { givenName legacyUser { id } } } }',
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data.employees.nodes[0].givenName).toEqual(expect.any(String));
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0]).toMatchObject({
        message: "The legacy-time subgraph cannot be reached; retry later",
        extensions: { code: "SUBGRAPH_UNAVAILABLE", subgraph: "legacy-time", retryable: true },
      });
      expect(JSON.stringify(answer.body)).not.toContain(String(port));
      expect(JSON.stringify(answer.body)).not.toContain("127.0.0.1");
    } finally {
      await gateway.close();
    }
  });
});

describe("graphql-http's server audits", () => {
  async function audit(url: string) {
    const results: AuditResult[] = [];
    for (const { fn } of serverAudits({ url })) results.push(await fn());
    const count = (status: string) => results.filter((r) => r.status === status).length;
    return { results, counts: { ok: count("ok"), notice: count("notice"), warn: count("warn"), error: count("error") } };
  }

  it.each([["the gateway"], ["the people subgraph"]])("%s: no error", async (which) => {
    const url = which === "the gateway" ? stack.gateway.url : stack.subgraphs.people!.url;
    const { results, counts } = await audit(url);
    const errors = results.filter((r) => r.status === "error").map((r) => `${r.name}: ${"reason" in r ? r.reason : ""}`);
    expect(errors).toEqual([]);
    expect(counts.ok).toBeGreaterThan(0);
    console.log(`graphql-http serverAudits, ${which}: ${JSON.stringify(counts)}; warnings: ${results.filter((r) => r.status === "warn").map((r) => r.name).join(" | ")}`);
  });
});
