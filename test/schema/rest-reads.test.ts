import { readFileSync } from "node:fs";
import { buildASTSchema, isObjectType, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { registerCurrentApi } from "../../directory/current/index.js";
import { generateCompany } from "../../directory/data/generate.js";
import { Router } from "../../directory/http/router.js";
import { registerLegacyApi } from "../../directory/legacy/index.js";

/**
 * docs/graph.md's table "Every REST read and the field that serves it" is whole and true: every GET
 * route the in-process service serves has its row, every row is such a route, and every field it
 * names exists in the committed supergraph.
 */

const GRAPH_DOC = readFileSync(new URL("../../docs/graph.md", import.meta.url), "utf8");
const SUPERGRAPH = buildASTSchema(parse(readFileSync(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8")), { assumeValidSDL: true });

function tableRows(): Array<{ path: string; servedBy: string }> {
  const start = GRAPH_DOC.indexOf("### Every REST read and the field that serves it");
  expect(start).toBeGreaterThan(0);
  // up to the next heading of any level, or the end of the page
  const next = GRAPH_DOC.slice(start + 1).search(/\n#{1,3} /);
  const section = next < 0 ? GRAPH_DOC.slice(start) : GRAPH_DOC.slice(start, start + 1 + next);
  return [...section.matchAll(/^\| `GET ([^`?]+)(?:\?[^`]*)?` \| (.+) \|$/gm)].map((m) => ({ path: m[1]!, servedBy: m[2]! }));
}

function getRoutes(): string[] {
  const router = new Router();
  const ctx = { company: generateCompany({ employees: 5 }), options: { tokenLifetimeSeconds: 60 } };
  registerCurrentApi(router, ctx as never);
  registerLegacyApi(router, ctx as never);
  // the in-process service's description of itself is no read of the interface: no field serves it
  return router.list().filter((r) => r.method === "GET" && r.pattern !== "/service-api/openapi.json").map((r) => r.pattern);
}

describe("docs/graph.md's table of REST reads", () => {
  const rows = tableRows();

  it("has one row for every GET route of the in-process service, and no other", () => {
    const routes = getRoutes();
    expect(routes.length).toBeGreaterThan(40);
    expect([...new Set(rows.map((r) => r.path))].sort()).toEqual([...new Set(routes)].sort());
    expect(rows.length).toBe(new Set(rows.map((r) => r.path)).size);
  });

  it("names in each row only fields of the supergraph, at least one a row", () => {
    for (const { path, servedBy } of rows) {
      const coordinates = [...servedBy.matchAll(/`([A-Z][A-Za-z]*)\.([a-z][A-Za-z]*)`/g)];
      expect(coordinates.length, path).toBeGreaterThan(0);
      for (const [, typeName, field] of coordinates) {
        const type = SUPERGRAPH.getType(typeName!);
        expect(isObjectType(type) && type.getFields()[field!] !== undefined, `${path}: ${typeName}.${field}`).toBe(true);
      }
    }
  });
});
