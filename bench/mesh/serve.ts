import { createServer } from "node:http";
import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";
import restTransport from "@graphql-mesh/transport-rest";

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
const server = createServer(runtime);
server.listen(Number(process.env.GATEWAY_PORT), "127.0.0.1", () => console.log(`bench-mesh http://127.0.0.1:${process.env.GATEWAY_PORT}/graphql`));
const stop = () => server.close(async () => {
  await runtime.dispose();
  process.exit(0);
});
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
