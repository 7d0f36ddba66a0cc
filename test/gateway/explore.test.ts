import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { FORWARD_HEADER_PRESET } from "../../gateway/explore.js";
import type { RunningGateway } from "../../gateway/gateway.js";
import { loadOperations, TOUR_VARIABLES } from "../../gateway/operations.js";
import { ConfigError, subgraphLandingPage } from "../../platform/config.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { useCloseAfter } from "../helpers/fixture.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Exploring the graph: Apollo Sandbox at `/` opened on an operation of `operations/` with the
 * tour's variables, the offline explorer (GraphiQL from node_modules) at `/explorer` with a tab
 * per operation, the forward-mode header preset, nothing in production unless configured, and no
 * landing page on the subgraphs unless configured.
 */

const stack = useGatewayStack();
const closeAfter = useCloseAfter();
const operations = loadOperations();
const HTML = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

const extraGateway = async (env: Record<string, string>): Promise<RunningGateway> => closeAfter(await startExtraGateway(stack, env));

/** the configuration Apollo Sandbox is embedded with, read from its page */
function embedConfig(html: string): any {
  const match = /var embeddedSandboxConfig = (\{.*\});/.exec(html);
  expect(match, "the Sandbox page's embed configuration").not.toBeNull();
  return JSON.parse(match![1]!);
}

function explorerConfig(html: string): any {
  const match = /<script id="explorer-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  expect(match, "the explorer's configuration").not.toBeNull();
  return JSON.parse(match![1]!);
}

describe("the tour's variables", () => {
  it.each(operations.map((o) => [o.name, o] as const))("%s answers without an error with the variables the pages preset", async (name, operation) => {
    const response = await stack.query(operation.source, TOUR_VARIABLES[name]);
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const root = Object.values(response.data as Record<string, any>)[0];
    expect(root).toBeTruthy();
    if (name === "UpdateTimeEntry") expect(root.__typename).toBe("TimeEntry");
  });

  it("every operation of operations/ has tour variables", () => {
    expect(Object.keys(TOUR_VARIABLES).sort()).toEqual(operations.map((o) => o.name).sort());
  });
});

