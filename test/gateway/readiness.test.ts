import { afterEach, describe, expect, it } from "vitest";
import { startGatewayStack, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * `/ready` that means it (platform/readiness.ts): a subgraph is ready when its upstream's token
 * endpoint answers and no breaker is open, the gateway when every subgraph is; the answer is kept
 * for READY_CHECK_INTERVAL_MS, so that probes cost at most one upstream call per interval; `/health`
 * calls nothing.
 */

const INTERVAL_MS = 400;
const stack = useGatewayStack({ env: { READY_CHECK_INTERVAL_MS: String(INTERVAL_MS) }, gatewayEnv: { READY_CHECK_INTERVAL_MS: String(INTERVAL_MS) } });
const faults = (settings: Record<string, number>) =>
  fetch(`${stack.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(settings) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readyOf = async (url: string) => {
  const res = await fetch(new URL("/ready", url));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

afterEach(async () => {
  await fetch(`${stack.directory.url}/_admin/faults`, { method: "DELETE" });
  await sleep(INTERVAL_MS);
});

describe("readiness", () => {
  it("a subgraph is ready when its upstream answers; /health costs no upstream call", async () => {
    await sleep(INTERVAL_MS);
    expect(await readyOf(stack.subgraphs.people!.url)).toEqual({
      status: 200,
      body: { status: "ready", subgraph: "people", upstream: { token: "ok", breakers: { current: "closed", legacy: "closed", token: "closed" } } },
    });
    stack.resetStats();
    for (let i = 0; i < 5; i++) expect((await fetch(new URL("/health", stack.subgraphs.people!.url))).status).toBe(200);
    expect((await fetch(new URL("/health", stack.gateway.url))).status).toBe(200);
    expect(stack.stats().total).toBe(0);
  });

  it("with every upstream request failing, the subgraphs and the gateway are not ready", async () => {
    await faults({ errorRate: 1, errorStatus: 503 });
    await sleep(INTERVAL_MS);
    const subgraph = await readyOf(stack.subgraphs.organisation!.url);
    expect(subgraph.status).toBe(503);
    expect(subgraph.body).toMatchObject({ status: "unavailable", upstream: { token: "status 503" } });
    expect(await readyOf(stack.gateway.url)).toEqual({
      status: 503,
      body: { status: "unavailable", subgraphs: { people: "status 503", organisation: "status 503", "legacy-time": "status 503" } },
    });
  });

  it("probes cost at most one upstream call per interval and subgraph, however many come", async () => {
    await sleep(INTERVAL_MS);
    stack.resetStats();
    await Promise.all(Array.from({ length: 20 }, () => readyOf(stack.gateway.url)));
    for (let i = 0; i < 10; i++) await readyOf(stack.gateway.url);
    // one check of each of the three subgraphs (they share the upstream client but each keeps its own answer)
    expect(stack.stats().total).toBe(3);
  });

  it("an open breaker makes the subgraph unready while the token endpoint still answers", async () => {
    const own = await startGatewayStack({ env: { READY_CHECK_INTERVAL_MS: "0", DIRECTORY_BREAKER_FAILURES: "1", DIRECTORY_RETRIES: "0", DIRECTORY_BREAKER_OPEN_S: "60" } });
    try {
      // with a token in hand, the employee read fails with a 500 once: the current API's breaker opens
      expect((await own.gql(own.subgraphs.people!.url, '{ employee(id: "2") { id } }')).errors).toBeUndefined();
      await fetch(`${own.directory.url}/_admin/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ errorRate: 1, errorStatus: 500 }) });
      await own.gql(own.subgraphs.people!.url, '{ employee(id: "1") { id } }');
      await fetch(`${own.directory.url}/_admin/faults`, { method: "DELETE" });
      const ready = await readyOf(own.subgraphs.people!.url);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: "unavailable", upstream: { token: "ok", breakers: { current: "open" } } });
    } finally {
      await own.close();
    }
  });
});
