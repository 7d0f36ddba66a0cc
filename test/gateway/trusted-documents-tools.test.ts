import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { generatePersistedQueryIdsFromManifest } from "@apollo/persisted-query-lists";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Environment, fetchQuery, Network, RecordSource, Store, type OperationType } from "relay-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../gateway/gateway.js";
import { TOUR_VARIABLES } from "../../gateway/operations.js";
import { readManifest } from "../../gateway/trusted-documents.js";
import { compileRelay, relayConfig, REPO_ROOT, runCodegen } from "../helpers/frontends.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { upstreamCalls } from "../helpers/stack.js";

/**
 * GATEWAY_TRUSTED_DOCUMENTS=enforce with the manifest each frontend tool writes, produced here by
 * the real tool and given to the gateway as it comes (gateway/trusted-documents.ts, readManifest):
 * graphql-codegen client-preset's persisted-documents.json, Apollo's persisted query manifest and
 * relay-compiler's persisted queries. Each tool's client sends a listed operation the way it does
 * (a `documentId`, APQ's hash) and is answered; an unlisted document is refused before any
 * upstream call.
 */

const run = promisify(execFile);
const stack = useGatewayStack();
const gateways: RunningGateway[] = [];
const dirs: string[] = [];
const UNLISTED = `{ employee(id: "5") { givenName } }`;

async function enforcing(manifest: string): Promise<RunningGateway> {
  const gateway = await startExtraGateway(stack, { GATEWAY_TRUSTED_DOCUMENTS: "enforce", GATEWAY_TRUSTED_DOCUMENTS_MANIFEST: manifest });
  gateways.push(gateway);
  return gateway;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function expectUnlistedRefused(url: string): Promise<void> {
  stack.resetStats();
  const refused = await post(url, { query: UNLISTED });
  expect(refused.status).toBe(400);
  expect(refused.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_IN_LIST");
  expect(upstreamCalls(stack.stats())).toBe(0);
}

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("trusted documents as the frontend tools write them", () => {
  it("graphql-codegen client-preset: persisted-documents.json (sha256:<hex> keys), a documentId per operation", async () => {
    const out = await runCodegen();
    dirs.push(out);
    const file = join(out, "gql", "persisted-documents.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
    expect(Object.keys(manifest).every((k) => /^sha256:[0-9a-f]{64}$/.test(k))).toBe(true);
    const gateway = await enforcing(file);
    // the client preset's documents carry their hash; its documented fetcher sends it as documentId
    const { OrgChartDocument } = (await import(join(out, "gql", "graphql.ts"))) as { OrgChartDocument: { __meta__: { hash: string } } };
    const res = await post(gateway.url, { documentId: OrgChartDocument.__meta__.hash, variables: TOUR_VARIABLES.OrgChart });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.department.id).toBe(TOUR_VARIABLES.OrgChart!.departmentId);
    await expectUnlistedRefused(gateway.url);
  }, 120_000);

  it("Apollo: the persisted query manifest of @apollo/generate-persisted-query-manifest, sent by Apollo Client's persisted query link", async () => {
    const dir = await tempDir("apollo-pq-");
    const file = join(dir, "persisted-query-manifest.json");
    await writeFile(join(dir, "persisted-query-manifest.config.json"), JSON.stringify({ documents: [join(REPO_ROOT, "operations", "*.graphql")], output: file }));
    const cli = createRequire(import.meta.url).resolve("@apollo/generate-persisted-query-manifest/cli.js");
    await run(process.execPath, [cli], { cwd: dir });
    const manifest = JSON.parse(await readFile(file, "utf8")) as { format: string; operations: Array<{ id: string; name: string; body: string }> };
    expect(manifest.format).toBe("apollo-persisted-query-manifest");
    const gateway = await enforcing(file);

    const sent: unknown[] = [];
    const spy = new HttpLink({
      uri: gateway.url,
      fetch: async (url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return fetch(url, init);
      },
    });
    const client = new ApolloClient({ link: new PersistedQueryLink(generatePersistedQueryIdsFromManifest({ loadManifest: () => manifest })).concat(spy), cache: new InMemoryCache() });
    const source = await readFile(join(REPO_ROOT, "operations", "org-chart.graphql"), "utf8");
    const result = await client.query({ query: gql(source), variables: TOUR_VARIABLES.OrgChart });
    expect((result.data as { department: { id: string } }).department.id).toBe(TOUR_VARIABLES.OrgChart!.departmentId);
    // the hash alone, as the manifest names it
    const id = manifest.operations.find((o) => o.name === "OrgChart")!.id;
    expect(sent).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ persistedQuery: { version: 1, sha256Hash: id } }) })]);
    expect(sent[0]).not.toHaveProperty("query");
    await expectUnlistedRefused(gateway.url);
  }, 120_000);

  it("Relay: relay-compiler's persistConfig file (SHA256), a documentId from the artifact", async () => {
    const dir = await tempDir("relay-pq-");
    await compileRelay(dir, relayConfig({ persistConfig: { file: "./persisted-queries.json", algorithm: "SHA256" } }));
    const file = join(dir, "persisted-queries.json");
    expect(readManifest(file).size).toBe(3);
    const gateway = await enforcing(file);
    const network = Network.create(async (params, variables) => {
      // the artifact carries the id and no text: the network sends the id
      expect(params.text).toBeNull();
      return (await post(gateway.url, { documentId: params.id, variables })).body;
    });
    const environment = new Environment({ network, store: new Store(new RecordSource()), getDataID: (fieldValue) => fieldValue.nodeId });
    const app = (await import(join(dir, "src", "__generated__", "AppQuery.graphql.ts"))).default;
    await fetchQuery<OperationType>(environment, app, { id: "5" }).toPromise();
    expect(environment.getStore().getSource().get(Buffer.from("Department:5").toString("base64url"))).toMatchObject({ name: expect.any(String) });
    await expectUnlistedRefused(gateway.url);
  }, 120_000);

  it("a manifest whose ids are not SHA-256 (Relay's default MD5) stops the gateway at start, naming the entry", async () => {
    const dir = await tempDir("relay-md5-");
    await compileRelay(dir, relayConfig({ persistConfig: { file: "./persisted-queries.json" } }));
    expect(() => readManifest(join(dir, "persisted-queries.json"))).toThrow(/the entry [0-9a-f]{23}… is not "<sha256 of the document>".*"algorithm": "SHA256"/);
  }, 120_000);
});
