import { describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { counting, ENTITIES_QUERY, query, representations, send } from "./helpers.js";

/**
 * `_entities`, as the gateway calls it: a whole batch of representations answered in order with
 * a handful of upstream calls, whatever the batch's length; unknown ids are null without error.
 */

const stack = useStack({ subgraphs: ["organisation"] });

const company = () => stack.directory.company;

/** 200 ids: every known id of the collection in turn, with unknown ids mixed in. */
function twoHundred(known: readonly string[]): string[] {
  return Array.from({ length: 200 }, (_, i) => (i % 5 === 4 ? `unknown-${i}` : known[i % known.length]!));
}

async function resolve(typename: string, ids: readonly string[]) {
  return counting(stack, () => query(stack, ENTITIES_QUERY, { r: representations(typename, ids) }));
}

describe("200 representations", () => {
  it("200 departments are answered in order with one upstream call", async () => {
    const ids = twoHundred(company().departments.map((d) => d.id));
    const { result, calls } = await resolve("Department", ids);
    expect(result._entities).toEqual(
      ids.map((id) => {
        const record = company().departments.find((d) => d.id === id);
        return record ? { __typename: "Department", id, name: record.name } : null;
      }),
    );
    expect(calls.byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("200 business establishments are answered in order with one upstream call", async () => {
    const ids = twoHundred(company().businessEstablishments.map((b) => b.id));
    const { result, calls } = await resolve("BusinessEstablishment", ids);
    expect(result._entities).toEqual(
      ids.map((id) => {
        const record = company().businessEstablishments.find((b) => b.id === id);
        return record ? { __typename: "BusinessEstablishment", id, name: record.name } : null;
      }),
    );
    expect(calls.byRoute).toEqual({ "GET /service-api/business-establishments": 1 });
  });

  it("200 distinct department ids, most of them unknown, still cost one call", async () => {
    const ids = Array.from({ length: 200 }, (_, i) => String(i + 1));
    const { result, calls } = await resolve("Department", ids);
    expect(result._entities.filter((e: unknown) => e !== null)).toHaveLength(company().departments.length);
    expect(calls.total).toBe(1);
  });

  const others: Array<[string, string, () => Array<{ id: string }>, string]> = [
    ["LegalEntity", "legal-entities", () => company().legalEntities, "legalName"],
    ["EmploymentTemplate", "employment-templates", () => company().employmentTemplates, "title"],
    ["OccupationCategory", "occupation-categories", () => company().occupationCategories, "title"],
    ["JobQualification", "job-qualifications", () => company().jobQualifications, "title"],
    ["Taxonomy", "taxonomies", () => company().taxonomies, "name"],
    ["TaxonomyLabel", "taxonomy-labels", () => company().taxonomyLabels, "name"],
  ];
  for (const [typename, collection, records, field] of others) {
    it(`200 ${typename} representations cost one upstream call`, async () => {
      const ids = twoHundred(records().map((r) => r.id));
      const { result, calls } = await resolve(typename, ids);
      expect(result._entities).toEqual(
        ids.map((id) => {
          const record = records().find((r) => r.id === id) as Record<string, unknown> | undefined;
          return record ? { __typename: typename, id, [field]: record[field] } : null;
        }),
      );
      expect(calls.byRoute).toEqual({ [`GET /service-api/${collection}`]: 1 });
    });
  }
});

describe("one representation", () => {
  it("one department costs one single read", async () => {
    const id = company().departments[4]!.id;
    const { result, calls } = await resolve("Department", [id]);
    expect(result._entities).toEqual([{ __typename: "Department", id, name: company().departments[4]!.name }]);
    expect(calls.byRoute).toEqual({ "GET /service-api/departments/{id}": 1 });
  });

  it("one employment template, which has no single read, costs one list call", async () => {
    const id = company().employmentTemplates[2]!.id;
    const { calls } = await resolve("EmploymentTemplate", [id]);
    expect(calls.byRoute).toEqual({ "GET /service-api/employment-templates": 1 });
  });

  it("an unknown department is null without error", async () => {
    const response = await send(stack, ENTITIES_QUERY, { r: representations("Department", ["424242"]) });
    expect(response.errors).toBeUndefined();
    expect(response.data._entities).toEqual([null]);
  });

  it("an unknown job qualification is null without error", async () => {
    const response = await send(stack, ENTITIES_QUERY, { r: representations("JobQualification", ["424242"]) });
    expect(response.errors).toBeUndefined();
    expect(response.data._entities).toEqual([null]);
  });

  it("an empty id is BAD_USER_INPUT at its own index without any upstream call", async () => {
    const { result, calls } = await counting(stack, () => send(stack, ENTITIES_QUERY, { r: representations("Department", ["", "1"]) }));
    expect(result.data?._entities[0]).toBeNull();
    expect(result.data?._entities[1]).toMatchObject({ id: "1" });
    expect(result.errors?.[0]).toMatchObject({ path: ["_entities", 0], extensions: { code: "BAD_USER_INPUT" } });
    expect(calls.total).toBeLessThanOrEqual(1);
  });
});

describe("a mixed batch", () => {
  it("representations of every type in one batch cost one call per type", async () => {
    const r = [
      ...representations("Department", company().departments.slice(0, 20).map((d) => d.id)),
      ...representations("BusinessEstablishment", company().businessEstablishments.map((b) => b.id)),
      ...representations("LegalEntity", company().legalEntities.map((l) => l.id)),
      ...representations("TaxonomyLabel", company().taxonomyLabels.slice(0, 5).map((l) => l.id)),
    ];
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Department { id parent { id } } ... on BusinessEstablishment { legalEntity { id } } ... on LegalEntity { id } ... on TaxonomyLabel { taxonomy { id } } } }`, { r }),
    );
    expect(result._entities.every((e: unknown) => e !== null)).toBe(true);
    expect(calls.byRoute).toEqual({
      "GET /service-api/departments": 1,
      "GET /service-api/business-establishments": 1,
      "GET /service-api/legal-entities": 1,
      "GET /service-api/taxonomy-labels": 1,
      "GET /service-api/taxonomies": 1,
    });
  });
});
