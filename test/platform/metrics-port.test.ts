import { afterAll, expect, it } from "vitest";
import { freePorts, killAll, runScript } from "../helpers/process.js";

/**
 * METRICS_PORT (platform/metrics-port.ts): a component run alone serves `/metrics` on that port
 * only, so that the Service publishing its own port does not publish its metrics.
 */

afterAll(killAll);

it("a subgraph with METRICS_PORT answers /metrics there, and 404 on its own port", async () => {
  const [port, metrics] = await freePorts(2);
  const people = runScript("subgraphs/people/main.ts", { PEOPLE_PORT: String(port), METRICS_PORT: String(metrics), LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "0" });
  await people.waitFor(/"msg":"listening"/, 30_000);
  const scraped = await fetch(`http://127.0.0.1:${metrics}/metrics`);
  expect(scraped.status).toBe(200);
  expect(await scraped.text()).toContain("graphql_operations_in_flight");
  expect((await fetch(`http://127.0.0.1:${metrics}/graphql`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  expect(await people.stop("SIGTERM")).toEqual({ code: 0, signal: null });
});
