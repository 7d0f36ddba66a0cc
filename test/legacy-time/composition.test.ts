import { composeServices } from "@apollo/composition";
import { readFile } from "node:fs/promises";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { subgraph } from "../../subgraphs/legacy-time/index.js";

/** The legacy-time SDL as the code builds it composes with the other two subgraphs' committed SDL, without errors or hints. */

const SCHEMA_DIR = new URL("../../schema/", import.meta.url);
const SUBGRAPHS = ["people", "organisation"];

describe("legacy-time composition", () => {
  it("composes with the committed SDL of the other subgraphs without errors or hints", async () => {
    const services = [{ name: "legacy-time", url: "http://legacy-time.invalid", typeDefs: parse(await subgraphSdl(await subgraph.buildSchema())) }];
    for (const name of SUBGRAPHS) {
      services.push({ name, url: `http://${name}.invalid`, typeDefs: parse(await readFile(new URL(`${name}.graphql`, SCHEMA_DIR), "utf8")) });
    }
    const result = composeServices(services);
    expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
    expect((result.hints ?? []).map((h) => `${h.definition.code}: ${h.message}`)).toEqual([]);
  });
});
