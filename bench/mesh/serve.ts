import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";
import restTransport from "@graphql-mesh/transport-rest";
import { serveRuntime } from "../serve-runtime.js";

/**
 * The generated peer as its own process: Hive Gateway serving the Mesh supergraph that
 * bench/mesh/compose.ts composed from the directory's OpenAPI document (the file MESH_SUPERGRAPH),
 * with Mesh's REST transport calling the directory the document names. MESH_DIRECTORY_TOKEN is
 * the bearer token its requests carry. Listens on GATEWAY_PORT and prints `bench-mesh <url>`.
 */

const runtime = createGatewayRuntime({
  supergraph: process.env.MESH_SUPERGRAPH!,
  logging: false,
  maskedErrors: false,
  landingPage: false,
  transports: { rest: restTransport },
});
serveRuntime(runtime, "bench-mesh");
