import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Logger } from "../../platform/log.js";
import { loadUpstreamConfig, Upstream } from "../../subgraphs/shared/upstream/index.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import { loadSubgraphModule, postGraphQL, useStack } from "../helpers/stack.js";
import { legacyGet } from "./helpers.js";

/**
 * Writes that cannot be lost: several writes to one entity in one operation all apply (each sees
 * the one before), the number of writes in one operation is bounded, a legacy PUT (idempotent)
 * is retried like a read and a POST is sent once, and a write whose outcome nobody knows says so
 * (WRITE_OUTCOME_UNKNOWN) instead of passing for a plain failure. Faults come from the
 * directory's admin routes over HTTP.
 */

const stack = useStack({
  subgraphs: ["legacy-time", "organisation"],
  // a hanging write gives up quickly; 3 writes an operation make the limit cheap to reach
  env: { DIRECTORY_TIMEOUT_MS: "400", GRAPHQL_MAX_MUTATION_FIELDS: "3" },
  logger: new Logger("test", "info", (line) => lines.push(JSON.parse(line))),
});
let url: string;
let orgUrl: string;
const lines: any[] = [];

async function faults(settings: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${stack.directory.url}/_admin/faults`, {
    method: settings ? "PUT" : "DELETE",
    ...(settings ? { headers: { "content-type": "application/json" }, body: JSON.stringify(settings) } : {}),
  });
  expect(res.status).toBeLessThan(300);
}

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  orgUrl = stack.subgraphs.organisation!.url;
  // the service token is fetched once, before any fault
  await stack.gql(orgUrl, `{ taxonomies(first: 1) { nodes { id } } }`);
});
afterEach(() => faults(null));

describe("several writes to one entity in one operation", () => {
  it("two aliased time-entry writes both apply: the second merges into the entry read again under its own lease", async () => {
    const before = (await legacyGet(stack, "/api/v3/timeentries/100095")).data;
    const duration = before.duration === "01:00:00" ? "01:30:00" : "01:00:00";
    stack.resetStats();
    const res = await stack.gql(
      url,
      `mutation($d: String!) { a: updateTimeEntry(id: "100095", input: { duration: $d }) { __typename ... on TimeEntry { duration } }
        b: updateTimeEntry(id: "100095", input: { comment: "second write" }) { __typename ... on TimeEntry { duration comment { content } } } }`,
      { d: duration },
    );
    // each write reads the entry while it holds it: another write (another replica's) may have come
    // between the two (docs/decisions.md#writes-are-serialised-per-record)
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries/{id}": 2, "PUT /api/v3/timeentries/{id}": 2 });
    expect(res.errors).toBeUndefined();
    expect(res.data.a).toEqual({ __typename: "TimeEntry", duration });
    expect(res.data.b).toEqual({ __typename: "TimeEntry", duration, comment: { content: "second write" } });
    const stored = (await legacyGet(stack, "/api/v3/timeentries/100095")).data;
    expect(stored.duration).toBe(duration);
    expect(stored.comment).toMatchObject({ content: "second write" });
  });

  it("a timesheet read after a write in the same operation shows the write", async () => {
    const sheet = `owner { timeEntries(from: "2026-05-25", to: "2026-06-15") { id comment { content } } }`;
    const res = await stack.gql(
      url,
      `mutation { a: updateTimeEntry(id: "100095", input: { comment: "one" }) { ... on TimeEntry { ${sheet} } }
        b: updateTimeEntry(id: "100095", input: { comment: "two" }) { ... on TimeEntry { ${sheet} } } }`,
    );
    expect(res.errors).toBeUndefined();
    const commentIn = (result: any) => result.owner.timeEntries.find((e: any) => e.id === "100095")?.comment?.content;
    expect(commentIn(res.data.a)).toBe("one");
    expect(commentIn(res.data.b)).toBe("two");
  });

  it("a time-entry connection read after a write in the same operation shows the write", async () => {
    const sheet = `owner { timeEntryConnection(first: 100, filter: { startsOn: { from: "2026-05-25", to: "2026-06-15" } }) { nodes { id comment { content } } } }`;
    const res = await stack.gql(
      url,
      `mutation { a: updateTimeEntry(id: "100095", input: { comment: "one" }) { ... on TimeEntry { ${sheet} } }
        b: updateTimeEntry(id: "100095", input: { comment: "two" }) { ... on TimeEntry { ${sheet} } } }`,
    );
    expect(res.errors).toBeUndefined();
    const commentIn = (result: any) => result.owner.timeEntryConnection.nodes.find((e: any) => e.id === "100095")?.comment?.content;
    expect(commentIn(res.data.a)).toBe("one");
    expect(commentIn(res.data.b)).toBe("two");
  });

  it("two aliased axis-section writes both apply", async () => {
    const res = await stack.gql(
      url,
      `mutation { a: updateAxisSection(id: "2", input: { description: "first" }) { __typename }
        b: updateAxisSection(id: "2", input: { code: "TWO-WRITES" }) { __typename ... on AxisSection { code description } } }`,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.b).toEqual({ __typename: "AxisSection", code: "TWO-WRITES", description: "first" });
    const stored = (await legacyGet(stack, "/api/v3/axisSections/2")).data;
    expect(stored).toMatchObject({ code: "TWO-WRITES", description: "first" });
  });
});

describe("the number of writes in one operation", () => {
  it("refuses an operation with more writes than GRAPHQL_MAX_MUTATION_FIELDS before any upstream call", async () => {
    stack.resetStats();
    const aliases = Array.from({ length: 10 }, (_, i) => `w${i}: updateTimeEntry(id: "100095", input: { comment: "c${i}" }) { __typename }`);
    const res = await stack.gql(url, `mutation { ${aliases.join(" ")} }`);
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions).toEqual({ code: "OPERATION_LIMIT_EXCEEDED", limit: "mutationFields", value: 3, actual: 10 });
    expect(stack.stats().total).toBe(0);
  });

  it("counts writes hidden in fragments", async () => {
    stack.resetStats();
    const res = await stack.gql(
      url,
      `mutation { ...W ... on Mutation { c: updateAxisSection(id: "2", input: { description: "c" }) { __typename } } }
       fragment W on Mutation { a: updateAxisSection(id: "2", input: { description: "a" }) { __typename } b: updateAxisSection(id: "2", input: { description: "b" }) { __typename } d: updateAxisSection(id: "2", input: { description: "d" }) { __typename } }`,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "mutationFields", actual: 4 });
    expect(stack.stats().total).toBe(0);
  });

  it("refuses 10 aliased webhook test deliveries with no POST", async () => {
    stack.resetStats();
    const aliases = Array.from({ length: 10 }, (_, i) => `d${i}: triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename }`);
    const res = await stack.gql(orgUrl, `mutation { ${aliases.join(" ")} }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "mutationFields", value: 3, actual: 10 });
    expect(stack.stats().total).toBe(0);
  });

  it("lets an operation with as many writes as allowed through", async () => {
    const aliases = Array.from({ length: 3 }, (_, i) => `w${i}: updateAxisSection(id: "2", input: { description: "d${i}" }) { __typename }`);
    const res = await stack.gql(url, `mutation { ${aliases.join(" ")} }`);
    expect(res.errors).toBeUndefined();
    expect((await legacyGet(stack, "/api/v3/axisSections/2")).data.description).toBe("d2");
  });
});

