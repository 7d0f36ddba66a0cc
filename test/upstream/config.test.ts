import { describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.js";
import { DEFAULT_SCOPES, loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";

const SERVICE = {
  DIRECTORY_BASE_URL: "https://directory.example.com/",
  DIRECTORY_CLIENT_ID: "facade",
  DIRECTORY_CLIENT_SECRET: "s3cret",
  DIRECTORY_API_KEY: "key",
};

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadUpstreamConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("upstream configuration", () => {
  it("without DIRECTORY_BASE_URL it targets the in-process service with the demo credentials", () => {
    const config = loadUpstreamConfig({});
    expect(config).toMatchObject({
      baseUrl: "http://127.0.0.1:4010",
      embedded: true,
      tokenUrl: "http://127.0.0.1:4010/connect/token",
      clientId: "demo-client",
      clientSecret: "demo-secret",
      apiKey: "demo-api-key",
      auth: "service",
      timeoutMs: 10000,
      retries: 2,
      maxRetryAfterSeconds: 10,
      concurrency: 8,
      etagCacheSize: 10000,
      etagCacheBytes: 64 * 2 ** 20,
      tokenRefreshMarginMs: 60000,
    });
    expect(config.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(config.scopes).toContain("webhook-deliveries.readwrite");
    expect(config.scopes).toContain("departments.readonly");
  });

  it("the call budget, deadline, cursor key and representation limit have defaults and are validated", () => {
    expect(loadUpstreamConfig({})).toMatchObject({ callBudget: 100, deadlineMs: 10000, cursorSecret: null, maxRepresentations: 1000, breakerFailures: 20, breakerOpenMs: 5000 });
    // reference data is held by default, for a stated bound; 0 turns it off
    expect(loadUpstreamConfig({}).referenceFreshMs).toBe(300_000);
    expect(loadUpstreamConfig({ DIRECTORY_REFERENCE_FRESH_S: "0" }).referenceFreshMs).toBe(0);
    // held reads likewise (docs/shared-state.md#what-is-held-and-how-fresh)
    expect(loadUpstreamConfig({}).heldFreshMs).toBe(60_000);
    expect(loadUpstreamConfig({}).legacyTimeFreshMs).toBe(30_000);
    expect(loadUpstreamConfig({}).heldBytes).toBe(32 * 2 ** 20);
    expect(loadUpstreamConfig({ DIRECTORY_HELD_MB: "1" }).heldBytes).toBe(2 ** 20);
    expect(loadUpstreamConfig({})).toMatchObject({ apiPrefix: "/service-api", legacyAuthScheme: "service" });
    expect(loadUpstreamConfig({ DIRECTORY_API_PREFIX: "/lucca-api", DIRECTORY_LEGACY_AUTH_SCHEME: "lucca" })).toMatchObject({ apiPrefix: "/lucca-api", legacyAuthScheme: "lucca" });
    for (const prefix of ["lucca-api", "/lucca-api/", "/a b", "https://x/lucca-api"]) expect(configError({ DIRECTORY_API_PREFIX: prefix }).variable).toBe("DIRECTORY_API_PREFIX");
    for (const scheme of ["lucca application", "1x", "a=b"]) expect(configError({ DIRECTORY_LEGACY_AUTH_SCHEME: scheme }).variable).toBe("DIRECTORY_LEGACY_AUTH_SCHEME");
    expect(loadUpstreamConfig({ DIRECTORY_LEGACY_TIME_FRESH_S: "0" }).legacyTimeFreshMs).toBe(0);
    expect(loadUpstreamConfig({ DIRECTORY_HELD_FRESH_S: "0" }).heldFreshMs).toBe(0);
    expect(configError({ DIRECTORY_HELD_FRESH_S: "3601" }).variable).toBe("DIRECTORY_HELD_FRESH_S");
    expect(loadUpstreamConfig({ DIRECTORY_BREAKER_FAILURES: "0" }).breakerFailures).toBe(0);
    expect(configError({ DIRECTORY_BREAKER_OPEN_S: "0" }).variable).toBe("DIRECTORY_BREAKER_OPEN_S");
    expect(
      loadUpstreamConfig({ DIRECTORY_CALL_BUDGET: "50", SUBGRAPH_DEADLINE_MS: "3000", SUBGRAPH_CURSOR_SECRET: "0123456789abcdef", SUBGRAPH_MAX_REPRESENTATIONS: "200" }),
    ).toMatchObject({ callBudget: 50, deadlineMs: 3000, cursorSecret: "0123456789abcdef", maxRepresentations: 200 });
    expect(configError({ DIRECTORY_CALL_BUDGET: "0" }).variable).toBe("DIRECTORY_CALL_BUDGET");
    expect(configError({ SUBGRAPH_DEADLINE_MS: "fast" }).variable).toBe("SUBGRAPH_DEADLINE_MS");
    expect(configError({ SUBGRAPH_MAX_REPRESENTATIONS: "-1" }).variable).toBe("SUBGRAPH_MAX_REPRESENTATIONS");
    const short = configError({ SUBGRAPH_CURSOR_SECRET: "short" });
    expect(short.variable).toBe("SUBGRAPH_CURSOR_SECRET");
    expect(short.message).not.toContain("short\"");
  });

  it("replicas sharing SUBGRAPH_CURSOR_SECRET accept each other's cursors; others do not", async () => {
    const { Upstream } = await import("../../subgraphs/shared/upstream/index.js");
    const env = { SUBGRAPH_CURSOR_SECRET: "a-shared-cursor-secret" };
    const [a, b, c] = [new Upstream(loadUpstreamConfig(env)), new Upstream(loadUpstreamConfig(env)), new Upstream(loadUpstreamConfig({}))];
    const signature = a.cursors.sign("payload");
    expect(b.cursors.verify("payload", signature)).toBe(true);
    expect(c.cursors.verify("payload", signature)).toBe(false);
    expect(a.cursors.verify("payloaD", signature)).toBe(false);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("asks for compressed answers from a configured service, not from the in-process one, unless DIRECTORY_COMPRESSION says", () => {
    expect(loadUpstreamConfig({}).compression).toBe(false);
    expect(loadUpstreamConfig(SERVICE).compression).toBe(true);
    expect(loadUpstreamConfig({ DIRECTORY_COMPRESSION: "on" }).compression).toBe(true);
    expect(loadUpstreamConfig({ ...SERVICE, DIRECTORY_COMPRESSION: "off" }).compression).toBe(false);
    for (const bad of ["yes", "true", "gzip", "ON"]) {
      const error = configError({ ...SERVICE, DIRECTORY_COMPRESSION: bad });
      expect(error.variable).toBe("DIRECTORY_COMPRESSION");
    }
  });

  it("DIRECTORY_PORT moves the embedded service's address", () => {
    expect(loadUpstreamConfig({ DIRECTORY_PORT: "4999" }).baseUrl).toBe("http://127.0.0.1:4999");
  });

  it("a configured service keeps its own credentials and drops a trailing slash of the base URL", () => {
    const config = loadUpstreamConfig({ ...SERVICE, DIRECTORY_SCOPES: "employees.readonly, employments.readonly  taxonomies.readonly" });
    expect(config.embedded).toBe(false);
    expect(config.baseUrl).toBe("https://directory.example.com");
    expect(config.tokenUrl).toBe("https://directory.example.com/connect/token");
    expect(config.clientId).toBe("facade");
    expect(config.scopes).toEqual(["employees.readonly", "employments.readonly", "taxonomies.readonly"]);
  });

  it("forward mode against a configured service needs no client credentials", () => {
    const config = loadUpstreamConfig({ DIRECTORY_BASE_URL: "https://d.example.com", DIRECTORY_API_KEY: "k", DIRECTORY_AUTH: "forward" });
    expect(config.auth).toBe("forward");
    expect(config.clientId).toBeNull();
    expect(config.clientSecret).toBeNull();
  });

  it("numeric settings are read from the environment", () => {
    const config = loadUpstreamConfig({
      DIRECTORY_TIMEOUT_MS: "250",
      DIRECTORY_RETRIES: "0",
      DIRECTORY_MAX_RETRY_AFTER_S: "3",
      DIRECTORY_CONCURRENCY: "2",
      DIRECTORY_ETAG_CACHE_SIZE: "0",
      DIRECTORY_ETAG_CACHE_MB: "8",
      DIRECTORY_TOKEN_REFRESH_MARGIN_S: "5",
    });
    expect(config).toMatchObject({
      timeoutMs: 250,
      retries: 0,
      maxRetryAfterSeconds: 3,
      concurrency: 2,
      etagCacheSize: 0,
      etagCacheBytes: 8 * 2 ** 20,
      tokenRefreshMarginMs: 5000,
    });
  });

  it.each([
    [{ DIRECTORY_AUTH: "basic" }, "DIRECTORY_AUTH"],
    [{ DIRECTORY_TIMEOUT_MS: "ten" }, "DIRECTORY_TIMEOUT_MS"],
    [{ DIRECTORY_TIMEOUT_MS: "0" }, "DIRECTORY_TIMEOUT_MS"],
    [{ DIRECTORY_RETRIES: "-1" }, "DIRECTORY_RETRIES"],
    [{ DIRECTORY_MAX_RETRY_AFTER_S: "1.5" }, "DIRECTORY_MAX_RETRY_AFTER_S"],
    [{ DIRECTORY_CONCURRENCY: "0" }, "DIRECTORY_CONCURRENCY"],
    [{ DIRECTORY_ETAG_CACHE_SIZE: "lots" }, "DIRECTORY_ETAG_CACHE_SIZE"],
    [{ DIRECTORY_ETAG_CACHE_MB: "0" }, "DIRECTORY_ETAG_CACHE_MB"],
    [{ DIRECTORY_PORT: "70000" }, "DIRECTORY_PORT"],
    [{ DIRECTORY_TOKEN_REFRESH_MARGIN_S: "-5" }, "DIRECTORY_TOKEN_REFRESH_MARGIN_S"],
    [{ DIRECTORY_SCOPES: "employees.readonly bad\"scope" }, "DIRECTORY_SCOPES"],
    [{ ...SERVICE, DIRECTORY_BASE_URL: "directory.example.com" }, "DIRECTORY_BASE_URL"],
    [{ ...SERVICE, DIRECTORY_BASE_URL: "ftp://directory.example.com" }, "DIRECTORY_BASE_URL"],
    [{ ...SERVICE, DIRECTORY_BASE_URL: "https://user:pw@directory.example.com" }, "DIRECTORY_BASE_URL"],
    [{ ...SERVICE, DIRECTORY_TOKEN_URL: "not a url" }, "DIRECTORY_TOKEN_URL"],
    [{ ...SERVICE, DIRECTORY_CLIENT_ID: "" }, "DIRECTORY_CLIENT_ID"],
    [{ ...SERVICE, DIRECTORY_CLIENT_SECRET: undefined }, "DIRECTORY_CLIENT_SECRET"],
    [{ ...SERVICE, DIRECTORY_API_KEY: undefined }, "DIRECTORY_API_KEY"],
    // titled by the variables set (JSON leaves out the one missing), not `undefined`
  ].map(([env, variable]) => [variable, JSON.stringify(env), env] as const))("a wrong or missing %s is named in the error (%s)", (variable, _, env) => {
    const err = configError(env as NodeJS.ProcessEnv);
    expect(err.message).toContain(variable);
    expect(err.variable).toBe(variable);
  });

  it("a validation error never repeats a secret", () => {
    const err = configError({ ...SERVICE, DIRECTORY_CLIENT_SECRET: "s3cret", DIRECTORY_API_KEY: undefined });
    expect(err.message).not.toContain("s3cret");
  });
});
