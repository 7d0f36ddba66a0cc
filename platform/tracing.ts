import { context, propagation, trace } from "@opentelemetry/api";
import { ConfigError, Environment, excerpt } from "./config.js";
import { setTracingOn, tracingOn } from "./request-scope.js";
import { randomUUID } from "node:crypto";
import { Logger } from "./log.js";
import packageJson from "../package.json" with { type: "json" };
import { processMetrics } from "./metrics.js";

/**
 * Traces (OpenTelemetry JS SDK), for every process (docs/observability.md).
 *
 * Tracing is off unless the standard variables ask for it: `OTEL_TRACES_EXPORTER=otlp`, or an
 * OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) with no
 * exporter named; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keep it off. Off, no
 * provider is registered (request-scope.ts then makes no span) and the SDK is not even loaded.
 *
 * On, W3C `traceparent`/`tracestate` are read from each request and passed on (the gateway to
 * the subgraphs, the subgraphs to the directory); a client's `baggage` is dropped where it
 * arrives (request-scope.ts). @apollo/gateway makes its own spans
 * (`gateway.request`, `gateway.plan`, `gateway.fetch`...) through the registered provider.
 */

const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface TracingSettings {
  /** where spans are sent (`.../v1/traces`) */
  url: string;
  protocol: OtlpProtocol;
  /** OTEL_SERVICE_NAME, else the component's default */
  serviceName: string;
}

/**
 * What the OTEL_* variables ask for, or null when tracing is off. Throws a ConfigError naming a
 * variable whose value cannot be served (an exporter or protocol this build does not have).
 */
