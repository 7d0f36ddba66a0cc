import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { ConfigError, graphPrefix, isProduction, subgraphSecret } from "../../platform/config.js";
import { loadOperationLimits } from "../../platform/limits.js";
import { readLogLevel } from "../../platform/log.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";

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
    expect(() => loadGatewayConfig(env)).toThrow(ConfigError);
    expect(() => loadGatewayConfig(env)).toThrow(message);
  });
});

describe("one reader: a variable means the same thing in the gateway and the subgraphs", () => {
  /** what a process makes of the environment: the auth mode, or the variable its error names */
  function authOf(load: () => { auth: string }): string {
    try {
      return load().auth;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return `refused: ${(err as ConfigError).variable}`;
    }
  }

  it.each([
    // an empty value is unset: service mode everywhere (the gateway used to exit with status 2)
    ["", "service"],
    ["   ", "service"],
    ["service", "service"],
    // spaces around a value are ignored everywhere (the gateway used to refuse " forward" while the subgraphs forwarded)
    [" forward", "forward"],
    ["forward ", "forward"],
    ["forward", "forward"],
    ["FORWARD", "refused: DIRECTORY_AUTH"],
    ["basic", "refused: DIRECTORY_AUTH"],
  ])("DIRECTORY_AUTH=%j is %s in every process", (value, expected) => {
    const env = { DIRECTORY_AUTH: value };
    expect(authOf(() => loadGatewayConfig(env))).toBe(expected);
    expect(authOf(() => loadUpstreamConfig(env))).toBe(expected);
  });

  it("the settings both read agree, read from one environment", () => {
    const env = { SUBGRAPH_SECRET: " s3cret-shared-by-every-component-0123 ", GRAPH_PREFIX: "Dir", NODE_ENV: " production", GRAPHQL_MAX_DEPTH: " 9 ", LOG_LEVEL: "WARN" };
    const gateway = loadGatewayConfig(env);
    expect(gateway).toMatchObject({ subgraphSecret: subgraphSecret(env), prefix: graphPrefix(env), production: isProduction(env), logLevel: readLogLevel(env) });
    expect(gateway).toMatchObject({ subgraphSecret: "s3cret-shared-by-every-component-0123", prefix: "Dir", production: true, logLevel: "warn" });
    expect(gateway.limits).toEqual(loadOperationLimits(env));
    expect(gateway.limits.depth).toBe(9);
  });

  it.each([
    ["GATEWAY_COMPOSE", ""],
    ["GATEWAY_PORT", ""],
    ["GATEWAY_EXPLORER", " "],
    ["PEOPLE_URL", ""],
  ])("%s=%j is unset: the default applies", (variable, value) => {
    expect(loadGatewayConfig({ [variable]: value })).toEqual(loadGatewayConfig({}));
  });
});
