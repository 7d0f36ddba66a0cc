import { readFile } from "node:fs/promises";
import { parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { subgraphModules } from "../../scripts/subgraphs.js";
import { subgraphSdl } from "../../subgraphs/shared/graphql/federation.js";
import { CONTRACT_TAGS, tagsOf } from "../../subgraphs/shared/graphql/tags.js";
import { apiSchema, contractVariant, fieldsOf, fieldsTagged, typesOf } from "./contracts.js";
import type { GraphQLSchema } from "graphql";

/**
 * Contracts from the committed supergraph: a variant without the `personal`, `legacy` or `write`
 * elements is a valid schema that lacks exactly those elements and the types only they reached.
 */

let api: GraphQLSchema;
const counts: Record<string, { types: number; fields: number }> = {};

beforeAll(async () => {
  api = apiSchema(await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8"));
  counts.full = { types: typesOf(api).size, fields: fieldsOf(api).size };
});

function variant(exclude: string[]) {
  const schema = contractVariant(api, exclude);
  counts[`without ${exclude.join("+")}`] = { types: typesOf(schema).size, fields: fieldsOf(schema).size };
  return schema;
}

/** What the variant left out: fields of surviving types, and whole types. */
function removed(schema: GraphQLSchema) {
  const kept = fieldsOf(schema);
  const keptTypes = typesOf(schema);
  const gone = [...fieldsOf(api)].filter((f) => !kept.has(f));
  return {
    fieldsOfKeptTypes: gone.filter((f) => keptTypes.has(f.split(".")[0]!)).sort(),
    types: [...typesOf(api)].filter((t) => !keptTypes.has(t)).sort(),
  };
}

describe("contract variants", () => {
  it("every field the tag catalogue names exists in a subgraph, so a rename cannot drop a tag silently", async () => {
    const fields = new Set<string>();
    for (const module of await subgraphModules()) {
      for (const def of parse(await subgraphSdl(await module.buildSchema())).definitions) {
        if (!("fields" in def) || !def.fields || !("name" in def) || !def.name) continue;
        for (const field of def.fields) if (tagsOf(def.name.value, field.name.value).length) fields.add(`${def.name.value}.${field.name.value}`);
      }
    }
    for (const tag of CONTRACT_TAGS) expect(fieldsTagged(api, tag).size, tag).toBeGreaterThan(0);
    const tagged = new Set(CONTRACT_TAGS.flatMap((tag) => [...fieldsTagged(api, tag)]));
    expect([...fields].sort()).toEqual([...tagged].sort());
  });

  it("without personal: every personal field is gone, and nothing else but the types only they reached", () => {
    const schema = variant(["personal"]);
    const personal = fieldsTagged(api, "personal");
    const { fieldsOfKeptTypes, types } = removed(schema);
    expect(fieldsOfKeptTypes).toEqual([...personal].filter((f) => typesOf(schema).has(f.split(".")[0]!)).sort());
    for (const field of personal) expect(fieldsOf(schema).has(field), field).toBe(false);
    expect(types).toEqual([
      "BankAccount",
      "BirthDay",
      "EmployeePersonalRecord",
      "EmployeePersonalRecordConnection",
      "EmployeePersonalRecordEdge",
      "EmployeePersonalRecordFilter",
      "LegacyBankAccount",
      "LegacyGender",
      "LegalGender",
      "PersonalTitle",
    ]);
  });

  it("without legacy: nothing of the legacy API is left, the current API is whole", () => {
    const schema = variant(["legacy"]);
    const types = typesOf(schema);
    for (const t of ["WorkContract", "TimeEntry", "AxisSection", "LegacyUser", "LegacyDepartment", "LegacyEstablishment", "LocalDateTime"]) expect(types.has(t), t).toBe(false);
    expect(Object.keys(schema.getMutationType()!.getFields())).toEqual(["triggerWebhookTestDelivery"]);
    const { fieldsOfKeptTypes } = removed(schema);
    expect(fieldsOfKeptTypes).toEqual([...fieldsTagged(api, "legacy")].filter((f) => types.has(f.split(".")[0]!)).sort());
    expect(types.has("Employee") && types.has("Department") && types.has("Employment")).toBe(true);
  });

  it("without write: a read-only graph with no Mutation type", () => {
    const schema = variant(["write"]);
    expect(schema.getMutationType()).toBeUndefined();
    expect(typesOf(schema).has("TimeEntryInput")).toBe(false);
    expect(typesOf(schema).has("TimeEntry")).toBe(true);
  });

  it("without all three: a valid read-only current-API graph without personal data", () => {
    const schema = variant(["personal", "legacy", "write"]);
    expect(schema.getMutationType()).toBeUndefined();
    expect(typesOf(schema).has("EmployeePersonalRecord")).toBe(false);
    console.log(`contract variants (types, fields): ${JSON.stringify(counts)}`);
  });

  it("the filter removes a tagged field, then what became empty or unreachable", () => {
    const small = apiSchema(`directive @tag(name: String!) repeatable on FIELD_DEFINITION
      type Query { a: A  b: Int @tag(name: "x") }  type A { c: C @tag(name: "x") d: Int }  type C { e: Int }`);
    const schema = contractVariant(small, ["x"]);
    expect([...fieldsOf(schema)].sort()).toEqual(["A.d", "Query.a"]);
    expect(() => contractVariant(apiSchema(`directive @tag(name: String!) repeatable on FIELD_DEFINITION\ntype Query { a: Int @tag(name: "x") }`), ["x"])).toThrow(/invalid contract variant/);
  });
});
