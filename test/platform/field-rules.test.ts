import { describe, expect, it } from "vitest";
import { checkFieldRules, fieldRuleChecks, parseFieldRules, type FieldRule } from "../../platform/field-rules.js";

/**
 * The generic field rules (platform/field-rules.ts): what each kind refuses, with which message
 * and `field`, and the table the gateway reads (schema/field-checks.json) refused when it is not one.
 */

function refusal(rules: FieldRule[], args: object) {
  try {
    checkFieldRules(rules, args);
  } catch (err) {
    const { message, extensions } = err as { message: string; extensions: Record<string, unknown> };
    return { message, code: extensions.code, field: extensions.field };
  }
  return null;
}

describe("field rules", () => {
  it("ownFilter refuses the edge's own filter given, in any value but null", () => {
    const rules: FieldRule[] = [{ rule: "ownFilter", field: "departmentIds" }];
    const refused = { message: "filter.departmentIds cannot be used on this field: it already filters on it", code: "BAD_USER_INPUT", field: "filter.departmentIds" };
    expect(refusal(rules, { filter: { departmentIds: ["1"] } })).toEqual(refused);
    expect(refusal(rules, { filter: { departmentIds: [] } })).toEqual(refused);
    expect(refusal(rules, { filter: { departmentIds: null, employeeIds: ["1"] } })).toBeNull();
    expect(refusal(rules, { filter: null })).toBeNull();
    expect(refusal(rules, {})).toBeNull();
  });

  it("ordered refuses a `from` after its `to`, and leaves a missing bound alone", () => {
    const rules: FieldRule[] = [{ rule: "ordered", from: "from", to: "to" }];
    expect(refusal(rules, { from: "2026-06-02", to: "2026-06-01" })).toEqual({
      message: "from (2026-06-02) must be on or before to (2026-06-01)",
      code: "BAD_USER_INPUT",
      field: "from",
    });
    expect(refusal(rules, { from: "2026-06-01", to: "2026-06-01" })).toBeNull();
    expect(refusal(rules, { from: "2026-06-01" })).toBeNull();
    expect(refusal([{ rule: "ordered", from: "range.from", to: "range.to" }], { range: { from: "b", to: "a" } })?.message).toBe("range.from (b) must be on or before range.to (a)");
  });

  it("nonEmpty refuses a list that is empty, missing or no list", () => {
    const rules: FieldRule[] = [{ rule: "nonEmpty", path: "filter.ownerIds", naming: "employee" }];
    const refused = { message: "filter.ownerIds must name at least one employee", code: "BAD_USER_INPUT", field: "filter.ownerIds" };
    expect(refusal(rules, { filter: { ownerIds: [] } })).toEqual(refused);
    expect(refusal(rules, { filter: {} })).toEqual(refused);
    expect(refusal(rules, { filter: { ownerIds: "1" } })).toEqual(refused);
    expect(refusal(rules, { filter: { ownerIds: ["1"] } })).toBeNull();
  });

  it("exclusive refuses two arguments given together, naming the first", () => {
    const rules: FieldRule[] = [{ rule: "exclusive", paths: ["filter.startsOn", "filter.startsAt"], because: "both bound the entries' start" }];
    expect(refusal(rules, { filter: { startsOn: {}, startsAt: { from: "2026-01-01T00:00:00" } } })).toEqual({
      message: "filter.startsOn and filter.startsAt cannot be given together: both bound the entries' start",
      code: "BAD_USER_INPUT",
      field: "filter.startsOn",
    });
    expect(refusal(rules, { filter: { startsOn: {}, startsAt: null } })).toBeNull();
    expect(refusal(rules, { filter: { startsAt: {} } })).toBeNull();
  });

  it("checks a field's rules in order, then the process's own check of the field", () => {
    const seen: string[] = [];
    const checks = fieldRuleChecks(
      { "Query.items": [{ rule: "nonEmpty", path: "ids", naming: "item" }, { rule: "ordered", from: "from", to: "to" }] },
      { "Query.items": () => void seen.push("own"), "Query.other": () => void seen.push("other") },
    );
    expect(() => checks["Query.items"]!({ ids: [], from: "b", to: "a" })).toThrow("ids must name at least one item");
    expect(() => checks["Query.items"]!({ ids: ["1"], from: "b", to: "a" })).toThrow("from (b) must be on or before to (a)");
    expect(seen).toEqual([]);
    checks["Query.items"]!({ ids: ["1"] });
    checks["Query.other"]!({});
    expect(seen).toEqual(["own", "other"]);
  });

  it.each([
    ["no object", [], /is not a table of field rules/],
    ["an unknown rule", { "Query.items": [{ rule: "sometimes", field: "x" }] }, /is not a table of field rules: \/Query.items\/0/],
    ["a rule without its parameter", { "Query.items": [{ rule: "ownFilter" }] }, /is not a table of field rules/],
    ["a rule with a stray parameter", { "Query.items": [{ rule: "ownFilter", field: "x", also: 1 }] }, /is not a table of field rules/],
    ["a path that is no argument path", { "Query.items": [{ rule: "nonEmpty", path: "filter..ids", naming: "item" }] }, /is not a table of field rules/],
    ["a coordinate that is no field", { Items: [{ rule: "ownFilter", field: "x" }] }, /is not a table of field rules/],
    ["a field without rules", { "Query.items": [] }, /is not a table of field rules/],
  ])("refuses a table with %s, naming the file", (_case, table, message) => {
    expect(() => parseFieldRules(table, "schema/field-checks.json")).toThrow(message);
    expect(() => parseFieldRules(table, "schema/field-checks.json")).toThrow(/^schema\/field-checks\.json /);
  });

  it("reads a table of every kind", () => {
    const table = {
      "Employee.timeEntries": [{ rule: "ordered", from: "from", to: "to" }],
      "Query.timeEntries": [
        { rule: "nonEmpty", path: "filter.ownerIds", naming: "employee" },
        { rule: "exclusive", paths: ["filter.startsOn", "filter.startsAt"], because: "both bound the entries' start" },
      ],
      "Department.jobPositions": [{ rule: "ownFilter", field: "departmentIds" }],
    };
    expect(parseFieldRules(table, "table")).toEqual(table);
  });
});