describe("a legacy PUT is retried like a read, a POST is sent once", () => {
  it("a legacy PUT answered 503 every time is retried, then UPSTREAM_UNAVAILABLE (a 503 applied nothing)", async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    stack.resetStats();
    const res = await stack.gql(url, `mutation { updateLegacyUser(id: "12", input: { quote: "once" }) { __typename } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(stack.stats().byRoute).toEqual({ "PUT /api/v3/users/{id}": 3 });
  });

  it("a legacy PUT that hangs every time is retried within the deadline and answers WRITE_OUTCOME_UNKNOWN", async () => {
    await faults({ hangRate: 1 });
    stack.resetStats();
    const res = await stack.gql(url, `mutation { updateLegacyUser(id: "12", input: { quote: "hang" }) { __typename } }`);
    expect(res.data.updateLegacyUser).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("WRITE_OUTCOME_UNKNOWN");
    expect(res.errors?.[0]?.message).toMatch(/read the item again/);
    expect(stack.stats().byRoute["PUT /api/v3/users/{id}"]).toBeGreaterThan(1);
  });

  it("a legacy PUT answered 504 by a proxy every time answers WRITE_OUTCOME_UNKNOWN after its retries", async () => {
    await faults({ errorRate: 1, errorStatus: 504 });
    stack.resetStats();
    const res = await stack.gql(url, `mutation { updateLegacyUser(id: "12", input: { quote: "proxy" }) { __typename } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("WRITE_OUTCOME_UNKNOWN");
    expect(stack.stats().byRoute).toEqual({ "PUT /api/v3/users/{id}": 3 });
  });

  it("a read answered 504 is still retried (the rule is about writes)", async () => {
    await faults({ errorRate: 1, errorStatus: 504 });
    stack.resetStats();
    const res = await stack.gql(url, `{ axisSection(id: "1") { id } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/axisSections": 3 });
  });

  it("the webhook test delivery answered 503 is POSTed once; one that hangs answers WRITE_OUTCOME_UNKNOWN", async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    stack.resetStats();
    const refused = await stack.gql(orgUrl, `mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename } }`);
    expect(refused.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(stack.stats().byRoute).toEqual({ "POST /service-api/webhook-deliveries": 1 });
    await faults({ hangRate: 1 });
    stack.resetStats();
    const hung = await stack.gql(orgUrl, `mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename } }`);
    expect(hung.errors?.[0]?.extensions?.code).toBe("WRITE_OUTCOME_UNKNOWN");
    expect(stack.stats().byRoute).toEqual({ "POST /service-api/webhook-deliveries": 1 });
  });

  it("the audit line of a write whose outcome is unknown says so", async () => {
    await faults({ hangRate: 1 });
    lines.length = 0;
    await stack.gql(url, `mutation { updateLegacyUser(id: "12", input: { quote: "lost?" }) { __typename } }`);
    const audit = lines.filter((l) => l.audit === "write");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operation: "updateLegacyUser", outcome: "unknown", code: "WRITE_OUTCOME_UNKNOWN" });
  });
});

describe("a connection reset after the write was sent", () => {
  let server: Server;
  let connections = 0;
  let received = "";
  let resetUrl: string;
  let closeSubgraph: () => Promise<void>;
  let upstream: Upstream;

  beforeAll(async () => {
    // an upstream that reads the request and then drops the connection without answering
    server = createServer((socket: Socket) => {
      connections++;
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        if (received.includes("\r\n\r\n")) socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    upstream = new Upstream(
      loadUpstreamConfig({ DIRECTORY_BASE_URL: `http://127.0.0.1:${port}`, DIRECTORY_REQUEST_BUDGET: "off", DIRECTORY_CLIENT_ID: "x", DIRECTORY_CLIENT_SECRET: "y", DIRECTORY_API_KEY: "k" }),
    );
    const running = await startSubgraphModule(await loadSubgraphModule("legacy-time"), { upstream, port: 0 });
    resetUrl = running.url;
    closeSubgraph = running.close;
  });
  afterAll(async () => {
    await closeSubgraph?.();
    await upstream?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("sends the PUT again (it is idempotent) and, with every answer lost, answers WRITE_OUTCOME_UNKNOWN", async () => {
    connections = 0;
    received = "";
    const res = await postGraphQL(resetUrl, `mutation { updateLegacyUser(id: "12", input: { quote: "reset" }) { __typename } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("WRITE_OUTCOME_UNKNOWN");
    expect(received.match(/PUT \/api\/v3\/users\/12\?/g)).toHaveLength(3);
  });

  it("a read in the same situation is retried", async () => {
    connections = 0;
    received = "";
    const res = await postGraphQL(resetUrl, `{ axisSection(id: "1") { id } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(received.match(/^GET /gm)).toHaveLength(3);
  });
});

describe("a write applied upstream whose answer was lost", () => {
  let proxy: HttpServer;
  let cutNextPut = false;
  let proxied: string[] = [];
  let proxyUrl: string;
  let closeSubgraph: () => Promise<void>;
  let upstream: Upstream;

  beforeAll(async () => {
    // in front of the directory: forwards every request, but after forwarding a PUT while
    // `cutNextPut` is set it drops the connection instead of answering (the write was applied)
    proxy = createHttpServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      proxied.push(`${req.method} ${req.url}`);
      const answer = await fetch(`${stack.directory.url}${req.url}`, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization ?? ""), "content-type": "application/json" },
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = await answer.text();
      if (req.method === "PUT" && cutNextPut) {
        cutNextPut = false;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    upstream = new Upstream(loadUpstreamConfig({ DIRECTORY_BASE_URL: proxyUrl, DIRECTORY_REQUEST_BUDGET: "off", DIRECTORY_CLIENT_ID: "x", DIRECTORY_CLIENT_SECRET: "y", DIRECTORY_API_KEY: "demo-api-key" }));
    const running = await startSubgraphModule(await loadSubgraphModule("legacy-time"), { upstream, port: 0 });
    closeSubgraph = running.close;
    proxyUrl = running.url;
  });
  afterAll(async () => {
    await closeSubgraph?.();
    await upstream?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it("sends the PUT again, which settles it: both writes apply, nothing is undone", async () => {
    const before = (await legacyGet(stack, "/api/v3/timeentries/100096")).data;
    const duration = before.duration === "02:45:00" ? "02:15:00" : "02:45:00";
    cutNextPut = true;
    proxied = [];
    const res = await postGraphQL(
      proxyUrl,
      `mutation($d: String!) { a: updateTimeEntry(id: "100096", input: { duration: $d }) { __typename }
        b: updateTimeEntry(id: "100096", input: { comment: "after a lost answer" }) { __typename } }`,
      { d: duration },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ a: { __typename: "TimeEntry" }, b: { __typename: "TimeEntry" } });
    expect(proxied).toEqual([
      "GET /api/v3/timeentries/100096",
      "PUT /api/v3/timeentries/100096",
      "PUT /api/v3/timeentries/100096",
      "GET /api/v3/timeentries/100096",
      "PUT /api/v3/timeentries/100096",
    ]);
    // the first write was applied and the second kept it
    const stored = (await legacyGet(stack, "/api/v3/timeentries/100096")).data;
    expect(stored.duration).toBe(duration);
    expect(stored.comment).toMatchObject({ content: "after a lost answer" });
  });
});
