import { describe, expect, it } from "vitest";
import { GatewayConfigError, loadGatewayConfig } from "../../gateway/config.js";

describe("gateway configuration", () => {
  it("defaults to the committed supergraph, service auth and the demo's subgraph ports", () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: "127.0.0.1",
      compose: "supergraph",
      auth: "service",
      production: false,
      subgraphSecret: null,
      subgraphUrls: {
        people: "http://127.0.0.1:4001/graphql",
        organisation: "http://127.0.0.1:4002/graphql",
        "legacy-time": "http://127.0.0.1:4003/graphql",
      },
    });
    expect(config.supergraphPath).toMatch(/schema\/supergraph\.graphql$/);
  });

  it("follows the subgraphs' port variables when no URL is given", () => {
    expect(loadGatewayConfig({ LEGACY_TIME_PORT: "5003" }).subgraphUrls["legacy-time"]).toBe("http://127.0.0.1:5003/graphql");
  });

  it("NODE_ENV=production turns the production settings on", () => {
    expect(loadGatewayConfig({ NODE_ENV: "production" }).production).toBe(true);
  });

  it.each([
    [{ GATEWAY_COMPOSE: "rover" }, /GATEWAY_COMPOSE/],
    [{ DIRECTORY_AUTH: "basic" }, /DIRECTORY_AUTH/],
    [{ PEOPLE_URL: "ftp://example.org/graphql" }, /PEOPLE_URL/],
    [{ ORGANISATION_URL: "not a url" }, /ORGANISATION_URL/],
    [{ GATEWAY_PORT: "70000" }, /GATEWAY_PORT/],
    [{ PEOPLE_PORT: "-1" }, /PEOPLE_PORT/],
    [{ LOG_LEVEL: "loud" }, /LOG_LEVEL/],
    [{ GATEWAY_DEADLINE_MS: "soon" }, /GATEWAY_DEADLINE_MS/],
    [{ GATEWAY_DEADLINE_MS: "10" }, /GATEWAY_DEADLINE_MS/],
    [{ GRAPHQL_MAX_DEPTH: "0" }, /GRAPHQL_MAX_DEPTH/],
    [{ GRAPHQL_MAX_COST: "1e6" }, /GRAPHQL_MAX_COST/],
    [{ GRAPHQL_MAX_BYTES: "2000000" }, /GRAPHQL_MAX_BYTES/],
    [{ GRAPHQL_DEBUG_ERRORS: "maybe" }, /GRAPHQL_DEBUG_ERRORS/],
  ])("refuses %o with an error naming the variable", (env, message) => {
    expect(() => loadGatewayConfig(env)).toThrow(GatewayConfigError);
    expect(() => loadGatewayConfig(env)).toThrow(message);
  });
});
