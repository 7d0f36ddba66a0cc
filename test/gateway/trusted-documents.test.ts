import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { loadOperations, TOUR_VARIABLES } from "../../gateway/operations.js";
import { buildManifest, readManifest, sha256, TRUSTED_DOCUMENTS_MANIFEST } from "../../gateway/trusted-documents.js";
import { processMetrics } from "../../platform/metrics.js";
import { counterValue } from "../../harness/prometheus.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Trusted documents (GATEWAY_TRUSTED_DOCUMENTS): in `enforce`, every operation of operations/
 * passes by its hash (APQ's extension or `documentId`), and an ad-hoc document, the hash of an
 * unknown document and a hash sent with another document are refused with 0 upstream calls.
 */

const stack = useGatewayStack({ gatewayEnv: { GATEWAY_TRUSTED_DOCUMENTS: "enforce" } });
const operations = loadOperations();

async function post(body: unknown, url = stack.gateway.url): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe("the manifest", () => {
  it("is committed and up to date with operations/ (npm run trusted-documents)", () => {
    expect(JSON.parse(readFileSync(TRUSTED_DOCUMENTS_MANIFEST, "utf8"))).toEqual(buildManifest());
    expect(readManifest().size).toBe(operations.length);
  });

  it("the default is off outside production and log in production; a wrong value names the variable", () => {
    expect(loadGatewayConfig({}).trustedDocuments).toBe("off");
    expect(loadGatewayConfig({ NODE_ENV: "production" }).trustedDocuments).toBe("log");
    expect(() => loadGatewayConfig({ GATEWAY_TRUSTED_DOCUMENTS: "strict" })).toThrow(/GATEWAY_TRUSTED_DOCUMENTS must be one of off, log, enforce/);
  });
});

describe("enforce", () => {
  for (const op of operations) {
    it(`${op.name} passes by its hash, as APQ's extension and as documentId`, async () => {
      const hash = sha256(op.source);
      const apq = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } }, variables: TOUR_VARIABLES[op.name] });
      expect(apq.body.errors).toBeUndefined();
      expect(apq.status).toBe(200);
      const byId = await post({ documentId: `sha256:${hash}`, variables: TOUR_VARIABLES[op.name] });
      expect(byId.body.errors).toBeUndefined();
      // the listed document sent whole passes too
      const whole = await post({ query: op.source, variables: TOUR_VARIABLES[op.name] });
      expect(whole.body.errors).toBeUndefined();
    });
  }

  it("a GET with the hash in extensions passes", async () => {
    const op = operations.find((o) => o.kind === "query")!;
    const params = new URLSearchParams({ extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(op.source) } }), variables: JSON.stringify(TOUR_VARIABLES[op.name]) });
    const res = await fetch(`${stack.gateway.url}?${params}`, { headers: { "apollo-require-preflight": "true" } });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
  });

  it("takes the id as `sha256:<hex>` or bare hex alike, as documentId or APQ's hash, by POST and GET; a batch is refused whole either way", async () => {
    const op = operations.find((o) => o.kind === "query")!;
    const variables = TOUR_VARIABLES[op.name];
    for (const id of [`sha256:${sha256(op.source)}`, sha256(op.source)]) {
      for (const form of [{ documentId: id }, { extensions: { persistedQuery: { version: 1, sha256Hash: id } } }]) {
        stack.resetStats();
        const byPost = await post({ ...form, variables });
        expect(byPost.body.errors, JSON.stringify(form)).toBeUndefined();
        expect(stack.stats().total).toBeGreaterThan(0);
        const params = new URLSearchParams({ ...Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])), variables: JSON.stringify(variables) });
        const byGet = (await (await fetch(`${stack.gateway.url}?${params}`, { headers: { "apollo-require-preflight": "true" } })).json()) as any;
        expect(byGet.errors, JSON.stringify(form)).toBeUndefined();
        expect(byGet.data).toEqual(byPost.body.data);
        stack.resetStats();
        const batch = await post([{ ...form, variables }]);
        expect(batch.status).toBe(400);
        expect(batch.body.errors[0].message).toMatch(/Batched requests are not served/);
        expect(stack.stats().total).toBe(0);
      }
    }
  });

  const refusals: Array<[string, () => unknown, string]> = [
    ["an ad-hoc document", () => ({ query: `{ employees(first: 1) { nodes { id } } }` }), "PERSISTED_QUERY_NOT_IN_LIST"],
    ["the hash of an unknown document", () => ({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256("{ employees(first: 1) { nodes { id } } }") } } }), "PERSISTED_QUERY_NOT_IN_LIST"],
    ["an unknown documentId", () => ({ documentId: sha256("nothing") }), "PERSISTED_QUERY_NOT_IN_LIST"],
    [
      "a listed hash with a different document",
      () => ({ query: `{ employees(first: 1) { nodes { id } } }`, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(operations[0]!.source) } } }),
      "BAD_REQUEST",
    ],
    ["a hash that is not one", () => ({ documentId: "../../etc/passwd" }), "BAD_REQUEST"],
  ];
  for (const [what, body, code] of refusals) {
    it(`refuses ${what} with a client error and 0 upstream calls`, async () => {
      stack.resetStats();
      const res = await post(body());
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toEqual({ code });
      expect(JSON.stringify(res.body)).not.toMatch(/stack|node_modules|\/work\//);
      expect(stack.stats().total).toBe(0);
    });
  }

  it("lets introspection through outside production, so the explorers load the schema", async () => {
    const res = await post({ query: `{ __schema { queryType { name } } }` });
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
  });

  it("counts its refusals", async () => {
    const before = await counterValue(processMetrics().trustedDocuments, { outcome: "refused_unknown_document" });
    await post({ query: `{ __typename employees(first: 1) { nodes { id } } }` });
    expect(await counterValue(processMetrics().trustedDocuments, { outcome: "refused_unknown_document" })).toBe(before + 1);
  });
});

