import { afterEach, describe, expect, it } from "vitest";
import { createServer, connect, type AddressInfo, type Server } from "node:net";
import { startExtraGateway, startGatewayStack, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Probes that keep the fleet serving (platform/readiness.ts): `/ready` says the replica can take
 * traffic (started, not draining, the gateway's subgraphs answering), never the upstream's state,
 * so an upstream outage leaves every replica in the load balancer answering GraphQL errors; that
 * state is `/health/upstream` (the token endpoint answers and no breaker is open) and the
 * `upstream_up` metric, kept for READY_CHECK_INTERVAL_MS so that they cost at most one upstream
 * call per interval; `/health` calls nothing.
 */

const INTERVAL_MS = 400;
const stack = useGatewayStack({ env: { READY_CHECK_INTERVAL_MS: String(INTERVAL_MS) }, gatewayEnv: { READY_CHECK_INTERVAL_MS: String(INTERVAL_MS) } });
const faults = (settings: Record<string, number>) =>
  fetch(`${stack.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(settings) });
const NAMES = ["people", "organisation", "legacy-time"] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readyOf = async (url: string, path = "/ready") => {
  const res = await fetch(new URL(path, url));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

afterEach(async () => {
  await fetch(`${stack.directory.url}/_admin/faults`, { method: "DELETE" });
  await sleep(INTERVAL_MS);
});

describe("readiness", () => {
  it("a subgraph's upstream state is /health/upstream; /ready and /health cost no upstream call", async () => {
    await sleep(INTERVAL_MS);
    expect(await readyOf(stack.subgraphs.people!.url, "/health/upstream")).toEqual({
      status: 200,
      body: { status: "ok", subgraph: "people", upstream: { token: "ok", breakers: { current: "closed", legacy: "closed", token: "closed" } } },
    });
    await sleep(INTERVAL_MS);
    stack.resetStats();
    for (let i = 0; i < 5; i++) expect(await readyOf(stack.subgraphs.people!.url)).toEqual({ status: 200, body: { status: "ready", subgraph: "people" } });
    for (let i = 0; i < 5; i++) expect((await fetch(new URL("/health", stack.subgraphs.people!.url))).status).toBe(200);
    expect((await fetch(new URL("/health", stack.gateway.url))).status).toBe(200);
    expect((await readyOf(stack.gateway.url)).status).toBe(200);
    expect(stack.stats().total).toBe(0);
  });

  it("with the upstream answering 100% 503, /ready stays 200 everywhere and operations answer UPSTREAM_UNAVAILABLE", async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    await sleep(INTERVAL_MS);
    for (const name of NAMES) {
      expect(await readyOf(stack.subgraphs[name]!.url)).toEqual({ status: 200, body: { status: "ready", subgraph: name } });
    }
    expect(await readyOf(stack.gateway.url)).toEqual({ status: 200, body: { status: "ready", subgraphs: { people: "ok", organisation: "ok", "legacy-time": "ok" } } });
    const answer = await stack.query('{ employee(id: "2") { id } }');
    expect(answer.errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    // the outage shows where an operator looks: the detailed answer and the metric
    const subgraph = await readyOf(stack.subgraphs.organisation!.url, "/health/upstream");
    expect(subgraph.status).toBe(503);
    expect(subgraph.body).toMatchObject({ status: "unavailable", upstream: { token: "status 503" } });
    const metrics = await (await fetch(new URL("/metrics", stack.gateway.url))).text();
    for (const name of NAMES) expect(metrics).toContain(`upstream_up{component="${name}"} 0`);
    await fetch(`${stack.directory.url}/_admin/faults`, { method: "DELETE" });
    await sleep(INTERVAL_MS);
    expect(await (await fetch(new URL("/metrics", stack.gateway.url))).text()).toContain('upstream_up{component="people"} 1');
  });

  it("upstream checks cost at most one upstream call per interval and subgraph, however many come", async () => {
    await sleep(INTERVAL_MS);
    stack.resetStats();
    const urls = NAMES.map((name) => stack.subgraphs[name]!.url);
    await Promise.all(Array.from({ length: 20 }, (_, i) => readyOf(urls[i % 3]!, "/health/upstream")));
    await fetch(new URL("/metrics", stack.gateway.url));
    for (let i = 0; i < 10; i++) await readyOf(urls[i % 3]!, "/health/upstream");
    // one check of each of the three subgraphs (they share the upstream client but each keeps its own answer)
    expect(stack.stats().total).toBe(3);
  });

  it("an open breaker shows in /health/upstream while the token endpoint still answers; /ready stays 200", async () => {
    const own = await startGatewayStack({ env: { READY_CHECK_INTERVAL_MS: "0", DIRECTORY_BREAKER_FAILURES: "1", DIRECTORY_RETRIES: "0", DIRECTORY_BREAKER_OPEN_S: "60" } });
    try {
      // with a token in hand, the employee read fails with a 500 once: the current API's breaker opens
      expect((await own.gql(own.subgraphs.people!.url, '{ employee(id: "2") { id } }')).errors).toBeUndefined();
      await fetch(`${own.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ errorRate: 1, errorStatus: 500 }) });
      await own.gql(own.subgraphs.people!.url, '{ employee(id: "1") { id } }');
      await fetch(`${own.directory.url}/_admin/faults`, { method: "DELETE" });
      const upstream = await readyOf(own.subgraphs.people!.url, "/health/upstream");
      expect(upstream.status).toBe(503);
      expect(upstream.body).toMatchObject({ status: "unavailable", upstream: { token: "ok", breakers: { current: "open" } } });
      expect((await readyOf(own.subgraphs.people!.url)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("the gateway probes a subgraph on a port fetch refuses (6000, 6665–6669)", async () => {
    // a TCP relay to the legacy-time subgraph on the first of those ports that is free
    const target = new URL(stack.subgraphs["legacy-time"]!.url);
    let relay: Server | undefined;
    for (const port of [6666, 6667, 6668, 6669, 6665, 6000]) {
      relay = await new Promise<Server | undefined>((resolve) => {
        const server = createServer((socket) => {
          const upstream = connect(Number(target.port), target.hostname);
          socket.pipe(upstream).pipe(socket);
          socket.on("error", () => upstream.destroy());
          upstream.on("error", () => socket.destroy());
        });
        server.once("error", () => resolve(undefined));
        server.listen(port, "127.0.0.1", () => resolve(server));
      });
      if (relay) break;
    }
    if (!relay) throw new Error("ports 6000 and 6665–6669 are all taken");
    const gateway = await startExtraGateway(stack, { LEGACY_TIME_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/graphql` });
    try {
      expect(await readyOf(gateway.url)).toEqual({ status: 200, body: { status: "ready", subgraphs: { people: "ok", organisation: "ok", "legacy-time": "ok" } } });
    } finally {
      await gateway.close();
      await new Promise((resolve) => relay!.close(resolve));
    }
  });
});
