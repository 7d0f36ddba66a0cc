import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { DirectoryChange } from "../../subgraphs/shared/events/index.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { collect, gatewaySse, publishUntil, type Received } from "../helpers/subscriptions.js";
import { post, send } from "./harness.js";

/**
 * One client identity for every per-client limit (gateway/rate-limits.ts clientOf): operations,
 * subscriptions, graphql-ws connections and file fetches each count a client as its proxy-aware
 * address (behind GATEWAY_TRUSTED_PROXIES, the forwarded one), and a credential as the client
 * only once the directory accepted it: a rotating junk `Authorization` header buys no budget of
 * its own, in service mode (where the facade verifies none) or in forward mode. graphql-ws
 * messages are bounded as HTTP bodies are, and `/graphql/stream` answers an oversized body 413.
 */

const disposers: Array<() => unknown> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

const PROXIES = "127.0.0.1/32, ::1";
const SUBSCRIPTION = `subscription Changed($ids: [ID!]) { employeeChanged(ids: $ids) { topic id employee { id } } }`;
let junk = 0;
const junkBearer = () => `Bearer junk-${++junk}-${Math.random().toString(36).slice(2)}`;
const forwarded = (address: string) => ({ "x-forwarded-for": address });

let seq = 0;
const change = (resourceId: string): DirectoryChange => ({
  id: `identity-${++seq}-${Date.now()}`,
  topic: "employee.updated",
  occurredAt: "2026-06-15T10:00:00.000Z",
  resource: { type: "employee", id: resourceId },
  establishmentIds: ["1"],
  previousAttributes: {},
});

const refusedPerClient = (subs: Received[]) => subs.filter((s) => s.results.some((r) => r.errors?.[0]?.extensions?.code === "RATE_LIMITED")).length;

/** a graphql-ws connection's upgrade: the status it was refused with, or "open" */
function upgrade(url: string, headers: Record<string, string>): Promise<{ ws: WebSocket | null; status: number | "open" }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, "ws").replace(/\/$/, "")}/graphql`, "graphql-transport-ws", { headers });
    ws.once("open", () => {
      disposers.push(() => ws.close());
      resolve({ ws, status: "open" });
    });
    ws.once("unexpected-response", (_req, res) => {
      res.resume();
      resolve({ ws: null, status: res.statusCode ?? 0 });
    });
    ws.once("error", reject);
  });
}

describe("client identity: service mode behind a trusted proxy", () => {
  const stack = useGatewayStack({
    gatewayEnv: { GATEWAY_RATE_LIMIT: "3", GATEWAY_SUBSCRIPTIONS_PER_CLIENT: "2", GATEWAY_WS_CONNECTIONS_PER_CLIENT: "2", GATEWAY_TRUSTED_PROXIES: PROXIES },
  });
  const sse = (headers: Record<string, string>, id: string) => collect((sink) => gatewaySse(stack.gateway.url, disposers, headers).subscribe({ query: SUBSCRIPTION, variables: { ids: [id] } }, sink));

  it("counts operations by the forwarded address whatever Authorization header each carries", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(stack.gateway.url, { query: "{ __typename }" }, { ...forwarded("198.51.100.10"), authorization: junkBearer() })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // another client behind the same proxy has its own budget
    expect((await post(stack.gateway.url, { query: "{ __typename }" }, forwarded("198.51.100.11"))).status).toBe(200);
  });

  it("counts subscriptions by the forwarded address: a junk credential on each buys none, two clients behind the proxy have their own", async () => {
    // one client, three subscriptions, each with a fresh junk credential: one refused (limit 2)
    const rotating = [0, 1, 2].map(() => sse({ ...forwarded("198.51.100.20"), authorization: junkBearer() }, "14"));
    // two clients behind the proxy, two each: all open
    const apart = ["198.51.100.21", "198.51.100.21", "198.51.100.22", "198.51.100.22"].map((address) => sse(forwarded(address), "14"));
    const all = [...rotating, ...apart];
    await publishUntil(stack.feed, () => change("14"), () => all.every((s) => s.results.length > 0 || s.error !== null));
    const figures = { rotatingRefused: refusedPerClient(rotating), apartRefused: refusedPerClient(apart) };
    expect(figures).toEqual({ rotatingRefused: 1, apartRefused: 0 });
  });

  it("bounds graphql-ws connections per forwarded address (GATEWAY_WS_CONNECTIONS_PER_CLIENT)", async () => {
    const statuses: Array<number | "open"> = [];
    for (let i = 0; i < 4; i++) statuses.push((await upgrade(stack.gateway.url, { ...forwarded("198.51.100.30"), authorization: junkBearer() })).status);
    expect(statuses).toEqual(["open", "open", 429, 429]);
    expect((await upgrade(stack.gateway.url, forwarded("198.51.100.31"))).status).toBe("open");
  });

  it("closes a graphql-ws connection sent a message over 1 MiB (1009), as an HTTP body is bounded", async () => {
    const { ws } = await upgrade(stack.gateway.url, forwarded("198.51.100.40"));
    await new Promise<void>((resolve) => {
      ws!.once("message", () => resolve());
      ws!.send(JSON.stringify({ type: "connection_init" }));
    });
    // the connection's close code, or the server's answer when it kept the message (as ws's 100 MiB default did)
    const outcome = new Promise<number | string>((resolve) => {
      ws!.once("close", (code) => resolve(code));
      ws!.once("message", (data) => resolve(String(data).slice(0, 80)));
    });
    ws!.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: `subscription { employeeChanged { id } } # ${"x".repeat(2 << 20)}` } }));
    expect(await outcome).toBe(1009);
  });

  it("answers a /graphql/stream body over 1 MiB with 413", async () => {
    const answer = await send(`${stack.gateway.url.replace(/\/$/, "")}/graphql/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: `subscription { employeeChanged { id } } # ${"x".repeat(2 << 20)}` }),
    });
    expect(answer.status).toBe(413);
  });
});

describe("client identity: forward mode", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" }, gatewayEnv: { GATEWAY_RATE_LIMIT: "3", GATEWAY_UNVERIFIED_TOKEN_LIMIT: "3", GATEWAY_TRUSTED_PROXIES: PROXIES } });

  it("counts file fetches with a fresh junk bearer each against the forwarded address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(`${stack.gateway.url.replace(/\/$/, "")}/files/not-a-link`, { headers: { ...forwarded("198.51.100.50"), authorization: junkBearer() } })).status);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it("counts the checks of fresh junk bearers against the forwarded address, and a verified token as its own client", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(stack.gateway.url, { query: `{ employee(id: "10") { id } }` }, { ...forwarded("198.51.100.60"), authorization: junkBearer() })).status);
    // each junk token costs one directory check, GATEWAY_UNVERIFIED_TOKEN_LIMIT of them per address
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // a token the directory accepted is a client of its own, from its first operation
    const token = await stack.token("demo-client");
    const verified: number[] = [];
    for (let i = 0; i < 4; i++) verified.push((await post(stack.gateway.url, { query: `{ employee(id: "10") { id } }` }, { ...forwarded("198.51.100.61"), authorization: `Bearer ${token}` })).status);
    expect(verified).toEqual([200, 200, 200, 429]);
  });
});
