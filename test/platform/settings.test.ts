import { afterAll, describe, expect, it } from "vitest";
import { trace } from "@opentelemetry/api";
import { ConfigError, isProduction, PLACEHOLDER_SECRETS, subgraphSecret } from "../../platform/config.js";
import { loadGatewayConfig } from "../../gateway/config.js";
import { loadUpstreamConfig } from "../../subgraphs/shared/upstream/index.js";
import { startTracing, tracingSettings } from "../../platform/tracing.js";
import { Logger } from "../../platform/log.js";
import { processMetrics } from "../../platform/metrics.js";
import { startOtlpReceiver } from "../helpers/otlp.js";
import { killAll, runToExit } from "../helpers/process.js";

/**
 * No setting ignored (platform/config.ts, platform/tracing.ts): an unknown NODE_ENV, a production
 * secret too short or left at a placeholder, a missing production cursor secret and a wrong OTEL_*
 * value each stop the start with one line naming the variable; a span export that fails is logged
 * once and counted.
 */

afterAll(killAll);

const LONG = "a-secret-of-the-deployment-0123456789";
const SERVICE = {
  NODE_ENV: "production",
  DIRECTORY_BASE_URL: "https://directory.example.com",
  DIRECTORY_CLIENT_ID: "facade",
  DIRECTORY_CLIENT_SECRET: "issued-by-the-directory",
  DIRECTORY_API_KEY: "key-issued-by-the-directory",
  SUBGRAPH_CURSOR_SECRET: LONG,
};

