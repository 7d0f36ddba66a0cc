import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { composeCommittedSubgraphs, DEFAULT_ROUTING_URLS } from "../../gateway/compose.js";
import { SUBGRAPH_NAMES } from "../../gateway/config.js";
import { API_SCHEMA_FILE, clientSchemaFiles, POSSIBLE_TYPES_FILE } from "../../scripts/client-schema.js";

describe("committed supergraph", () => {
  it("schema/supergraph.graphql is the composition of the committed subgraph SDL (run `npm run compose` after `npm run schema`)", async () => {
    const { supergraphSdl } = await composeCommittedSubgraphs();
    const committed = await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8");
    expect(committed).toBe(supergraphSdl);
  });

  it("schema/api.graphql and schema/possible-types.json are the client files of the supergraph (run `npm run compose`)", async () => {
    const { supergraphSdl } = await composeCommittedSubgraphs();
    const { apiSdl, possibleTypes } = await clientSchemaFiles(supergraphSdl);
    expect(await readFile(API_SCHEMA_FILE, "utf8")).toBe(apiSdl);
    expect(await readFile(POSSIBLE_TYPES_FILE, "utf8")).toBe(possibleTypes);
    expect(apiSdl).not.toMatch(/join__|link__|@tag|@link/);
    expect(JSON.parse(possibleTypes).possibleTypes.MutationError).toEqual(["ConflictError", "ForbiddenError", "InvalidInputError", "NotFoundError", "TimeEntryValidationError"]);
  });

  it("the subgraphs compose without hints", async () => {
    const { hints } = await composeCommittedSubgraphs();
    expect(hints).toEqual([]);
  });

  it("schema/prefixed/supergraph.graphql is the composition of the committed GRAPH_PREFIX=Dir SDL, without hints", async () => {
    const dir = new URL("../../schema/prefixed/", import.meta.url);
    const { supergraphSdl, hints } = await composeCommittedSubgraphs(dir);
    expect(await readFile(new URL("supergraph.graphql", dir), "utf8")).toBe(supergraphSdl);
    expect(hints).toEqual([]);
  });
});

describe("supergraph.yaml (for `rover supergraph compose`)", () => {
  /** The subgraphs of the file by name, read from its simple two-level layout. */
  async function yamlSubgraphs(): Promise<{ federationVersion: string | undefined; subgraphs: Record<string, { routingUrl?: string; file?: string }> }> {
    const text = await readFile(new URL("../../supergraph.yaml", import.meta.url), "utf8");
    const subgraphs: Record<string, { routingUrl?: string; file?: string }> = {};
    let current: { routingUrl?: string; file?: string } | null = null;
    for (const line of text.split("\n")) {
      const name = /^ {2}([\w-]+):\s*$/.exec(line);
      if (name) subgraphs[name[1]!] = current = {};
      const routing = /^\s+routing_url:\s*(\S+)/.exec(line);
      if (routing && current) current.routingUrl = routing[1];
      const file = /^\s+file:\s*(\S+)/.exec(line);
      if (file && current) current.file = file[1];
    }
    return { federationVersion: /^federation_version:\s*=?(\S+)/m.exec(text)?.[1], subgraphs };
  }

  it("lists the three subgraphs with the routing URLs and SDL files that `npm run compose` uses", async () => {
    const { subgraphs } = await yamlSubgraphs();
    expect(subgraphs).toEqual(
      Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, { routingUrl: DEFAULT_ROUTING_URLS[name], file: `./schema/${name}.graphql` }])),
    );
  });

  it("asks for the federation version of the composition library the project pins", async () => {
    const { federationVersion } = await yamlSubgraphs();
    const composition = JSON.parse(await readFile(new URL("../../node_modules/@apollo/composition/package.json", import.meta.url), "utf8")) as { version: string };
    expect(federationVersion).toBe(composition.version);
  });
});
