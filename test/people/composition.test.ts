import { composeServices } from "@apollo/composition";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { subgraph } from "../../subgraphs/people/index.js";

/** The people SDL composes as a Federation 2 subgraph, alone and with the other subgraphs' committed SDL. */

const peopleSdl = async () => subgraphSdl(await subgraph.buildSchema());

function compose(services: Array<{ name: string; sdl: string }>) {
  return composeServices(services.map((s) => ({ name: s.name, url: `http://${s.name}.invalid/graphql`, typeDefs: parse(s.sdl) })));
}

const describeHints = (hints: ReadonlyArray<{ definition: { code: string }; message: string }> | undefined) =>
  (hints ?? []).map((h) => `${h.definition.code}: ${h.message}`);

describe("composition", () => {
  it("the people subgraph composes alone without errors or hints", async () => {
    const result = compose([{ name: "people", sdl: await peopleSdl() }]);
    expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
    expect(describeHints(result.hints)).toEqual([]);
    expect(result.supergraphSdl).toContain("type Employee");
  });

  const others = ["organisation", "legacy-time"].map((name) => ({ name, file: new URL(`../../schema/${name}.graphql`, import.meta.url) }));
  const available = others.every((o) => existsSync(o.file));

  it.runIf(existsSync(others[0]!.file))("people composes with the committed organisation SDL without errors or hints", async () => {
    const result = compose([
      { name: "people", sdl: await peopleSdl() },
      { name: "organisation", sdl: await readFile(others[0]!.file, "utf8") },
    ]);
    expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
    expect(describeHints(result.hints)).toEqual([]);
  });

  it.runIf(available)("people composes with the committed organisation and legacy-time SDL without errors or hints", async () => {
    const services = [{ name: "people", sdl: await peopleSdl() }];
    for (const o of others) services.push({ name: o.name, sdl: await readFile(o.file, "utf8") });
    const result = compose(services);
    expect(result.errors?.map((e) => e.message) ?? []).toEqual([]);
    expect(describeHints(result.hints)).toEqual([]);
  });
});
