import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { subgraphModules } from "../../scripts/subgraphs.js";
import { descriptionGapsOfSdl } from "./descriptions.js";
import { describeDocument } from "../../subgraphs/shared/graphql/descriptions.js";
import { buildASTSchema, parse } from "graphql";

/**
 * Every type, field, argument and enum value a frontend developer sees carries a description:
 * in each subgraph's schema built from the code and in the committed supergraph.
 */

function expectNoGaps(sdl: string) {
  const gaps = descriptionGapsOfSdl(sdl);
  expect(gaps.counts.fields).toBeGreaterThan(100);
  expect({ types: gaps.types, fields: gaps.fields, arguments: gaps.arguments, enumValues: gaps.enumValues }).toEqual({ types: [], fields: [], arguments: [], enumValues: [] });
}

describe("descriptions", async () => {
  for (const module of await subgraphModules()) {
    it(`describes every element of the ${module.name} subgraph`, async () => {
      expectNoGaps(await subgraphSdl(await module.buildSchema()));
    });
  }

  it("describes every element of the composed supergraph", async () => {
    expectNoGaps(await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8"));
  });

  it("keeps a decorator's description and fills the rest from the catalogue and the rules", () => {
    const schema = buildASTSchema(
      describeDocument(parse(`"""Own words."""\ntype Employee { """Own field words."""\n givenName: String\n familyName: String\n id: ID }\ntype Query { employees(first: Int): Int }`)),
      { assumeValidSDL: true },
    );
    const employee = schema.getType("Employee") as any;
    expect(employee.description).toBe("Own words.");
    expect(employee.getFields().givenName.description).toBe("Own field words.");
    expect(employee.getFields().familyName.description).toBe("Last name; the employee list sorts by it.");
    expect(employee.getFields().id.description).toMatch(/^Identifier of the employee in the directory, unique among employee records only/);
    expect(schema.getQueryType()!.getFields().employees!.args[0]!.description).toMatch(/0 to 100/);
  });

  it("finds an element without a description", () => {
    const gaps = descriptionGapsOfSdl(`"""A thing."""\ntype Query { """One."""\n one(id: ID): String\n two: Int }\n"""E."""\nenum E { """A."""\n A\n B }`);
    expect(gaps).toMatchObject({ types: [], fields: ["Query.two"], arguments: ["Query.one(id)"], enumValues: ["E.B"] });
  });
});
