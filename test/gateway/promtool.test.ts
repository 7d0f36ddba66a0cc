import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";

/**
 * What an operator's Prometheus makes of `/metrics`: `promtool check metrics` (Debian's
 * `prometheus` package) lints the text after every operation of operations/ has run, so that each
 * of our metrics has been written at least once. Its findings on prom-client's default collectors
 * (`nodejs_active_handles_total` and its kin: gauges whose names prom-client chose) are the
 * library's and are left out; any finding on a metric of ours fails.
 */

function promtoolPath(): string | null {
  const found = spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : null;
}

const promtool = promtoolPath();
if (promtool === null) {
  const message = "promtool is not installed: the metrics lint is SKIPPED (apt-get install prometheus)";
  if (process.env.CI) throw new Error(`${message}; CI must run it`);
  console.warn(`\n*** ${message} ***\n`);
}

/** prom-client's default collectors: names the library chose, not ours */
const LIBRARY_METRIC = /^nodejs_/;

describe.skipIf(promtool === null)("/metrics through promtool", () => {
  const stack = useGatewayStack();

  it("after every operation of operations/, promtool finds nothing wrong with a metric of ours", async () => {
    const demo = pickDemoData(stack.directory.company);
    for (const operation of loadOperations()) {
      const answer = await stack.query(operation.source, variablesOf(demo, operation));
      expect(answer.errors).toBeUndefined();
    }
    const text = await (await fetch(new URL("/metrics", stack.gateway.url))).text();
    expect(text).toMatch(/^gateway_subgraph_fetches_total\{/m);
    expect(text).toMatch(/^upstream_requests_total\{/m);
    const lint = spawnSync(promtool!, ["check", "metrics"], { input: text, encoding: "utf8" });
    const findings = `${lint.stdout}\n${lint.stderr}`
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    expect(findings.filter((line) => !LIBRARY_METRIC.test(line))).toEqual([]);
    // the lint ran and read the text: prom-client's findings are there to see
    expect(findings.some((line) => LIBRARY_METRIC.test(line))).toBe(true);
  });
});