export function tracingSettings(env: NodeJS.ProcessEnv, defaultServiceName: string): TracingSettings | null {
  const e = new Environment(env);
  // checked whether tracing is on or not: a wrong value is a mistake either way, and would be
  // ignored without a word by the SDK (which falls back to its default) the day tracing is on
  checkSdkVariables(e);
  // `grpc` (this build has no gRPC exporter) stops the start even without an endpoint: the day one
  // is set, tracing would otherwise not be what was asked
  const protocols = {
    traces: e.choice("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", OTLP_PROTOCOLS, "http/protobuf"),
    base: e.choice("OTEL_EXPORTER_OTLP_PROTOCOL", OTLP_PROTOCOLS, "http/protobuf"),
  };
  if (e.boolean("OTEL_SDK_DISABLED", false)) return null;
  const traces = e.text("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const base = e.text("OTEL_EXPORTER_OTLP_ENDPOINT");
  const exporter = e.text("OTEL_TRACES_EXPORTER");
  if (exporter === undefined ? traces === undefined && base === undefined : exporter === "none") return null;
  if (exporter !== undefined && exporter !== "otlp") {
    throw new ConfigError(`OTEL_TRACES_EXPORTER must be "otlp" or "none", got "${excerpt(exporter)}"`, "OTEL_TRACES_EXPORTER");
  }
  const protocol = e.text("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") !== undefined ? protocols.traces : protocols.base;
  // the specification's defaults: a signal's endpoint is taken as is, the base gets `/v1/traces`
  const url = traces ?? `${(base ?? "http://localhost:4318").replace(/\/+$/, "")}/v1/traces`;
  const variable = traces !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
  // the value is not repeated: a URL may carry credentials
  if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new ConfigError(`${variable} must be an http(s) URL`, variable);
  return { url, protocol, serviceName: e.text("OTEL_SERVICE_NAME") ?? defaultServiceName };
}

/** The samplers the SDK builds from OTEL_TRACES_SAMPLER; the ratio ones take OTEL_TRACES_SAMPLER_ARG. */
const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;

/**
 * The OTEL_* variables the SDK reads itself (the sampler, the exporter's headers, timeout and
 * compression, the batch processor, the resource attributes), checked here: the SDK takes a wrong
 * one for its default with at most a diagnostic nobody sees. Header and attribute values are never
 * shown (an API key travels in OTEL_EXPORTER_OTLP_HEADERS).
 */
function checkSdkVariables(e: Environment): void {
  const sampler = e.choice("OTEL_TRACES_SAMPLER", SAMPLERS, "parentbased_always_on");
  const arg = e.text("OTEL_TRACES_SAMPLER_ARG");
  if (arg !== undefined) {
    if (!sampler.endsWith("traceidratio")) {
      throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG only applies to OTEL_TRACES_SAMPLER=traceidratio or parentbased_traceidratio, not ${sampler}`, "OTEL_TRACES_SAMPLER_ARG");
    }
    const ratio = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(arg) ? Number(arg) : NaN;
    if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${excerpt(arg)}"`, "OTEL_TRACES_SAMPLER_ARG");
  }
  for (const name of ["OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"]) e.integer(name, 10_000, 1, 600_000);
  for (const name of ["OTEL_EXPORTER_OTLP_COMPRESSION", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"]) e.choice(name, ["gzip", "none"] as const, "none");
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS", "OTEL_RESOURCE_ATTRIBUTES"]) {
    const raw = e.text(name);
    if (raw === undefined) continue;
    for (const [index, pair] of raw.split(",").entries()) {
      const at = pair.indexOf("=");
      if (at <= 0 || pair.slice(0, at).trim() === "") throw new ConfigError(`${name} must be a comma-separated list of key=value pairs: pair ${index + 1} has no key=`, name);
      try {
        decodeURIComponent(pair.slice(at + 1));
      } catch {
        throw new ConfigError(`${name}: the value of pair ${index + 1} is not percent-encoded correctly`, name);
      }
    }
  }
  e.integer("OTEL_BSP_SCHEDULE_DELAY", 5000, 0, 600_000);
  e.integer("OTEL_BSP_EXPORT_TIMEOUT", 30_000, 1, 600_000);
  const queue = e.integer("OTEL_BSP_MAX_QUEUE_SIZE", 2048, 1, 1_000_000);
  const batch = e.integer("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, 1, 1_000_000);
  if (batch > queue) throw new ConfigError(`OTEL_BSP_MAX_EXPORT_BATCH_SIZE (${batch}) must not exceed OTEL_BSP_MAX_QUEUE_SIZE (${queue})`, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE");
}

export interface Tracing {
  /** sends the spans buffered so far */
  flush(): Promise<void>;
  /** sends the spans still buffered, then unregisters the provider (for good: once per process) */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer provider when the settings ask for it (once per process: the
 * gateway and the subgraphs of `npm start` share it). The sampler is the SDK's, from
 * `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`); resource
 * attributes from `OTEL_RESOURCE_ATTRIBUTES`; the exporter's headers, timeout and compression from
 * its own `OTEL_EXPORTER_OTLP_*` variables.
 */
export async function startTracing(settings: TracingSettings | null, logger: Logger = new Logger("tracing")): Promise<Tracing | null> {
  if (!settings || tracingOn()) return null;
  // loaded only when tracing is on: a process that does not trace does not pay for the SDK
  const [{ defaultResource, detectResources, envDetector, resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] = await Promise.all([
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
  ]);
  const { OTLPTraceExporter } = settings.protocol === "http/json" ? await import("@opentelemetry/exporter-trace-otlp-http") : await import("@opentelemetry/exporter-trace-otlp-proto");
  const exporter = reportingFailures(new OTLPTraceExporter({ url: settings.url }), logger);
  // the SDK's telemetry.sdk.*, this build's version and this process's instance id, which
  // OTEL_RESOURCE_ATTRIBUTES may override; the service name OTEL_SERVICE_NAME or the component's
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.version": packageJson.version, "service.instance.id": randomUUID() }))
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ "service.name": settings.serviceName }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [apolloAttributesNamespaced, new BatchSpanProcessor(exporter)] });
  // the AsyncLocalStorage context manager and the W3C trace-context and baggage propagators
  provider.register();
  setTracingOn(true);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      setTracingOn(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** What BatchSpanProcessor asks of an exporter (the OTLP exporters are one). */
interface SpanExporter {
  export(spans: unknown[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/**
 * The exporter, with its failures told: each failed batch counted (`tracing_export_failures_total`,
 * its spans in `tracing_spans_dropped_total`), the first of an outage logged (again after a batch
 * got through). The SDK drops them otherwise with no log line and no metric.
 */
function reportingFailures<E extends SpanExporter>(exporter: E, logger: Logger): E {
  const send = exporter.export.bind(exporter);
  let failing = false;
  exporter.export = (spans, done) =>
    send(spans, (result) => {
      if (result.code === 0) {
        if (failing) logger.info("span export recovered");
        failing = false;
      } else {
        processMetrics().tracingExportFailures.inc();
        processMetrics().tracingSpansDropped.inc(spans.length);
        if (!failing) logger.warn("span export failed: spans are dropped until the collector answers", { spans: spans.length, error: result.error?.message ?? "unknown" });
        failing = true;
      }
      done(result);
    });
  return exporter;
}

/** @apollo/gateway's tracer (its spans: gateway.request, .plan, .fetch...) */
const APOLLO_GATEWAY_SCOPE = "apollo/gateway-js";

/**
 * @apollo/gateway's attributes outside any namespace, put in ours before the span is exported:
 * `service` (the subgraph of a `gateway.fetch`) becomes `directory_graph.subgraph`, and
 * `operationName`, a copy of `graphql.operation.name` it keeps for old tools, is dropped. The
 * library sets both when it starts its spans and offers no option; the SDK's span has no way to
 * remove an attribute, hence the `delete` on its attribute map, while the span is still open
 * (`onEnding`).
 */
const apolloAttributesNamespaced = {
  onStart() {},
  onEnding(span: { instrumentationScope: { name: string }; attributes: Record<string, unknown>; setAttribute(key: string, value: string): unknown }) {
    if (span.instrumentationScope.name !== APOLLO_GATEWAY_SCOPE) return;
    const attributes = span.attributes;
    if (typeof attributes.service === "string") span.setAttribute("directory_graph.subgraph", attributes.service);
    delete attributes.service;
    delete attributes.operationName;
  },
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
