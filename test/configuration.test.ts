import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { loadEmbeddedConfig } from "../scripts/embedded.js";
import { subgraphModules } from "../scripts/subgraphs.js";
import { loadGatewayConfig } from "../gateway/config.js";
import { loadUpstreamConfig } from "../subgraphs/shared/upstream/index.js";
import { subscriptionQueue } from "../subgraphs/shared/graphql/subgraph.js";
import { directoryOptionsFromEnv } from "../directory/options.js";
import { debugErrors, directoryPort, graphPrefix, isProduction, listenHost, subgraphLandingPage, subgraphSecret } from "../platform/config.js";
import { loadShutdownSettings } from "../platform/lifecycle.js";
import { loadOperationLimits } from "../platform/limits.js";
import { readLogLevel } from "../platform/log.js";
import { metricsPort } from "../platform/metrics-port.js";
import { tracingSettings } from "../platform/tracing.js";

/**
 * docs/configuration.md, the one configuration reference, against the config readers: each reader
 * runs on environments that record every variable it asks for (unset, and set so that the branches
 * that read more are taken), and the table must list exactly those, and say of each the component
 * whose readers asked for it.
 */

/** runs `read` on `base` and answers every variable it asked for */
function asked(read: (env: NodeJS.ProcessEnv) => unknown, base: Record<string, string> = {}): Set<string> {
  const names = new Set<string>();
  const env = new Proxy(base, {
    get(target, key) {
      if (typeof key === "string" && /^[A-Z][A-Z0-9_]+$/.test(key)) names.add(key);
      return typeof key === "string" ? target[key] : undefined;
    },
  });
  read(env);
  return names;
}

/** environments that take the branches which read more (a real directory, tracing on, ratios) */
const VARIANTS: Array<Record<string, string>> = [
  {},
  { DIRECTORY_BASE_URL: "https://directory.example.com", DIRECTORY_CLIENT_ID: "c", DIRECTORY_CLIENT_SECRET: "s", DIRECTORY_API_KEY: "k", NODE_ENV: "development" },
  { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.5" },
  { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" },
  { DIRECTORY_AUTH: "forward" },
];

function union(read: (env: NodeJS.ProcessEnv) => unknown): Set<string> {
  return new Set(VARIANTS.flatMap((variant) => [...asked(read, variant)]));
}

it("docs/configuration.md lists every variable the readers read, and only those, with the component that reads it", async () => {
  const modules = await subgraphModules();
  const every = union((env) => {
    tracingSettings(env, "svc");
    loadShutdownSettings(env);
    readLogLevel(env);
    isProduction(env);
    debugErrors(env);
  });
  const gateway = union((env) => {
    loadGatewayConfig(env);
    metricsPort(env);
  });
  const subgraphs = union((env) => {
    loadUpstreamConfig(env);
    loadOperationLimits(env);
    graphPrefix(env);
    subgraphLandingPage(env);
    subgraphSecret(env);
    subscriptionQueue(env);
    listenHost(env);
    metricsPort(env);
  });
  for (const module of modules) subgraphs.add(module.portVariable);
  const directory = union((env) => {
    directoryOptionsFromEnv(env);
    directoryPort(env);
  });
  // npm start reads the same, through loadEmbeddedConfig (async: recorded apart)
  const start = new Set<string>();
  for (const variant of VARIANTS) {
    const env = new Proxy(variant, { get: (t, k) => (typeof k === "string" && /^[A-Z][A-Z0-9_]+$/.test(k) && start.add(k), typeof k === "string" ? t[k] : undefined) });
    await loadEmbeddedConfig(env);
  }
  // read outside Environment: gateway/gateway.ts sets it for @apollo/gateway unless given
  gateway.add("APOLLO_TELEMETRY_DISABLED");
  const read = new Set([...every, ...gateway, ...subgraphs, ...directory, ...start]);

  const table = readFileSync(new URL("../docs/configuration.md", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [variables, readBy] = line.split(" | ");
      return { names: [...variables!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!), readBy: readBy! };
    });
  const documented = new Set(table.flatMap((row) => row.names));
  // the exporter's own variables: checked at start (platform/tracing.ts), read by the SDK itself
  const sdk = [...documented].filter((name) => name.startsWith("OTEL_") && !read.has(name));
  expect(sdk.every((name) => every.has(name) || /^OTEL_EXPORTER_OTLP_(TRACES_)?(HEADERS|TIMEOUT|COMPRESSION)$|^OTEL_RESOURCE_ATTRIBUTES$/.test(name)), sdk.join(", ")).toBe(true);
  expect([...read].filter((name) => !documented.has(name)).sort(), "read but not in docs/configuration.md").toEqual([]);
  expect([...documented].filter((name) => !read.has(name) && !sdk.includes(name)).sort(), "in docs/configuration.md but read by no reader").toEqual([]);

  /** what the read-by column must say of each variable, from the readers that asked for it */
  const expected = (name: string): RegExp | null => {
    if (every.has(name) && !subgraphs.has(name)) return /every process/;
    if (gateway.has(name) && subgraphs.has(name)) return /gateway.*subgraphs|subgraphs.*gateway|every process/;
    if (gateway.has(name)) return /gateway|every process/;
    if (subgraphs.has(name)) return /subgraph|every process/;
    if (directory.has(name)) return /directory|every process/;
    return null;
  };
  const wrong = table.flatMap((row) => row.names.filter((name) => !(expected(name)?.test(row.readBy) ?? true)).map((name) => `${name}: "${row.readBy}" should match ${expected(name)}`));
  expect(wrong).toEqual([]);
});
