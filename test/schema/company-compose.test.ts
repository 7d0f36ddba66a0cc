import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildASTSchema, isObjectType, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { composeWithCompany, facadeEntities, prefixTraps } from "../../gateway/company.js";

/**
 * The prefix trap (gateway/company.ts): a company subgraph that still extends `Employee` and
 * `LegalEntity` under GRAPH_PREFIX=Dir composes with no error and no hint, as entities of its own;
 * `npm run compose -- --company` says so, with the names to use. A company's own `Department`
 * (another key) is not flagged.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const fixture = (file: string, prefix: string) => readFileSync(new URL(`fixtures/${file}`, import.meta.url), "utf8").replaceAll("__PREFIX__", prefix);

describe("company subgraphs beside ours (npm run compose -- --company)", () => {
  it("an unprefixed extension of Employee and LegalEntity: composes, and a warning names DirEmployee and DirLegalEntity", async () => {
    const result = await composeWithCompany([
      { name: "hr", typeDefs: parse(fixture("company-people.graphql", "")) },
      { name: "own", typeDefs: parse(fixture("company-own.graphql", "")) },
    ]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^company subgraph "hr" declares Employee with the directory's key \(id\), which GRAPH_PREFIX=Dir renamed: .* never reach DirEmployee; extend `type DirEmployee @key\(fields: "id"\)` instead$/),
      expect.stringMatching(/^company subgraph "hr" declares LegalEntity .* extend `type DirLegalEntity @key\(fields: "id"\)` instead$/),
    ]);
    // the trap itself: the company's fields sit on an Employee of their own, not on DirEmployee
    const supergraph = buildASTSchema(parse(result.supergraphSdl), { assumeValidSDL: true });
    const dirEmployee = supergraph.getType("DirEmployee");
    expect(isObjectType(dirEmployee) && Object.keys(dirEmployee.getFields())).not.toContain("badgeNumber");
  });

  it("the prefixed extension: no warning, and the company's fields reach DirEmployee", async () => {
    const result = await composeWithCompany([
      { name: "hr", typeDefs: parse(fixture("company-people.graphql", "Dir")) },
      { name: "own", typeDefs: parse(fixture("company-own.graphql", "")) },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.hints).toEqual([]);
    const dirEmployee = buildASTSchema(parse(result.supergraphSdl), { assumeValidSDL: true }).getType("DirEmployee");
    expect(isObjectType(dirEmployee) && Object.keys(dirEmployee.getFields())).toEqual(expect.arrayContaining(["givenName", "badgeNumber"]));
  });

  it("`extend type Employee` is flagged too; a name taken twice is refused", async () => {
    const extension = parse(`extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])\nextend type Employee @key(fields: "id") { id: ID! desk: String }\ntype Query { desks: [String] }`);
    expect(prefixTraps({ name: "desks", typeDefs: extension }, await facadeEntities())).toEqual([
      expect.stringMatching(/^company subgraph "desks" extends Employee, .* `type DirEmployee @key\(fields: "id"\)`/),
    ]);
    await expect(composeWithCompany([{ name: "people", typeDefs: parse(fixture("company-people.graphql", "Dir")) }])).rejects.toThrow('two subgraphs are named "people"');
  });

  it("the command prints the warnings and writes the supergraph where --out says, leaving the committed ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "company-compose-"));
    writeFileSync(join(dir, "hr.graphql"), fixture("company-people.graphql", ""));
    const before = readFileSync(join(ROOT, "schema/prefixed/supergraph.graphql"), "utf8");
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/compose.ts", "--company", `hr=${join(dir, "hr.graphql")}`, "--out", join(dir, "out.graphql")], { cwd: ROOT, encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr.split("\n").filter((l) => l.startsWith("warning: "))).toHaveLength(2);
    expect(run.stderr).toContain("DirEmployee");
    expect(run.stdout).toContain(`wrote ${join(dir, "out.graphql")} (2 warnings)`);
    expect(readFileSync(join(dir, "out.graphql"), "utf8")).toContain("type DirEmployee");
    expect(readFileSync(join(ROOT, "schema/prefixed/supergraph.graphql"), "utf8")).toBe(before);
    const bad = spawnSync(process.execPath, ["--import", "tsx", "scripts/compose.ts", "--company", "hr"], { cwd: ROOT, encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('compose: --company takes <name>=<file.graphql>, got "hr"');
  });
});
