import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { readFile } from "node:fs/promises";
import { SUBGRAPH_NAMES } from "./config.js";

/**
 * Composition of the committed subgraph SDL files into the supergraph, as `npm run compose`
 * writes it and as the drift test checks it. The routing URLs are the defaults of the embedded
 * demo; the gateway (and Apollo Router's `override_subgraph_url`) can point elsewhere.
 */

export const DEFAULT_ROUTING_URLS = {
  people: "http://127.0.0.1:4001/graphql",
  organisation: "http://127.0.0.1:4002/graphql",
  "legacy-time": "http://127.0.0.1:4003/graphql",
} as const;

/** The GRAPH_PREFIX whose SDL is committed under schema/prefixed/ (`npm run schema`). */
export const COMMITTED_PREFIX = "Dir";

export interface Composition {
  supergraphSdl: string;
  hints: string[];
}

export class CompositionError extends Error {}

export async function composeCommittedSubgraphs(schemaDir = new URL("../schema/", import.meta.url)): Promise<Composition> {
  const services = await Promise.all(
    SUBGRAPH_NAMES.map(async (name) => ({
      name,
      url: DEFAULT_ROUTING_URLS[name],
      typeDefs: parse(await readFile(new URL(`${name}.graphql`, schemaDir), "utf8")),
    })),
  );
  const result = composeServices(services);
  if (result.errors) {
    throw new CompositionError(`composition failed:\n${result.errors.map((e) => `- ${e.message}`).join("\n")}`);
  }
  return {
    supergraphSdl: result.supergraphSdl.trim() + "\n",
    hints: result.hints.map((h) => `${h.definition.code}: ${h.message}`),
  };
}
