import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { PatchedDataSource } from "../../gateway/apollo/data-source.js";
import { computeResponse } from "../../gateway/apollo/result-shaping.js";
import { Logger, type LogLevel } from "../../platform/log.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";
import { postGraphQL } from "../helpers/stack.js";
import { SubgraphDataSource } from "../../gateway/subgraph-source.js";

/**
 * gateway/apollo/'s one check, forced to fail by an injected version: the gateway runs on stock
 * @apollo/gateway (no patch installed, no plan rewritten) with one warning, and answers every
 * operation of operations/ as the patched gateway does. This file's stack must be the first
 * gateway of its process: the result shaping, once installed, is the process's.
 */

const lines: Array<{ level: LogLevel; msg: string }> = [];
const logger = new Logger("gateway", "warn", (line, level) => lines.push({ level, msg: (JSON.parse(line) as { msg: string }).msg }));

describe("on a version of @apollo/gateway gateway/apollo/ was not checked against", () => {
  const stack = useGatewayStack({ gatewayLogger: logger, gatewayInjections: { apolloVersions: { gateway: "2.15.0", queryPlanner: "2.15.0" } } });

  it("installs no patch, warns once, and answers every operation as the patched gateway", async () => {
    expect(lines.filter((l) => l.level === "warn" || l.level === "error").map((l) => l.msg)).toEqual([
      expect.stringMatching(/^gateway\/apollo\/ is off, the gateway runs on stock @apollo\/gateway: @apollo\/gateway 2\.15\.0 and @apollo\/query-planner 2\.15\.0 are not/),
    ]);
    const shaping = createRequire(createRequire(import.meta.url).resolve("@apollo/gateway"))("./resultShaping.js") as { computeResponse: unknown };
    expect(shaping.computeResponse).not.toBe(computeResponse);
    expect(Object.prototype.hasOwnProperty.call(PatchedDataSource.prototype, "sendRequest")).toBe(false);

    const demo = pickDemoData(stack.directory.company);
    // the mutation first, on both: it sets the same values each time, which the queries then read
    const operations = loadOperations().sort((a, b) => Number(b.kind === "mutation") - Number(a.kind === "mutation"));
    expect(operations.length).toBeGreaterThanOrEqual(5);
    const stock: unknown[] = [];
    for (const operation of operations) {
      const answer = await stack.query(operation.source, variablesOf(demo, operation));
      expect(answer.errors, operation.name).toBeUndefined();
      expect(answer.data, operation.name).toBeTruthy();
      stock.push(answer);
    }
    // the same operations through a gateway whose check passes: the patched path, the same answers
    const patched = await startExtraGateway(stack);
    try {
      expect(shaping.computeResponse).toBe(computeResponse);
      for (const [i, operation] of operations.entries()) {
        const answer = await postGraphQL(patched.url, operation.source, variablesOf(demo, operation));
        expect(answer, operation.name).toEqual(stock[i]);
      }
    } finally {
      await patched.close();
    }
    expect(lines.filter((l) => l.level === "warn" || l.level === "error")).toHaveLength(1);
  });
});

it("the stock data source reads a fetcher's `Headers` (another version's) into the plain object the gateway's fetch reads", async () => {
  const seen: Array<Record<string, string>> = [];
  const source = new SubgraphDataSource("people", "http://127.0.0.1:1/", null, async (_url, init) => {
    seen.push(init.headers);
    return { status: 200, statusText: "OK", headers: new Headers({ "content-type": "application/json" }), text: '{"data":{}}' };
  });
  const fetcher = source.fetcher as unknown as (url: string, init: RequestInit) => Promise<Response>;
  const answer = await fetcher("http://127.0.0.1:1/", { method: "POST", headers: new Headers({ Authorization: "Bearer t", "x-deadline-ms": "5" }), body: "{}" });
  await fetcher("http://127.0.0.1:1/", { method: "POST", headers: { authorization: "Bearer u" }, body: "{}" });
  expect(seen).toEqual([{ authorization: "Bearer t", "x-deadline-ms": "5" }, { authorization: "Bearer u" }]);
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ data: {} });
  expect(answer.url).toBe("http://127.0.0.1:1/");
});
