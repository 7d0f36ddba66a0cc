import { composeServices } from "@apollo/composition";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { readFile } from "node:fs/promises";
import { buildASTSchema, isObjectType, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { subgraphModules } from "../../scripts/subgraphs.js";
import { ConfigError, graphPrefix } from "../../platform/config.js";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { ownTypeNames } from "../../platform/own-types.js";

/**
 * The facade in a company supergraph: beside a company subgraph that extends its entities by key
 * and one with its own `Department`, `Taxonomy`, `Translation`, `PostalAddress`, `Money`, scalars
 * and `Query.department(s)`/`taxonomy(ies)`. Under GRAPH_PREFIX the composition is clean; without
 * it, the collisions are composition errors (which is why the setting exists).
 */

/** A company fixture subgraph, built with @apollo/subgraph from its SDL, as a gateway reads it. */
async function companySubgraph(file: string, prefix: string | null) {
  const source = (await readFile(new URL(`fixtures/${file}`, import.meta.url), "utf8")).replaceAll("__PREFIX__", prefix ?? "");
  return { name: file.replace(".graphql", ""), sdl: await subgraphSdl(buildSubgraphSchema({ typeDefs: parse(source) })) };
}

async function ourSubgraphs(prefix: string | null) {
  return Promise.all((await subgraphModules()).map(async (m) => ({ name: m.name, sdl: await subgraphSdl(await m.buildSchema({ prefix })) })));
}

function compose(subgraphs: Array<{ name: string; sdl: string }>) {
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: `http://${s.name}.invalid/graphql`, typeDefs: parse(s.sdl) })));
  return {
    errors: (result.errors ?? []).map((e) => `${(e.extensions?.code as string) ?? "?"}: ${e.message}`),
    hints: (result.hints ?? []).map((h) => `${h.definition.code}: ${h.message}`),
    supergraphSdl: result.errors ? null : result.supergraphSdl,
  };
}

describe("a company supergraph", () => {
  it("under GRAPH_PREFIX=Dir composes with both company subgraphs: no error, no hint", async () => {
    const result = compose([...(await ourSubgraphs("Dir")), await companySubgraph("company-people.graphql", "Dir"), await companySubgraph("company-own.graphql", null)]);
    expect(result.errors).toEqual([]);
    expect(result.hints).toEqual([]);
    // the company's extension reaches the directory's employee through the prefixed key
    const supergraph = buildASTSchema(parse(result.supergraphSdl!), { assumeValidSDL: true });
    const employee = supergraph.getType("DirEmployee");
    expect(isObjectType(employee) && Object.keys(employee.getFields())).toEqual(expect.arrayContaining(["givenName", "badgeNumber", "desk"]));
    // the company keeps its own types and root fields, untouched
    expect(Object.keys(supergraph.getQueryType()!.getFields())).toEqual(expect.arrayContaining(["department", "departments", "taxonomy", "taxonomies", "dirDepartment", "dirDepartments"]));
    expect(supergraph.getType("Date")?.description).toBe("The company's calendar date: a day in the company's own head-office time zone.");
  });

  it("under GRAPH_PREFIX=Dir, every type and root field the facade owns carries the prefix", async () => {
    for (const { name, sdl } of await ourSubgraphs("Dir")) {
      const document = parse(sdl);
      expect([...ownTypeNames(document)].filter((t) => !t.startsWith("Dir")), name).toEqual([]);
      const schema = buildASTSchema(document, { assumeValidSDL: true });
      for (const root of [schema.getQueryType(), schema.getMutationType()]) {
        const fields = Object.keys(root?.getFields() ?? {}).filter((f) => !f.startsWith("_"));
        expect(fields.filter((f) => !/^dir[A-Z]/.test(f)), name).toEqual([]);
      }
    }
  });

  it("without the setting, the extension by key composes cleanly but the company's own types collide", async () => {
    const ours = await ourSubgraphs(null);
    const extension = compose([...ours, await companySubgraph("company-people.graphql", null)]);
    expect(extension.errors).toEqual([]);
    const own = compose([...ours, await companySubgraph("company-own.graphql", null)]);
    console.log(`without GRAPH_PREFIX: ${own.errors.length} composition errors with the company's own types`);
    expect(own.errors.length).toBeGreaterThan(0);
    expect(own.errors.join("\n")).toMatch(/INVALID_FIELD_SHARING|FIELD_TYPE_MISMATCH/);
  });

  it("GRAPH_PREFIX accepts a PascalCase word and refuses anything else, naming the variable", () => {
    expect(graphPrefix({ GRAPH_PREFIX: undefined })).toBeNull();
    expect(graphPrefix({ GRAPH_PREFIX: "" })).toBeNull();
    expect(graphPrefix({ GRAPH_PREFIX: "Dir" })).toBe("Dir");
    expect(graphPrefix({ GRAPH_PREFIX: "AcmeHR2" })).toBe("AcmeHR2");
    for (const bad of ["dir", "Dir_", "Dir-x", " Dir", "Dir ", "D".repeat(21), "1Dir", "Dïr", "__"]) {
      expect(() => graphPrefix({ GRAPH_PREFIX: bad }), bad).toThrow(ConfigError);
      expect(() => graphPrefix({ GRAPH_PREFIX: bad }), bad).toThrow(/GRAPH_PREFIX/);
    }
  });
});
