import { tracingSuite } from "../helpers/tracing-suite.js";

/** Traces exported over OTLP/HTTP with protobuf (the default protocol); tracing-json.test.ts sends JSON. */
tracingSuite("http/protobuf");
