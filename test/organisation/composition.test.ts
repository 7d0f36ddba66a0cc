import { composeServices } from "@apollo/composition";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";

/** The organisation SDL composes with the other subgraphs' committed SDL, without errors or hints. */

const schemaFile = (name: string) => new URL(`../../schema/${name}.graphql`, import.meta.url);

async function service(name: string) {
  return { name, url: `http://${name}.invalid/graphql`, typeDefs: parse(await readFile(schemaFile(name), "utf8")) };
}

describe("composition", () => {
  it("the organisation subgraph composes alone without errors or hints", async () => {
    const result = composeServices([await service("organisation")]);
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    expect((result.hints ?? []).map((h) => `${h.definition.code}: ${h.message}`)).toEqual([]);
  });

  it("the organisation subgraph composes with the others without errors or hints", async () => {
    const others = ["people", "legacy-time"].filter((name) => existsSync(schemaFile(name)));
    const result = composeServices([await service("organisation"), ...(await Promise.all(others.map(service)))]);
    expect(result.errors?.map((e) => e.message)).toBeUndefined();
    expect((result.hints ?? []).map((h) => `${h.definition.code}: ${h.message}`)).toEqual([]);
  });
});
