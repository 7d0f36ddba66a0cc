import { getComposedSchemaFromConfig } from "@graphql-mesh/compose-cli";
import { DefaultLogger } from "@graphql-mesh/utils";
import { loadOpenAPISubgraph } from "@omnigraph/openapi";

/**
 * The generated peer's supergraph: GraphQL Mesh (`@graphql-mesh/compose-cli` + `@omnigraph/openapi`)
 * composed from the OpenAPI document the in-process directory serves (`GET /service-api/openapi.json`),
 * its requests pointed at that directory. Nothing is written by hand: what the schema offers is
 * what the document describes. The bearer token is read at request time from the environment of
 * the gateway that serves it (MESH_DIRECTORY_TOKEN, see bench/mesh/serve.ts), so the composed SDL
 * holds no secret.
 */
export async function composeMeshSupergraph(directoryUrl: string): Promise<string> {
  return getComposedSchemaFromConfig(
    {
      subgraphs: [
        {
          sourceHandler: loadOpenAPISubgraph("Directory", {
            source: `${directoryUrl}/service-api/openapi.json`,
            endpoint: directoryUrl,
            operationHeaders: { Authorization: "Bearer {env.MESH_DIRECTORY_TOKEN}", "Api-Version": "2024-11-01" },
          }),
        },
      ],
    },
    new DefaultLogger("mesh-compose"),
  );
}
