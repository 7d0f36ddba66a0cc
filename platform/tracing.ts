import { context, propagation, trace } from "@opentelemetry/api";
import { ConfigError, Environment, excerpt } from "./config.js";
import { setTracingOn, tracingOn } from "./request-scope.js";

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

export type OtlpProtocol = "http/protobuf" | "http/json";

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
  if (e.boolean("OTEL_SDK_DISABLED", false)) return null;
  const traces = e.text("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const base = e.text("OTEL_EXPORTER_OTLP_ENDPOINT");
  const exporter = e.text("OTEL_TRACES_EXPORTER");
  if (exporter === undefined ? traces === undefined && base === undefined : exporter === "none") return null;
  if (exporter !== undefined && exporter !== "otlp") {
    throw new ConfigError(`OTEL_TRACES_EXPORTER must be "otlp" or "none", got "${excerpt(exporter)}"`, "OTEL_TRACES_EXPORTER");
  }
  const protocolVariable = e.text("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = e.choice(protocolVariable, ["http/protobuf", "http/json"] as const, "http/protobuf");
  // the specification's defaults: a signal's endpoint is taken as is, the base gets `/v1/traces`
  const url = traces ?? `${(base ?? "http://localhost:4318").replace(/\/+$/, "")}/v1/traces`;
  const variable = traces !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
  // the value is not repeated: a URL may carry credentials
  if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new ConfigError(`${variable} must be an http(s) URL`, variable);
  return { url, protocol, serviceName: e.text("OTEL_SERVICE_NAME") ?? defaultServiceName };
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
export async function startTracing(settings: TracingSettings | null): Promise<Tracing | null> {
  if (!settings || tracingOn()) return null;
  // loaded only when tracing is on: a process that does not trace does not pay for the SDK
  const [{ detectResources, envDetector, resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] = await Promise.all([
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
  ]);
  const { OTLPTraceExporter } = settings.protocol === "http/json" ? await import("@opentelemetry/exporter-trace-otlp-http") : await import("@opentelemetry/exporter-trace-otlp-proto");
  const exporter = new OTLPTraceExporter({ url: settings.url });
  const resource = detectResources({ detectors: [envDetector] }).merge(resourceFromAttributes({ "service.name": settings.serviceName }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
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