describe("Apollo Sandbox at /", () => {
  it("opens on the first operation with its variables, telemetry off, cookies off", async () => {
    const res = await fetch(stack.gateway.url, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const config = embedConfig(await res.text());
    expect(config.initialState.document).toBe(operations[0]!.source);
    expect(config.initialState.variables).toEqual(TOUR_VARIABLES[operations[0]!.name]);
    expect(config.initialState.headers).toBeUndefined();
    expect(config.initialState.includeCookies).toBe(false);
    expect(config.runTelemetry).toBe(false);
  });

  it.each(operations.map((o) => [o.name, o] as const))("/?operation=%s opens that operation", async (name, operation) => {
    const res = await fetch(`${stack.gateway.url}graphql?operation=${name}`, { headers: HTML });
    const config = embedConfig(await res.text());
    expect(config.initialState.document).toBe(operation.source);
    expect(config.initialState.variables).toEqual(TOUR_VARIABLES[name]);
  });

  it("offline, its fallback links to the explorer and to every operation, and the empty embed does not cover it", async () => {
    const html = await (await fetch(stack.gateway.url, { headers: HTML })).text();
    expect(html).toContain('<a href="/explorer">');
    for (const o of operations) expect(html).toContain(`<a href="/?operation=${o.name}">`);
    expect(html).toContain("#embeddableSandbox:empty { display: none; }");
  });

  it("an unknown operation is a 404, with nothing of it echoed", async () => {
    const res = await fetch(`${stack.gateway.url}?operation=%3Cscript%3E`, { headers: HTML });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("<script>");
  });

  it("a GraphQL GET (not asking for HTML) is still an operation", async () => {
    const res = await fetch(`${stack.gateway.url}graphql?query=${encodeURIComponent("{ __typename }")}`, { headers: { "apollo-require-preflight": "1" } });
    expect(await res.json()).toEqual({ data: { __typename: "Query" } });
  });
});

describe("the offline explorer at /explorer", () => {
  it("is an HTML page with a strict CSP and one tab per operation with the tour's variables", async () => {
    const res = await fetch(`${stack.gateway.url}explorer`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const config = explorerConfig(await res.text());
    expect(config.endpoint).toBe("/graphql");
    expect(config.headers).toBe("");
    expect(config.tabs).toEqual(operations.map((o) => ({ query: o.source, variables: JSON.stringify(TOUR_VARIABLES[o.name], null, 2) })));
  });

  it("every script and style it loads is served from this gateway with its content type; vendor files are cached for good", async () => {
    const html = await (await fetch(`${stack.gateway.url}explorer`)).text();
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.length).toBe(5);
    for (const url of urls) {
      expect(url.startsWith("/explorer/"), url).toBe(true);
      const res = await fetch(new URL(url, stack.gateway.url));
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type"), url).toBe(url.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      if (url.includes("/vendor/")) {
        expect(url).toMatch(/\/vendor\/[a-z-]+@\d+\.\d+\.\d+\//);
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      } else {
        expect(res.headers.get("cache-control")).toBe("no-cache");
      }
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(200);
    }
  });

  it.each([
    "/explorer/vendor/react@18.3.1/package.json",
    "/explorer/vendor/react@0.0.1/react.production.min.js",
    "/explorer/vendor/react@18.3.1/..%2F..%2Fpackage.json",
    "/explorer/vendor/graphiql@3.9.0/graphiql.min.js.map",
    "/explorer/",
    "/explorer/explorer.js/",
  ])("%s is a 404: only the listed files are served", async (path) => {
    const res = await fetch(new URL(path, stack.gateway.url));
    expect(res.status).toBe(404);
  });

  it("a POST to the explorer is a 405", async () => {
    const res = await fetch(`${stack.gateway.url}explorer`, { method: "POST", body: "{}" });
    expect(res.status).toBe(405);
  });
});

describe("settings", () => {
  it("in forward mode both start with an Authorization header to fill in", async () => {
    const gateway = await extraGateway({ DIRECTORY_AUTH: "forward" });
    const sandbox = embedConfig(await (await fetch(gateway.url, { headers: HTML })).text());
    expect(sandbox.initialState.headers).toEqual(FORWARD_HEADER_PRESET);
    const explorer = explorerConfig(await (await fetch(`${gateway.url}explorer`)).text());
    expect(JSON.parse(explorer.headers)).toEqual(FORWARD_HEADER_PRESET);
    for (const tab of explorer.tabs) expect(JSON.parse(tab.headers)).toEqual(FORWARD_HEADER_PRESET);
  });

  it("in production neither page is served", async () => {
    const gateway = await extraGateway({ NODE_ENV: "production" });
    const landing = await fetch(gateway.url, { headers: HTML });
    expect(await landing.text()).not.toMatch(/<html/i);
    expect((await fetch(`${gateway.url}explorer`)).status).toBe(404);
    expect((await fetch(`${gateway.url}explorer/explorer.js`)).status).toBe(404);
  });

  it("in production GATEWAY_EXPLORER=explorer serves the explorer, and / leads to it", async () => {
    const gateway = await extraGateway({ NODE_ENV: "production", GATEWAY_EXPLORER: "explorer" });
    expect((await fetch(`${gateway.url}explorer`)).status).toBe(200);
    const landing = await fetch(gateway.url, { headers: HTML, redirect: "manual" });
    expect(landing.status).toBe(302);
    expect(landing.headers.get("location")).toBe("/explorer");
  });

  it("GATEWAY_EXPLORER=none turns both off outside production", async () => {
    const gateway = await extraGateway({ GATEWAY_EXPLORER: "none" });
    expect(await (await fetch(gateway.url, { headers: HTML })).text()).not.toMatch(/<html/i);
    expect((await fetch(`${gateway.url}explorer`)).status).toBe(404);
  });

  it.each(["graphiql", "sandbox;explorer", "all", "sandbox,"])("GATEWAY_EXPLORER=%s stops the start with an error naming the variable", (value) => {
    expect(() => loadGatewayConfig({ GATEWAY_EXPLORER: value })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_EXPLORER: value })).toThrow(/GATEWAY_EXPLORER/);
  });
});

describe("subgraph landing pages", () => {
  async function subgraph(landingPage: boolean): Promise<RunningSubgraph> {
    const { subgraph: people } = await import("../../subgraphs/people/index.js");
    const running = await startSubgraphModule(people, { upstream: stack.upstream, port: 0, landingPage });
    return closeAfter(running);
  }

  it("by default a subgraph serves no page to a browser", async () => {
    const res = await fetch(stack.subgraphs.people!.url, { headers: HTML });
    expect(res.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    expect(await res.text()).not.toMatch(/<html/i);
  });

  it("SUBGRAPH_LANDING_PAGE=sandbox serves Apollo Sandbox, telemetry off", async () => {
    const running = await subgraph(true);
    const res = await fetch(running.url, { headers: HTML });
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const config = embedConfig(await res.text());
    expect(config.runTelemetry).toBe(false);
  });

  it.each(["graphiql", "true", "sandbox,none"])("SUBGRAPH_LANDING_PAGE=%s stops the start with an error naming the variable", (value) => {
    expect(() => subgraphLandingPage({ SUBGRAPH_LANDING_PAGE: value })).toThrow(/SUBGRAPH_LANDING_PAGE/);
  });

  it("SUBGRAPH_LANDING_PAGE unset reads as false", () => {
    expect(subgraphLandingPage({})).toBe(false);
  });

  it.each([["", false], ["none", false], ["sandbox", true]] as const)("SUBGRAPH_LANDING_PAGE=%j reads as %s", (value, expected) => {
    expect(subgraphLandingPage({ SUBGRAPH_LANDING_PAGE: value })).toBe(expected);
  });
});
