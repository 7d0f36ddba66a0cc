import { describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.js";
import { tracingSettings } from "../../platform/tracing.js";

/** Which OTEL_* variables turn tracing on, and what a wrong one does (the process stops, naming it). */

describe("tracingSettings", () => {
  it("is off by default, and when the SDK is disabled or the exporter is none", () => {
    expect(tracingSettings({}, "svc")).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, "svc")).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" }, "svc")).toBeNull();
  });

  it("an OTLP endpoint turns it on: the base gets /v1/traces, a traces endpoint is taken as is; protobuf by default", () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }, "svc")).toEqual({ url: "http://collector:4318/v1/traces", protocol: "http/protobuf", serviceName: "svc" });
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://otlp.example.com/custom" }, "svc")?.url).toBe("https://otlp.example.com/custom");
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: "otlp" }, "svc")?.url).toBe("http://localhost:4318/v1/traces");
  });

  it("reads the protocol (the traces one first) and the service name", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_SERVICE_NAME: "directory-graph-eu" };
    expect(tracingSettings(env, "svc")).toMatchObject({ protocol: "http/json", serviceName: "directory-graph-eu" });
    expect(tracingSettings({ ...env, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" }, "svc")?.protocol).toBe("http/protobuf");
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    // without an endpoint (tracing would be off) as docs/configuration.md says: the start stops
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL"],
    [{ OTEL_TRACES_EXPORTER: "zipkin" }, "OTEL_TRACES_EXPORTER"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "ftp://c/v1/traces" }, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "maybe" }, "OTEL_SDK_DISABLED"],
  ])("%j stops the start with an error naming %s", (env, variable) => {
    expect(() => tracingSettings(env, "svc")).toThrow(ConfigError);
    expect(() => tracingSettings(env, "svc")).toThrow(new RegExp(variable));
  });
});
