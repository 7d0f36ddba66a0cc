import { readFile } from "node:fs/promises";
import { buildASTSchema, isObjectType, parse } from "graphql";
import { describe, expect, it } from "vitest";
import committed from "../../schema/field-checks.json" with { type: "json" };
import { parseFieldRules, type FieldRule } from "../../platform/field-rules.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import type { SubgraphName } from "../helpers/stack.js";

/**
 * Every rule of `schema/field-checks.json` is applied by the gateway (which reads only that table)
 * and by the subgraph that declares it, with the same message and `field`, before any upstream
 * call: a field below a list, or planned after another subgraph's fetch, costs nothing when its
 * arguments are refused.
 */

const stack = useGatewayStack();
const table = parseFieldRules(committed, "schema/field-checks.json");

const SUBGRAPHS: SubgraphName[] = ["people", "organisation", "legacy-time"];
const schemas = await Promise.all(
  SUBGRAPHS.map(async (name) => ({ name, schema: buildASTSchema(parse(await readFile(new URL(`../../schema/${name}.graphql`, import.meta.url), "utf8")), { assumeValidSDL: true }) })),
);

/** The subgraph that serves the field (declares its rules). */
function servedBy(coordinate: string): SubgraphName {
  const [typeName, fieldName] = coordinate.split(".") as [string, string];
  const found = schemas.find(({ schema }) => {
    const type = schema.getType(typeName);
    return isObjectType(type) && type.getFields()[fieldName] !== undefined && !type.astNode?.directives?.some((d) => d.name.value === "external");
  });
  if (!found) throw new Error(`no subgraph serves ${coordinate}`);
  return found.name;
}

interface Case {
  /** the field's arguments, as written in the operation */
  args: string;
  message: string;
  field: string;
}

/** The arguments that break each rule that is not an own filter; a rule of a new kind or field needs its case here. */
const CASES: Record<string, Case> = {
  "Employee.timeEntries ordered": { args: `from: "2026-06-02", to: "2026-06-01"`, message: "from (2026-06-02) must be on or before to (2026-06-01)", field: "from" },
  "Employee.timeEntries exclusive(modifiedSince, lastUpdatedSince)": {
    args: `from: "2026-06-01", to: "2026-06-07", modifiedSince: "2026-06-01T00:00:00", lastUpdatedSince: "2026-06-01T00:00:00"`,
    message: "modifiedSince and lastUpdatedSince cannot be given together: modifiedSince is the deprecated name of lastUpdatedSince: give only lastUpdatedSince",
    field: "modifiedSince",
  },
  "Employee.timeEntryConnection exclusive(filter.startsOn, filter.startsAt)": {
    args: `filter: { startsOn: { from: "2026-06-01" }, startsAt: { from: "2026-06-01T08:00:00" } }`,
    message: "filter.startsOn and filter.startsAt cannot be given together: both bound the entries' start",
    field: "filter.startsOn",
  },
  "Employee.timeEntryConnection exclusive(filter.modifiedSince, filter.lastUpdatedSince)": {
    args: `filter: { modifiedSince: "2026-06-01T00:00:00", lastUpdatedSince: "2026-06-01T00:00:00" }`,
    message: "filter.modifiedSince and filter.lastUpdatedSince cannot be given together: modifiedSince is the deprecated name of lastUpdatedSince: give only lastUpdatedSince",
    field: "filter.modifiedSince",
  },
  "Query.timeEntries nonEmpty": { args: `filter: { ownerIds: [] }`, message: "filter.ownerIds must name at least one employee", field: "filter.ownerIds" },
  "Query.timeEntries exclusive(filter.startsOn, filter.startsAt)": {
    args: `filter: { ownerIds: ["1"], startsOn: { from: "2026-06-01" }, startsAt: { from: "2026-06-01T08:00:00" } }`,
    message: "filter.startsOn and filter.startsAt cannot be given together: both bound the entries' start",
    field: "filter.startsOn",
  },
  "Query.timeEntries exclusive(filter.modifiedSince, filter.lastUpdatedSince)": {
    args: `filter: { ownerIds: ["1"], modifiedSince: "2026-06-01T00:00:00", lastUpdatedSince: "2026-06-01T00:00:00" }`,
    message: "filter.modifiedSince and filter.lastUpdatedSince cannot be given together: modifiedSince is the deprecated name of lastUpdatedSince: give only lastUpdatedSince",
    field: "filter.modifiedSince",
  },
};

/** A rule's name: its kind, and for an exclusive rule its paths (a field may have several). */
function ruleName(rule: FieldRule): string {
  return rule.rule === "exclusive" ? `exclusive(${rule.paths.join(", ")})` : rule.rule;
}

function caseOf(coordinate: string, rule: FieldRule): Case {
  if (rule.rule === "ownFilter") {
    return { args: `filter: { ${rule.field}: ["1"] }`, message: `filter.${rule.field} cannot be used on this field: it already filters on it`, field: `filter.${rule.field}` };
  }
  const found = CASES[`${coordinate} ${ruleName(rule)}`];
  if (!found) throw new Error(`no case breaks the ${ruleName(rule)} rule of ${coordinate}: add one to CASES`);
  return found;
}

const rules = Object.entries(table).flatMap(([coordinate, list]) => list.map((rule) => ({ coordinate, rule, name: `${coordinate} ${ruleName(rule)}` })));

describe("the field rules, before any upstream call", () => {
  it("has a case for every rule", () => {
    expect(rules.length).toBeGreaterThan(15);
    for (const { coordinate, rule } of rules) expect(() => caseOf(coordinate, rule)).not.toThrow();
  });

  it.each(rules)("$name: refused by the gateway and by its subgraph alike", async ({ coordinate, rule }) => {
    const { args, message, field } = caseOf(coordinate, rule);
    const [typeName, fieldName] = coordinate.split(".") as [string, string];
    const root = typeName === "Query";
    const selection = `${fieldName}(${args}) { __typename }`;
    // through the gateway: the field below its type's single read, or at the root
    const viaGateway = root ? `{ ${selection} }` : `{ ${typeName[0]!.toLowerCase()}${typeName.slice(1)}(id: "1") { ${selection} } }`;
    // at the subgraph: below a representation, or at the root
    const direct = root ? `{ ${selection} }` : `query($r: [_Any!]!) { _entities(representations: $r) { ... on ${typeName} { ${selection} } } }`;
    const subgraph = stack.subgraphs[servedBy(coordinate)]!;
    for (const [url, source, variables] of [
      [stack.gateway.url, viaGateway, {}],
      [subgraph.url, direct, { r: [{ __typename: typeName, id: "1" }] }],
    ] as const) {
      stack.resetStats();
      const response = await stack.gql(url, source, variables);
      expect(response.errors?.[0], source).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT", field } });
      expect(response.data ?? null, source).toBeNull();
      expect(stack.stats().total, source).toBe(0);
    }
  });
});
