import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway, type RunningGateway } from "../../gateway/gateway.js";
import { Logger } from "../../platform/log.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * The gateway's own unexpected errors (a subgraph answering what is not GraphQL): masked, with an errorId that
 * leads to the log line holding the real message; GRAPHQL_DEBUG_ERRORS shows them as they are. A
 * subgraph it cannot reach is SUBGRAPH_UNAVAILABLE instead.
 */

const stack = useGatewayStack();
let deadPeople: string;
/** a "subgraph" answering 500 with a body that is not GraphQL: an error the gateway did not expect */
let brokenPeople: string;
const broken = createHttpServer((_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("boom at 10.1.2.3"));
const lines: Array<Record<string, any>> = [];
const gateways: RunningGateway[] = [];

async function gatewayWith(env: Record<string, string>): Promise<RunningGateway> {
  const logger = new Logger("gateway", "info", (line) => lines.push(JSON.parse(line)));
  const gateway = await startGateway(loadGatewayConfig({ ...stack.gatewayEnv, PEOPLE_URL: deadPeople, LOG_LEVEL: "info", ...env }), logger);
  gateways.push(gateway);
  return gateway;
}

beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  deadPeople = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
  brokenPeople = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  broken.close();
});

describe("an unexpected gateway error", () => {
  it("is masked with an errorId that names its log line, without the subgraph's address", async () => {
    const gateway = await gatewayWith({ PEOPLE_URL: brokenPeople });
    const res = await postGraphQL(gateway.url, `{ employee(id: "10") { id email } department(id: "5") { name } }`, undefined, { "x-request-id": "broken-1" });
    expect(res.data).toMatchObject({ employee: null, department: { name: expect.any(String) } });
    const error = res.errors!.find((e) => e.path?.[0] === "employee") ?? res.errors![0]!;
    expect(error.message).toBe("Internal server error");
    expect(error.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(JSON.stringify(res)).not.toContain(new URL(brokenPeople).host);
    expect(JSON.stringify(res)).not.toContain("boom");
    const logged = lines.find((l) => l.msg === "unexpected error" && l.errorId === error.extensions!.errorId);
    expect(logged?.level).toBe("error");
    expect(String(logged?.error)).toMatch(/500/);
    // the gateway writes that line without the request id (request-scope.ts): its operation line joins them
    expect(lines.find((l) => l.msg === "operation" && l.requestId === "broken-1")?.errorIds).toEqual([error.extensions!.errorId]);
  });

  it("a subgraph that cannot be reached is SUBGRAPH_UNAVAILABLE with its name, not its address; the operation's log line says it", async () => {
    const gateway = await gatewayWith({});
    const res = await postGraphQL(gateway.url, `{ employee(id: "10") { id email } department(id: "5") { name } }`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ employee: null, department: { name: expect.any(String) } });
    const error = res.errors!.find((e) => e.path?.[0] === "employee") ?? res.errors![0]!;
    expect(error.extensions).toEqual({ code: "SUBGRAPH_UNAVAILABLE", subgraph: "people", retryable: true });
    expect(JSON.stringify(res)).not.toContain(new URL(deadPeople).host);
    expect(lines.some((l) => l.msg === "operation" && JSON.stringify(l.codes ?? "").includes("SUBGRAPH_UNAVAILABLE"))).toBe(true);
  });

  it("GRAPHQL_DEBUG_ERRORS=true shows it as it is", async () => {
    const gateway = await gatewayWith({ GRAPHQL_DEBUG_ERRORS: "true", PEOPLE_URL: brokenPeople });
    const res = await postGraphQL(gateway.url, `{ employee(id: "10") { id email } }`);
    expect(res.errors![0]!.message).not.toBe("Internal server error");
    expect(res.errors![0]!.extensions).toHaveProperty("stacktrace");
  });
});
