import { tracingSuite } from "../helpers/tracing-suite.js";

/** Traces exported over OTLP/HTTP with JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`). */
tracingSuite("http/json");
