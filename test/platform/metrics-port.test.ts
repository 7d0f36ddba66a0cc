import { createServer } from "node:net";
import { afterAll, expect, it } from "vitest";
import { freePorts, killAll, logLines, runScript, runToExit } from "../helpers/process.js";

/**
 * METRICS_PORT (platform/metrics-port.ts): a component run alone serves `/metrics` on that port
 * only, so that the Service publishing its own port does not publish its metrics.
 */

afterAll(killAll);

it("a subgraph with METRICS_PORT answers /metrics there, and 404 on its own port", async () => {
  const [port, metrics] = await freePorts(2);
  const people = runScript("subgraphs/people/main.ts", { PEOPLE_PORT: String(port), METRICS_PORT: String(metrics), LOG_LEVEL: "info", SHUTDOWN_GRACE_MS: "0" });
  await people.waitFor(/"msg":"listening"/);
  const scraped = await fetch(`http://127.0.0.1:${metrics}/metrics`);
  expect(scraped.status).toBe(200);
  expect(await scraped.text()).toContain("graphql_operations_in_flight");
  expect((await fetch(`http://127.0.0.1:${metrics}/graphql`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  expect(await people.stop("SIGTERM")).toEqual({ code: 0, signal: null });
});

it.each([
  ["a subgraph", "subgraphs/people/main.ts", "PEOPLE_PORT", true],
  ["the gateway", "gateway/main.ts", "GATEWAY_PORT", false],
])("%s whose METRICS_PORT is taken exits 1 naming METRICS_PORT and that port, not its own port", async (_, script, portVariable, logged) => {
  const [port, metrics] = await freePorts(2);
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(metrics, "127.0.0.1", resolve));
  try {
    const { exit, stdout, stderr } = await runToExit(script, { [portVariable]: String(port), METRICS_PORT: String(metrics), LOG_LEVEL: "info" });
    expect(exit.code).toBe(1);
    const output = stdout + stderr;
    expect(output).toContain(`METRICS_PORT=${metrics}`);
    expect(output).not.toContain(String(port));
    // a subgraph says it in its JSON log line, the gateway on stderr before its logger exists
    if (logged) expect(logLines(output, "cannot start")).toMatchObject([{ setting: "METRICS_PORT", port: metrics }]);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
});
