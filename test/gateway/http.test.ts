import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway, type RunningGateway } from "../../gateway/gateway.js";
import { Logger } from "../../platform/log.js";
import { useCloseAfter } from "../helpers/fixture.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { pickDemoData, type Demo } from "../helpers/operations.js";
import { postGraphQL } from "../helpers/stack.js";

/**
 * The gateway's HTTP surface: the shared subgraph secret, `/health` and `/ready`, and the
 * Sandbox landing page outside production.
 */

const SECRET = "gateway-test-secret-of-32-characters-at-least";
/** as the environment left it, before any gateway started in this process */
const telemetrySetting = process.env.APOLLO_TELEMETRY_DISABLED;
const stack = useGatewayStack({ secret: SECRET });
let demo: Demo;
const closeAfter = useCloseAfter();

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
});

const extraGateway = async (env: Record<string, string>): Promise<RunningGateway> => closeAfter(await startExtraGateway(stack, env));

/** A loopback URL on which nothing listens. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

const PROFILE = `query($id: ID!) {
  employee(id: $id) {
    id
    applicableJobPosition { department { name } }
    manager { workContracts { id } }
  }
}`;

describe("calling out", () => {
  it("the gateway turns @apollo/gateway's anonymous telemetry off unless the environment asks for it", () => {
    // with it on, the gateway would report to Apollo and probe cloud metadata addresses
    expect(telemetrySetting).toBeUndefined();
    expect(process.env.APOLLO_TELEMETRY_DISABLED).toBe("true");
  });
});

describe("SUBGRAPH_SECRET", () => {
  it.each(["people", "organisation", "legacy-time"] as const)("the %s subgraph refuses a direct request without the secret with 403", async (name) => {
    const response = await postGraphQL(stack.subgraphs[name]!.url, "{ __typename }");
    expect(response.status).toBe(403);
    expect(response.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("a subgraph refuses a wrong secret with 403", async () => {
    const response = await postGraphQL(stack.subgraphs.people!.url, "{ __typename }", {}, { "x-subgraph-secret": "wrong" });
    expect(response.status).toBe(403);
  });

  it.each([
    ["another secret", { SUBGRAPH_SECRET: "another-secret-than-the-subgraphs-of-32-characters" }],
    ["no secret", { SUBGRAPH_SECRET: "" }],
  ])("a gateway with %s is not ready (503) and logs the setting, rather than answer FORBIDDEN to everything", async (_, env) => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = new Logger("gateway", "info", (line) => lines.push(JSON.parse(line)));
    const gateway = closeAfter(await startGateway(loadGatewayConfig({ ...stack.gatewayEnv, ...env, READY_CHECK_INTERVAL_MS: "0" }), logger));
    const res = await fetch(new URL("/ready", gateway.url));
    expect(res.status).toBe(503);
    const differs = "forbidden: SUBGRAPH_SECRET differs";
    expect(await res.json()).toEqual({ status: "unavailable", subgraphs: { people: differs, organisation: differs, "legacy-time": differs } });
    await fetch(new URL("/ready", gateway.url));
    // said once per subgraph (at start and by the first probe together), not at every probe
    const said = lines.filter((line) => line.setting === "SUBGRAPH_SECRET");
    expect(said.map((line) => [line.level, line.subgraph]).sort()).toEqual([["error", "legacy-time"], ["error", "organisation"], ["error", "people"]]);
    expect(String(said[0]!.msg)).toContain("SUBGRAPH_SECRET");
  });

  it("a subgraph's /ready without the header (the orchestrator's probe) answers 200, with a wrong one 403", async () => {
    expect((await fetch(new URL("/ready", stack.subgraphs.people!.url))).status).toBe(200);
    expect((await fetch(new URL("/ready", stack.subgraphs.people!.url), { headers: { "x-subgraph-secret": "wrong" } })).status).toBe(403);
    expect((await fetch(new URL("/ready", stack.subgraphs.people!.url), { headers: { "x-subgraph-secret": SECRET } })).status).toBe(200);
  });

  it("the gateway, which sends the secret, answers an operation across the three subgraphs", async () => {
    const response = await stack.query(PROFILE, { id: demo.profile.id });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.employee.applicableJobPosition.department.name).toEqual(expect.any(String));
    expect(response.data.employee.manager.workContracts[0].id).toEqual(expect.any(String));
  });
});

describe("health and readiness", () => {
  it("/health answers 200", async () => {
    const res = await fetch(new URL("/health", stack.gateway.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("/ready answers 200 when every subgraph is up", async () => {
    const res = await fetch(new URL("/ready", stack.gateway.url));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", subgraphs: { people: "ok", organisation: "ok", "legacy-time": "ok" } });
  });

  it("/ready answers 503 and names the subgraph that is down", async () => {
    const gateway = await extraGateway({ LEGACY_TIME_URL: await deadUrl() });
    const res = await fetch(new URL("/ready", gateway.url));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", subgraphs: { people: "ok", organisation: "ok", "legacy-time": "unreachable" } });
  });

  it("an operation touching a subgraph that is down answers the other subgraphs' fields and an error", async () => {
    const gateway = await extraGateway({ LEGACY_TIME_URL: await deadUrl() });
    const response = await postGraphQL(gateway.url, PROFILE, { id: demo.profile.id });
    expect(response.data.employee.applicableJobPosition.department.name).toEqual(expect.any(String));
    expect(response.data.employee.manager.workContracts ?? null).toBeNull();
    expect(response.errors?.length).toBeGreaterThan(0);
  });

  it("an unknown path answers 404", async () => {
    const res = await fetch(new URL("/nowhere", stack.gateway.url));
    expect(res.status).toBe(404);
  });
});

describe("landing page", () => {
  it("outside production, GET / for a browser answers the Sandbox page", async () => {
    const res = await fetch(stack.gateway.url, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/embeddable-sandbox|sandbox\.cdn\.apollographql\.com/);
  });

  it("in production, GET / for a browser answers no HTML page", async () => {
    const gateway = await extraGateway({ NODE_ENV: "production" });
    const res = await fetch(gateway.url, { headers: { accept: "text/html" } });
    expect(res.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    expect(await res.text()).not.toMatch(/<html/i);
  });

  it("in production, introspection is refused and operations still answer", async () => {
    const gateway = await extraGateway({ NODE_ENV: "production" });
    const introspection = await postGraphQL(gateway.url, "{ __schema { queryType { name } } }");
    expect(introspection.errors?.length).toBeGreaterThan(0);
    const response = await postGraphQL(gateway.url, PROFILE, { id: demo.profile.id });
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(response.data.employee.id).toBe(demo.profile.id);
  });
});
