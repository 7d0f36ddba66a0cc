import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway, type RunningGateway } from "../../gateway/gateway.js";
import { loadOperations, TOUR_VARIABLES } from "../../gateway/operations.js";
import { sha256 } from "../../gateway/trusted-documents.js";
import { Logger } from "../../platform/log.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";
import { upstreamCalls } from "../helpers/stack.js";

/**
 * Every way to send an operation meets the same checks (docs/security.md#every-request-path): a
 * whole document, an APQ hash by POST and by GET, a `documentId`, a batch. The operation limits,
 * the cost, the per-client rate and write limits and the forward-mode checks of the caller run on
 * the document that runs, before any upstream call; a caller is its credential, not its spelling,
 * and its address, not its port. The figures before the change are in each test's name (issue 34's
 * probe): hash-only requests went past every per-client limit.
 *
 * Each test uses a client address of its own (X-Forwarded-For behind the trusted loopback), so
 * that its buckets start empty.
 */

interface Answer {
  status: number;
  body: any;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text };
}

async function get(url: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const res = await fetch(`${url}?${search}`, { headers: { "apollo-require-preflight": "true", ...headers } });
  return { status: res.status, body: await res.json() };
}

const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
/** served: a 200 without a refusal of a limit or of the caller */
const served = (a: Answer) => a.status === 200 && !(a.body?.errors ?? []).some((e: any) => ["RATE_LIMITED", "UNAUTHENTICATED", "OPERATION_LIMIT_EXCEEDED"].includes(e.extensions?.code));
const from = (address: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": address, ...extra });
const puts = (stats: { byRoute: Record<string, number> }) => Object.entries(stats.byRoute).filter(([route]) => route.startsWith("PUT")).reduce((n, [, c]) => n + c, 0);

const NAMES = `query Names($id: ID!) { employee(id: $id) { id givenName } }`;
const UPDATE = `mutation Update($id: ID!, $input: TimeEntryInput!) { updateTimeEntry(id: $id, input: $input) { __typename } }`;
/** the cost finding: 631 measured with the default left to the server, 60 301 as written */
const SIZED_BY_DEFAULT = `query Reports($n: Int = 100) { employees(first: $n) { nodes { id directReports(first: $n) { nodes { id givenName familyName status email } } } } }`;
const SIZED_LITERALLY = SIZED_BY_DEFAULT.replace("($n: Int = 100)", "").replaceAll("$n", "100");
/** a document whose size a variable gives: cheap when registered, dear when run by its hash */
const PAGE = `query Page($n: Int!) { employees(first: $n) { nodes { id directReports(first: $n) { nodes { id givenName familyName status email } } } } }`;

describe("service mode: GATEWAY_RATE_LIMIT=10, GATEWAY_WRITE_RATE_LIMIT=2, GATEWAY_COST_LIMIT=1000", () => {
  const stack = useGatewayStack({
    // the gateway's GRAPHQL_MAX_COST above the 60 301, so that its per-minute budget is what refuses it; the subgraphs keep 50 000
    gatewayEnv: { GATEWAY_RATE_LIMIT: "10", GATEWAY_WRITE_RATE_LIMIT: "2", GATEWAY_COST_LIMIT: "1000", GRAPHQL_MAX_COST: "100000", GATEWAY_TRUSTED_PROXIES: "127.0.0.1, ::1" },
  });
  const register = async (query: string, variables: Record<string, unknown>) => {
    const registered = await post(stack.gateway.url, { query, variables, extensions: apq(sha256(query)) }, from("198.51.100.250"));
    expect(registered.body.errors).toBeUndefined();
  };

  it("25 hash-only queries by POST: 10 served, then 429 at no upstream call (was 25/25 served)", async () => {
    await register(NAMES, { id: "10" });
    const answers: Answer[] = [];
    for (let i = 0; i < 25; i++) answers.push(await post(stack.gateway.url, { variables: { id: "10" }, extensions: apq(sha256(NAMES)) }, from("198.51.100.1")));
    expect(answers.filter(served)).toHaveLength(10);
    expect(answers.slice(10).map((a) => [a.status, a.body.errors?.[0]?.extensions?.code])).toEqual(Array(15).fill([429, "RATE_LIMITED"]));
  });

  it("15 hash-only GETs: 10 served, then 429 (was 15/15)", async () => {
    await register(NAMES, { id: "10" });
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) answers.push(await get(stack.gateway.url, { variables: { id: "11" }, extensions: apq(sha256(NAMES)) }, from("198.51.100.2")));
    expect(answers.filter(served)).toHaveLength(10);
    stack.resetStats();
    expect((await get(stack.gateway.url, { variables: { id: "11" }, extensions: apq(sha256(NAMES)) }, from("198.51.100.2"))).status).toBe(429);
    expect(stack.stats().total).toBe(0);
  });

  it("12 hash-only mutations: 2 served, 2 PUTs, the rest 429 (was 12/12 and 12 PUTs), as the whole document", async () => {
    await register(UPDATE, TOUR_VARIABLES.UpdateTimeEntry!);
    stack.resetStats();
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await post(stack.gateway.url, { variables: TOUR_VARIABLES.UpdateTimeEntry, extensions: apq(sha256(UPDATE)) }, from("198.51.100.3")));
    expect(answers.filter(served)).toHaveLength(2);
    expect(answers[2]!.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "writes" });
    expect(puts(stack.stats())).toBe(2);
    // the whole document: the same two, then 429
    const whole: number[] = [];
    for (let i = 0; i < 3; i++) whole.push((await post(stack.gateway.url, { query: UPDATE, variables: TOUR_VARIABLES.UpdateTimeEntry }, from("198.51.100.4"))).status);
    expect(whole).toEqual([200, 200, 429]);
  });

  it("a registered hash run with larger variables meets the operation limits: 400 at no upstream call, by POST and GET", async () => {
    await register(PAGE, { n: 1 });
    stack.resetStats();
    const byPost = await post(stack.gateway.url, { variables: { n: 1000 }, extensions: apq(sha256(PAGE)) }, from("198.51.100.5"));
    expect(byPost.status).toBe(400);
    expect(byPost.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost" });
    const byGet = await get(stack.gateway.url, { variables: { n: 1000 }, extensions: apq(sha256(PAGE)) }, from("198.51.100.5"));
    expect(byGet.status).toBe(400);
    expect(byGet.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost" });
    expect(stack.stats().total).toBe(0);
  });

  it("an unknown hash is answered PERSISTED_QUERY_NOT_FOUND, nothing run", async () => {
    stack.resetStats();
    const answer = await post(stack.gateway.url, { extensions: apq(sha256("{ never { sent } }")) }, from("198.51.100.6"));
    expect(answer.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    expect(stack.stats().total).toBe(0);
  });

  it("a batch of hash-only mutations is refused whole: 400, no PUT", async () => {
    await register(UPDATE, TOUR_VARIABLES.UpdateTimeEntry!);
    stack.resetStats();
    const batch = Array.from({ length: 5 }, () => ({ variables: TOUR_VARIABLES.UpdateTimeEntry, extensions: apq(sha256(UPDATE)) }));
    const answer = await post(stack.gateway.url, batch, from("198.51.100.7"));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions.code).toBe("BAD_REQUEST");
    // and at a subgraph, whose own limits a batch would skip
    const direct = await post(stack.subgraphs["legacy-time"]!.url, batch.map(() => ({ query: UPDATE, variables: TOUR_VARIABLES.UpdateTimeEntry })));
    expect(direct.status).toBe(400);
    expect(stack.stats().total).toBe(0);
  });

  it("X-Forwarded-For written `ip:port` is one client whatever the port: 10 of 15 served under 10 (was 15/15)", async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++) answers.push(await post(stack.gateway.url, { query: `{ __typename }` }, from(`198.51.100.8:${40_000 + i}`)));
    expect(answers.filter(served)).toHaveLength(10);
    // the bracketed IPv6 form too
    const v6: Answer[] = [];
    for (let i = 0; i < 11; i++) v6.push(await post(stack.gateway.url, { query: `{ __typename }` }, from(`[2001:db8::8]:${40_000 + i}`)));
    expect(v6.filter(served)).toHaveLength(10);
  });

  it("GATEWAY_COST_LIMIT counts a variable's default: 60 301, over a budget of 1 000 (was 631, served)", async () => {
    stack.resetStats();
    const answer = await post(stack.gateway.url, { query: SIZED_BY_DEFAULT }, from("198.51.100.9"));
    expect(answer.status).toBe(429);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", limit: "cost" });
    expect(stack.stats().total).toBe(0);
  });

  it("GRAPHQL_MAX_COST on a subgraph counts a variable's default as its literal: 60 301 both (was 631)", async () => {
    const people = stack.subgraphs.people!.url;
    stack.resetStats();
    const byDefault = await post(people, { query: SIZED_BY_DEFAULT });
    const literal = await post(people, { query: SIZED_LITERALLY });
    expect(literal.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost", actual: 60_301 });
    expect(byDefault.status).toBe(400);
    expect(byDefault.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost", actual: 60_301 });
    // a variable sent overrides the default; one sent null leaves the argument's own default
    const small = await post(people, { query: SIZED_BY_DEFAULT, variables: { n: 2 } });
    expect(small.body.errors).toBeUndefined();
    expect(stack.stats().total).toBeGreaterThan(0);
  });

  it("a subgraph runs no APQ hash: the operation limits read every document it runs", async () => {
    stack.resetStats();
    const people = stack.subgraphs.people!.url;
    const registered = await post(people, { query: PAGE, variables: { n: 1 }, extensions: apq(sha256(PAGE)) });
    expect(registered.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_SUPPORTED");
    const hashOnly = await post(people, { variables: { n: 1000 }, extensions: apq(sha256(PAGE)) });
    expect(hashOnly.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_SUPPORTED");
    expect(stack.stats().total).toBe(0);
  });

  describe("documentId with another APQ hash", () => {
    const lines: Array<Record<string, unknown>> = [];
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(loadGatewayConfig({ ...stack.gatewayEnv, GATEWAY_RATE_LIMIT: "0", GATEWAY_COST_LIMIT: "0" }), new Logger("gateway", "info", (line) => void lines.push(JSON.parse(line))));
    });
    afterAll(() => gateway?.close());

    it("is a client error, 400 BAD_REQUEST, with no stack trace and no error-level log (was 400 INTERNAL_SERVER_ERROR and a stack trace)", async () => {
      const op = loadOperations().find((o) => o.name === "EmployeeProfile")!;
      stack.resetStats();
      for (let i = 0; i < 5; i++) {
        const answer = await post(gateway.url, { documentId: sha256(op.source), variables: TOUR_VARIABLES.EmployeeProfile, extensions: apq(sha256(`{ other${i} }`)) });
        expect(answer.status).toBe(400);
        expect(answer.body.errors).toHaveLength(1);
        expect(answer.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST" });
        expect(JSON.stringify(answer.body)).not.toMatch(/stack|\bat \w|node_modules/);
      }
      expect(stack.stats().total).toBe(0);
      expect(lines.filter((l) => l.level === "error")).toEqual([]);
      // the same hash twice is one document
      const same = await post(gateway.url, { documentId: sha256(op.source), variables: TOUR_VARIABLES.EmployeeProfile, extensions: apq(sha256(op.source)) });
      expect(same.body.errors).toBeUndefined();
    });
  });
});

describe("forward mode: GATEWAY_RATE_LIMIT=30, GATEWAY_UNVERIFIED_TOKEN_LIMIT=5", () => {
  const stack: GatewayStack = useGatewayStack({
    // 401 employees: the count the alias trick below needs to write `"status":401` into an answer
    directory: { employees: 401 },
    env: { DIRECTORY_AUTH: "forward" },
    gatewayEnv: { GATEWAY_RATE_LIMIT: "30", GATEWAY_UNVERIFIED_TOKEN_LIMIT: "5", GATEWAY_TRUSTED_PROXIES: "127.0.0.1, ::1" },
  });
  const READ = `{ employee(id: "10") { id } }`;
  const spellings = (token: string) => [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `Bearer  ${token}`, `bEaReR ${token}`, `Bearer\t${token}`, `bearer   ${token}`, ` BeArEr  ${token} `];

  it("8 spellings of one token are one caller: 30 of 40 served under 30 (was 40/40)", async () => {
    const token = await stack.token();
    const answers: Answer[] = [];
    for (const authorization of spellings(token)) for (let i = 0; i < 5; i++) answers.push(await post(stack.gateway.url, { query: READ }, from("203.0.113.1", { authorization })));
    expect(answers.filter(served)).toHaveLength(30);
    expect(answers.slice(30).every((a) => a.status === 429)).toBe(true);
  });

  it("a refused token in 8 spellings costs 1 directory call (was 8)", async () => {
    stack.resetStats();
    const answers: Answer[] = [];
    for (const authorization of spellings("junk-token-spelt-8-ways")) answers.push(await post(stack.gateway.url, { query: READ }, from("203.0.113.2", { authorization })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(401));
    expect(upstreamCalls(stack.stats())).toBe(1);
  });

  it("a garbage token's first EmployeeProfile costs 1 directory call, before any fan-out: 401 (was 6–8 calls)", async () => {
    const op = loadOperations().find((o) => o.name === "EmployeeProfile")!;
    stack.resetStats();
    const answer = await post(stack.gateway.url, { query: op.source, variables: TOUR_VARIABLES.EmployeeProfile }, from("203.0.113.3", { authorization: "Bearer garbage-for-the-profile" }));
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/employees": 1 });
  });

  it("the same through its hash, by GET: 1 call, then none", async () => {
    const op = loadOperations().find((o) => o.name === "EmployeeProfile")!;
    stack.resetStats();
    const first = await get(stack.gateway.url, { variables: TOUR_VARIABLES.EmployeeProfile, extensions: apq(sha256(op.source)) }, from("203.0.113.4", { authorization: "Bearer garbage-by-get" }));
    expect(first.status).toBe(401);
    const again = await get(stack.gateway.url, { variables: TOUR_VARIABLES.EmployeeProfile, extensions: apq(sha256(op.source)) }, from("203.0.113.4", { authorization: "bearer  garbage-by-get" }));
    expect(again.status).toBe(401);
    expect(upstreamCalls(stack.stats())).toBe(1);
  });

  it("45 junk tokens from one address: 5 directory calls, then 429 (was 45 calls, no 429)", async () => {
    stack.resetStats();
    const answers: Answer[] = [];
    for (let i = 0; i < 45; i++) answers.push(await post(stack.gateway.url, { query: READ }, from("203.0.113.5", { authorization: `Bearer junk-${i}` })));
    expect(upstreamCalls(stack.stats())).toBe(5);
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual(Array(5).fill(401));
    expect(answers.slice(5).every((a) => a.status === 429 && a.body.errors[0].extensions.limit === "unverifiedTokens")).toBe(true);
    // another address is not held back by this one
    const token = await stack.token();
    expect(served(await post(stack.gateway.url, { query: READ }, from("203.0.113.6", { authorization: `Bearer ${token}` })))).toBe(true);
  });

  it("a valid token is checked once, then served without a check", async () => {
    const token = await stack.token();
    stack.resetStats();
    expect(served(await post(stack.gateway.url, { query: READ }, from("203.0.113.7", { authorization: `Bearer ${token}` })))).toBe(true);
    const first = upstreamCalls(stack.stats());
    stack.resetStats();
    expect(served(await post(stack.gateway.url, { query: READ }, from("203.0.113.7", { authorization: `bearer ${token}` })))).toBe(true);
    expect(upstreamCalls(stack.stats())).toBe(first - 1);
  });

  it("a caller cannot lock its own token out by aliasing a field UNAUTHENTICATED (was: 30 s of 401)", async () => {
    const token = await stack.token();
    const authorization = `Bearer ${token}`;
    const trick = await post(stack.gateway.url, { query: `{ UNAUTHENTICATED: employees(first: 1) { status: totalCount } }` }, from("203.0.113.8", { authorization }));
    expect(JSON.stringify(trick.body)).toContain(`"UNAUTHENTICATED":{"status":401}`);
    const after = await post(stack.gateway.url, { query: READ }, from("203.0.113.8", { authorization }));
    expect(after.status).toBe(200);
    expect(after.body.data.employee.id).toBe("10");
  });

  it("GRAPHQL_MAX_COST at the gateway counts a variable's default, before the caller is asked for: 400 at no call (was 631, served)", async () => {
    stack.resetStats();
    const answer = await post(stack.gateway.url, { query: SIZED_BY_DEFAULT }, from("203.0.113.9", { authorization: "Bearer whoever" }));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost", actual: 60_301 });
    expect(stack.stats().total).toBe(0);
  });
});