describe("off: APQ's registration with a `sha256:` hash", () => {
  it("registers the document under its bare hash and serves it by either spelling", async () => {
    const query = `{ employees(first: 2) { nodes { id } } }`;
    const hash = `sha256:${sha256(query)}`;
    const gateway = await startExtraGateway(stack, { GATEWAY_TRUSTED_DOCUMENTS: "off" });
    try {
      const extensions = { persistedQuery: { version: 1, sha256Hash: hash } };
      const unknown = await post({ extensions }, gateway.url);
      expect(unknown.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
      const registered = await post({ query, extensions }, gateway.url);
      expect(registered.body.errors).toBeUndefined();
      const again = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } }, gateway.url);
      expect(again.body.data).toEqual(registered.body.data);
      expect((await post({ extensions }, gateway.url)).body.data).toEqual(registered.body.data);
    } finally {
      await gateway.close();
    }
  });
});

describe("log", () => {
  it("serves an unlisted document and logs its hash once", async () => {
    const lines: any[] = [];
    const gateway = await startExtraGateway(stack, { GATEWAY_TRUSTED_DOCUMENTS: "log", LOG_LEVEL: "warn" });
    // the gateway's logger is made from its config: catch its lines from stderr
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: any[]) => {
      const text = String(chunk);
      if (text.includes("trusted documents")) lines.push(JSON.parse(text));
      return write(chunk as any, ...rest);
    }) as typeof process.stderr.write;
    try {
      const query = `{ employees(first: 1) { nodes { id } } }`;
      for (let i = 0; i < 2; i++) {
        const res = await post({ query }, gateway.url);
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.employees.nodes).toHaveLength(1);
      }
    } finally {
      process.stderr.write = write;
      await gateway.close();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn", documentHash: sha256(`{ employees(first: 1) { nodes { id } } }`) });
  });
});
