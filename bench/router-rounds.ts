import "reflect-metadata";
import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";
import { buildHTTPExecutor, type AsyncFetchFn } from "@graphql-tools/executor-http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateCompany } from "../directory/data/generate.js";
import { loadOperations, pickDemoData, variablesOf } from "../harness/operations.js";
import { startGatewayStack } from "../harness/gateway-stack.js";
import { measureRounds } from "../harness/rounds.js";
import { hiveGatewayConfig } from "../gateway/hive.config.js";
/**
 * `npx tsx bench/router-rounds.ts [OperationName…]` (ROUTER_PLANNER=rust: Hive's Rust planner; URLS=1:
 * with query strings): bench/rounds.ts for a company's router, Hive Gateway serving the committed
 * supergraph over the subgraphs in one process: each operation's waves of upstream requests at
 * 150 ms each, then the subgraph fetches the router sent, with when it sent them (ms).
 */
process.env.LOG_LEVEL ??= "error";
const TODAY = "2026-06-15";
const demo = pickDemoData(generateCompany({ employees: 300, today: TODAY }));
const wanted = process.argv.slice(2);
const ops = loadOperations().filter((o) => wanted.includes(o.name));
const stack = await startGatewayStack({ directory: { employees: 300, today: TODAY }, ...(process.env.DIRECTORY_REFERENCE_FRESH_S ? { env: { DIRECTORY_REFERENCE_FRESH_S: process.env.DIRECTORY_REFERENCE_FRESH_S } } : {}) });
const log: string[] = [];
const rust = process.env.ROUTER_PLANNER === "rust";
const hive = createGatewayRuntime({
  ...hiveGatewayConfig(stack.gatewayEnv as any), logging: false, landingPage: false, maskedErrors: false,
  transports: { http: { getSubgraphExecutor: ({ transportEntry, fetch }: any) => buildHTTPExecutor({ endpoint: transportEntry.location!, fetch: (async (u: any, init: any) => { log.push(`${performance.now().toFixed(0)} ${transportEntry.subgraph}: ${init?.body}`); return (fetch as any)(u, init); }) as AsyncFetchFn }) } },
  ...(rust ? { unifiedGraphHandler: (await import("@graphql-hive/router-runtime")).unifiedGraphHandler } : {}),
} as any);
const server = createServer(hive);
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
for (const op of ops) {
  const run = async () => { const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json", }, body: JSON.stringify({ query: op.source, variables: variablesOf(demo, op) }) }); const j: any = await r.json(); if (j.errors) throw new Error(JSON.stringify(j.errors)); };
  for (let i = 0; i < 2; i++) await run();
  log.length = 0;
  const { waves } = await measureRounds(stack.directory, run, { latencyMs: 150, urls: process.env.URLS === "1" });
  console.log(op.name, waves.length, "rounds");
  waves.forEach((w, i) => console.log(`  ${i + 1}: ${w.join("; ")}`));
  console.log(log.join("\n"));
}
server.close(); server.closeAllConnections(); await hive.dispose(); await stack.close();
process.exit(0);