function refusal(read: () => unknown): ConfigError {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("NODE_ENV", () => {
  it("production, development and test are its values; anything else is refused", () => {
    expect(isProduction({ NODE_ENV: "production" })).toBe(true);
    expect(isProduction({ NODE_ENV: "development" })).toBe(false);
    expect(isProduction({ NODE_ENV: "test" })).toBe(false);
    expect(isProduction({})).toBe(false);
    for (const value of ["prod", "Production", "staging"]) {
      const err = refusal(() => loadGatewayConfig({ NODE_ENV: value }));
      expect(err.variable).toBe("NODE_ENV");
      expect(err.message).toBe(`NODE_ENV must be one of production, development, test, got "${value}"`);
    }
    expect(refusal(() => loadUpstreamConfig({ NODE_ENV: "prod" })).variable).toBe("NODE_ENV");
  });

  it("a process started with NODE_ENV=prod stops with status 2 and one line", async () => {
    const { exit, stdout, stderr } = await runToExit("gateway/main.ts", { NODE_ENV: "prod", GATEWAY_PORT: "0" });
    expect(exit.code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual(['gateway: configuration error: NODE_ENV must be one of production, development, test, got "prod"']);
  });
});

describe("secrets in production", () => {
  it("SUBGRAPH_SECRET: shorter than 32 characters or a placeholder is refused in production, accepted outside it", () => {
    expect(subgraphSecret({ SUBGRAPH_SECRET: "a" })).toBe("a");
    expect(refusal(() => subgraphSecret({ NODE_ENV: "production", SUBGRAPH_SECRET: "a" })).message).toBe("SUBGRAPH_SECRET must be at least 32 characters long in production, got 1");
    for (const placeholder of PLACEHOLDER_SECRETS) {
      expect(refusal(() => loadGatewayConfig({ NODE_ENV: "production", SUBGRAPH_SECRET: placeholder })).message).toBe(
        "SUBGRAPH_SECRET is a placeholder of the examples: set a secret of your own in production",
      );
    }
    expect(subgraphSecret({ NODE_ENV: "production", SUBGRAPH_SECRET: LONG })).toBe(LONG);
  });

  it("SUBGRAPH_CURSOR_SECRET is required in production against a real directory, 32 characters and no placeholder", () => {
    expect(loadUpstreamConfig(SERVICE).cursorSecret).toBe(LONG);
    const { SUBGRAPH_CURSOR_SECRET: _, ...without } = SERVICE;
    const missing = refusal(() => loadUpstreamConfig(without));
    expect(missing.variable).toBe("SUBGRAPH_CURSOR_SECRET");
    expect(missing.message).toMatch(/^SUBGRAPH_CURSOR_SECRET is required in production/);
    expect(refusal(() => loadUpstreamConfig({ ...SERVICE, SUBGRAPH_CURSOR_SECRET: "0123456789abcdef" })).message).toBe("SUBGRAPH_CURSOR_SECRET must be at least 32 characters long in production, got 16");
    expect(refusal(() => loadUpstreamConfig({ ...SERVICE, SUBGRAPH_CURSOR_SECRET: "change-me-cursor-secret-of-32-characters" })).variable).toBe("SUBGRAPH_CURSOR_SECRET");
    // outside production, or with the in-process demo directory: a random key per process, as before
    expect(loadUpstreamConfig({ ...without, NODE_ENV: "development" }).cursorSecret).toBeNull();
    expect(loadUpstreamConfig({ NODE_ENV: "production" }).cursorSecret).toBeNull();
  });

  it("the upstream's credentials may not be left at the manifests' placeholder in production", () => {
    expect(refusal(() => loadUpstreamConfig({ ...SERVICE, DIRECTORY_CLIENT_SECRET: "change-me" })).variable).toBe("DIRECTORY_CLIENT_SECRET");
    expect(refusal(() => loadUpstreamConfig({ ...SERVICE, DIRECTORY_API_KEY: "change-me" })).variable).toBe("DIRECTORY_API_KEY");
    expect(loadUpstreamConfig({ ...SERVICE, NODE_ENV: "development", DIRECTORY_API_KEY: "change-me" }).apiKey).toBe("change-me");
  });
});

describe("OTEL_* values the SDK reads", () => {
  it.each([
    [{ OTEL_TRACES_SAMPLER: "bogus" }, "OTEL_TRACES_SAMPLER"],
    [{ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_TRACES_SAMPLER: "always_on", OTEL_TRACES_SAMPLER_ARG: "0.5" }, "OTEL_TRACES_SAMPLER_ARG"],
    [{ OTEL_EXPORTER_OTLP_TIMEOUT: "10s" }, "OTEL_EXPORTER_OTLP_TIMEOUT"],
    [{ OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "brotli" }, "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"],
    [{ OTEL_EXPORTER_OTLP_HEADERS: "api-key" }, "OTEL_EXPORTER_OTLP_HEADERS"],
    [{ OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=prod,=x" }, "OTEL_RESOURCE_ATTRIBUTES"],
    [{ OTEL_BSP_MAX_QUEUE_SIZE: "100", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512" }, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"],
    [{ OTEL_BSP_SCHEDULE_DELAY: "-1" }, "OTEL_BSP_SCHEDULE_DELAY"],
  ])("%j is refused naming %s, whether tracing is on or off", (env, variable) => {
    for (const on of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }]) {
      expect(refusal(() => tracingSettings({ ...on, ...env }, "svc")).variable).toBe(variable);
    }
  });

  it("good values pass, and a header's value is never repeated in an error", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=abc%20def,x-team=graph",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=prod",
    };
    expect(tracingSettings(env, "svc")?.url).toBe("http://collector:4318/v1/traces");
    expect(refusal(() => tracingSettings({ ...env, OTEL_EXPORTER_OTLP_HEADERS: "api-key=sekr%ZZet" }, "svc")).message).not.toContain("sekr");
  });

  it("a process started with OTEL_TRACES_SAMPLER=bogus stops with status 2 and one line", async () => {
    const { exit, stderr } = await runToExit("subgraphs/people/main.ts", { OTEL_TRACES_SAMPLER: "bogus", PEOPLE_PORT: "0" });
    expect(exit.code).toBe(2);
    expect(stderr.trim().split("\n")).toEqual(["people: configuration error: OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got \"bogus\""]);
  });
});

describe("span export failures", () => {
  it("are logged once per outage and counted", async () => {
    const receiver = await startOtlpReceiver();
    const lines: Array<Record<string, unknown>> = [];
    const logger = new Logger("tracing", "info", (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    // a path the collector does not serve: every export fails (404, not retried)
    const tracing = (await startTracing({ url: receiver.url.replace("/v1/traces", "/v1/nowhere"), protocol: "http/json", serviceName: "svc" }, logger))!;
    const failures = async () => (await processMetrics().tracingExportFailures.get()).values[0]?.value ?? 0;
    const dropped = async () => (await processMetrics().tracingSpansDropped.get()).values[0]?.value ?? 0;
    try {
      const before = { failures: await failures(), dropped: await dropped() };
      for (let i = 0; i < 3; i++) {
        trace.getTracer("test").startSpan(`span ${i}`).end();
        trace.getTracer("test").startSpan(`span ${i}b`).end();
        // the flush rejects with the failed batch's error: what the process does not see otherwise
        await tracing.flush().catch(() => undefined);
      }
      expect((await failures()) - before.failures).toBe(3);
      expect((await dropped()) - before.dropped).toBe(6);
      const warnings = lines.filter((line) => line.msg === "span export failed: spans are dropped until the collector answers");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: "warn", component: "tracing", spans: 2 });
    } finally {
      await tracing.shutdown().catch(() => undefined);
      await receiver.close();
    }
  });
});
