import { readFile } from "node:fs/promises";
import { buildASTSchema, getNamedType, isInputObjectType, isObjectType, parse, type GraphQLInputField, type GraphQLNamedType, type GraphQLObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import committed from "../../schema/field-checks.json" with { type: "json" };
import { parseFieldRules, type FieldRule } from "../../platform/field-rules.js";

/**
 * `schema/field-checks.json` (the subgraphs' field rules, the gateway's copy; its drift from the
 * code is drift.test.ts') against the composed graph: every field below the root that takes a
 * filter has its rules, so that an edge added without declaring its own filter fails here, and
 * every rule names a field of the graph and arguments it takes.
 */

const table = parseFieldRules(committed, "schema/field-checks.json");
const supergraph = buildASTSchema(parse(await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8")), { assumeValidSDL: true });
const roots = new Set([supergraph.getQueryType(), supergraph.getMutationType()].map((type) => type?.name));

/** The argument paths a rule reads. */
function pathsOf(rule: FieldRule): string[] {
  switch (rule.rule) {
    case "ownFilter":
      return [`filter.${rule.field}`];
    case "ordered":
      return [rule.from, rule.to];
    case "nonEmpty":
      return [rule.path];
    case "exclusive":
      return [...rule.paths];
  }
}

/** Whether the field at `coordinate` takes the argument path (`filter.ownerIds`: the argument `filter`, its input field `ownerIds`). */
function takes(coordinate: string, path: string): boolean {
  const [typeName, fieldName] = coordinate.split(".") as [string, string];
  const type = supergraph.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  const [argument, ...inner] = path.split(".");
  const arg = field?.args.find((a) => a.name === argument);
  let at: GraphQLNamedType | undefined = arg && getNamedType(arg.type);
  for (const name of inner) {
    const next: GraphQLInputField | undefined = isInputObjectType(at) ? at.getFields()[name] : undefined;
    at = next && getNamedType(next.type);
  }
  return at !== undefined;
}

describe("schema/field-checks.json", () => {
  it("has the rules of every field below the root that takes a filter (at least the edge's own filter)", () => {
    const filtered = Object.values(supergraph.getTypeMap())
      .filter((type) => isObjectType(type) && !type.name.startsWith("__") && !roots.has(type.name))
      .flatMap((type) => Object.values((type as GraphQLObjectType).getFields()).map((field) => ({ type, field })))
      .filter(({ field }) => field.args.some((arg) => arg.name === "filter"))
      .map(({ type, field }) => `${type.name}.${field.name}`);
    expect(filtered.length).toBeGreaterThan(15);
    expect(filtered.filter((coordinate) => !table[coordinate])).toEqual([]);
  });

  it("names fields of the graph, and only arguments they take", () => {
    const wrong = Object.entries(table).flatMap(([coordinate, rules]) =>
      rules.flatMap(pathsOf).filter((path) => !takes(coordinate, path)).map((path) => `${coordinate}(${path})`),
    );
    expect(Object.keys(table).length).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
  });

  it("would notice an argument the field does not take", () => {
    expect(takes("Department.jobPositions", "filter.departmentIds")).toBe(true);
    expect(takes("Department.jobPositions", "filter.departmentId")).toBe(false);
    expect(takes("Department.nothing", "filter")).toBe(false);
    expect(takes("Employee.timeEntries", "from")).toBe(true);
  });
});
