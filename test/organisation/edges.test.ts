import { describe, expect, it } from "vitest";
import type { Department } from "../../directory/data/model.js";
import { useStack } from "../helpers/stack.js";
import { counting, query } from "./helpers.js";

/** The edges between the organisation's entities, and what they cost upstream. */

const stack = useStack({ subgraphs: ["organisation"] });

const company = () => stack.directory.company;
const department = (id: string) => company().departments.find((d) => d.id === id)!;
const ancestorsOf = (d: Department): string[] => (d.parentId === null ? [] : [...ancestorsOf(department(d.parentId)), d.parentId]);

describe("department tree", () => {
  it("a department's children are the departments whose parent it is, by id", async () => {
    const parent = company().departments.find((d) => company().departments.filter((c) => c.parentId === d.id).length >= 2)!;
    const data = await query(stack, `query($id: ID!) { department(id: $id) { children { id parent { id } } } }`, { id: parent.id });
    const expected = company().departments.filter((d) => d.parentId === parent.id).map((d) => ({ id: d.id, parent: { id: parent.id } }));
    expect(data.department.children).toEqual(expected);
  });

  it("children can leave out archived departments", async () => {
    const archived = company().departments.find((d) => d.isArchived && d.parentId !== null)!;
    const data = await query(stack, `query($id: ID!) { department(id: $id) { all: children { id } active: children(isArchived: false) { id } } }`, {
      id: archived.parentId,
    });
    expect(data.department.all.map((d: any) => d.id)).toContain(archived.id);
    expect(data.department.active.map((d: any) => d.id)).not.toContain(archived.id);
  });

  it("a leaf department has no children", async () => {
    const leaf = company().departments.find((d) => !company().departments.some((c) => c.parentId === d.id))!;
    const data = await query(stack, `query($id: ID!) { department(id: $id) { children { id } } }`, { id: leaf.id });
    expect(data.department.children).toEqual([]);
  });

  it("ancestors run from the root down to the parent", async () => {
    const deepest = [...company().departments].sort((a, b) => b.level - a.level)[0]!;
    expect(deepest.level).toBeGreaterThanOrEqual(4);
    const data = await query(stack, `query($id: ID!) { department(id: $id) { ancestors { id level } } }`, { id: deepest.id });
    expect(data.department.ancestors.map((d: any) => d.id)).toEqual(ancestorsOf(deepest));
    expect(data.department.ancestors.map((d: any) => d.level)).toEqual(Array.from({ length: deepest.level - 1 }, (_, i) => i + 1));
  });

  it("a deep department and its ancestors cost one call: the collection's page, read at once, holds them all", async () => {
    const deepest = [...company().departments].sort((a, b) => b.level - a.level)[0]!;
    const { calls } = await counting(stack, () => query(stack, `query($id: ID!) { department(id: $id) { ancestors { name } } }`, { id: deepest.id }));
    expect(calls.byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("a second-level department and its parent cost one call, in one round: the collection's page", async () => {
    const second = company().departments.find((d) => d.level === 2)!;
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($id: ID!) { department(id: $id) { ancestors { id } parent { id name } } }`, { id: second.id }),
    );
    expect(result.department.parent).toEqual({ id: second.parentId, name: department(second.parentId!).name });
    expect(result.department.ancestors).toEqual([{ id: second.parentId }]);
    expect(calls.byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("a department read without its parent, children or ancestors is one single read, no page", async () => {
    const second = company().departments.find((d) => d.level === 2)!;
    const { calls } = await counting(stack, () => query(stack, `query($id: ID!) { department(id: $id) { name level manager { id } } }`, { id: second.id }));
    expect(calls.byRoute).toEqual({ "GET /service-api/departments/{id}": 1 });
  });

  it("a department's manager is the employee of its head", async () => {
    const headed = company().departments.find((d) => d.managerId !== null)!;
    const data = await query(stack, `query($id: ID!) { department(id: $id) { manager { id } } }`, { id: headed.id });
    expect(data.department.manager).toEqual({ id: headed.managerId });
  });

  it("the whole tree with parents, children and ancestors costs two calls", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ departments(first: 100) { nodes { id parent { id name } children { id } ancestors { id } manager { id } } } }`),
    );
    expect(result.departments.nodes).toHaveLength(company().departments.length);
    for (const node of result.departments.nodes) {
      const record = department(node.id);
      expect(node.parent?.id ?? null).toBe(record.parentId);
      expect(node.children.map((c: any) => c.id)).toEqual(company().departments.filter((d) => d.parentId === record.id).map((d) => d.id));
      expect(node.ancestors.map((a: any) => a.id)).toEqual(ancestorsOf(record));
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/departments": 2 });
  });
});

describe("legal entities and establishments", () => {
  it("a legal entity's establishments are those attached to it", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ legalEntities { nodes { id businessEstablishments { totalCount nodes { id legalEntity { id } } } } } }`),
    );
    for (const entity of result.legalEntities.nodes) {
      const expected = company().businessEstablishments.filter((b) => b.legalEntityId === entity.id).map((b) => b.id);
      expect(entity.businessEstablishments.nodes.map((n: any) => n.id)).toEqual(expected);
      expect(entity.businessEstablishments.totalCount).toBe(expected.length);
      for (const node of entity.businessEstablishments.nodes) expect(node.legalEntity.id).toBe(entity.id);
    }
    // one list of legal entities, one list of establishments for all of them; no single read
    expect(calls.byRoute).toEqual({ "GET /service-api/legal-entities": 1, "GET /service-api/business-establishments": 1 });
  });

  it("a legal entity's establishments page to the end", async () => {
    const entity = company().legalEntities.find((l) => company().businessEstablishments.filter((b) => b.legalEntityId === l.id).length >= 3)!;
    const expected = company().businessEstablishments.filter((b) => b.legalEntityId === entity.id).map((b) => b.id);
    const ids: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const data: any = await query(
        stack,
        `query($id: ID!, $after: String) { legalEntity(id: $id) { businessEstablishments(first: 2, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } } }`,
        { id: entity.id, after },
      );
      const connection = data.legalEntity.businessEstablishments;
      ids.push(...connection.nodes.map((n: any) => n.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(ids).toEqual(expected);
  });

  it("a legal entity's establishments can leave out archived ones", async () => {
    const closed = company().businessEstablishments.find((b) => b.isArchived)!;
    const data = await query(
      stack,
      `query($id: ID!) { legalEntity(id: $id) { all: businessEstablishments { nodes { id } } open: businessEstablishments(isArchived: false) { nodes { id } } } }`,
      { id: closed.legalEntityId },
    );
    expect(data.legalEntity.all.nodes.map((n: any) => n.id)).toContain(closed.id);
    expect(data.legalEntity.open.nodes.map((n: any) => n.id)).not.toContain(closed.id);
  });

  it("every establishment's legal entity comes embedded with the list: one call", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ businessEstablishments(first: 100) { nodes { id legalEntity { id legalName } } } }`));
    for (const node of result.businessEstablishments.nodes) {
      const record = company().businessEstablishments.find((b) => b.id === node.id)!;
      expect(node.legalEntity.id).toBe(record.legalEntityId);
    }
    // include=embedded primes the legal-entity loader (docs/performance.md#batching-rules)
    expect(calls.byRoute).toEqual({ "GET /service-api/business-establishments": 1 });
  });
});

describe("reverse edges of reference data", () => {
  it("an establishment's occupation categories include those valid everywhere, for every establishment in one call", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ businessEstablishments(first: 100) { nodes { id occupationCategories { id } } } }`));
    for (const node of result.businessEstablishments.nodes) {
      const expected = company()
        .occupationCategories.filter((o) => o.businessEstablishmentIds === null || o.businessEstablishmentIds.includes(node.id))
        .map((o) => o.id);
      expect(node.occupationCategories.map((o: any) => o.id)).toEqual(expected);
    }
    // the categories valid in some establishments only make the answers differ
    expect(new Set(result.businessEstablishments.nodes.map((n: any) => n.occupationCategories.length)).size).toBeGreaterThan(1);
    expect(calls.byRoute).toEqual({ "GET /service-api/business-establishments": 1, "GET /service-api/occupation-categories": 1 });
  });

  it("a legal entity's employment templates are those naming it, for every legal entity in one call", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ legalEntities { nodes { id employmentTemplates { id } } } }`));
    for (const node of result.legalEntities.nodes) {
      const expected = company().employmentTemplates.filter((t) => t.legalEntityIds.includes(node.id)).map((t) => t.id);
      expect(node.employmentTemplates.map((t: any) => t.id)).toEqual(expected);
    }
    expect(result.legalEntities.nodes.some((n: any) => n.employmentTemplates.length > 0)).toBe(true);
    expect(calls.byRoute).toEqual({ "GET /service-api/legal-entities": 1, "GET /service-api/employment-templates": 1 });
  });
});

describe("references between reference data", () => {
  it("every template's legal entities cost one call besides the list", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ employmentTemplates(first: 100) { nodes { id legalEntities { id } } } }`));
    for (const node of result.employmentTemplates.nodes) {
      const record = company().employmentTemplates.find((t) => t.id === node.id)!;
      expect(node.legalEntities.map((l: any) => l.id)).toEqual(record.legalEntityIds);
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/employment-templates": 1, "GET /service-api/legal-entities": 1 });
  });

  it("every category's establishments cost one call besides the list", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ occupationCategories(first: 100) { nodes { id businessEstablishments { id } } } }`));
    for (const node of result.occupationCategories.nodes) {
      const record = company().occupationCategories.find((o) => o.id === node.id)!;
      expect(node.businessEstablishments?.map((b: any) => b.id) ?? null).toEqual(record.businessEstablishmentIds);
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/occupation-categories": 1, "GET /service-api/business-establishments": 1 });
  });

  it("a label's taxonomy is the taxonomy it belongs to", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ taxonomyLabels(first: 100) { nodes { id taxonomy { id name } } } }`));
    for (const node of result.taxonomyLabels.nodes) {
      const record = company().taxonomyLabels.find((l) => l.id === node.id)!;
      expect(node.taxonomy.id).toBe(record.taxonomyId);
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/taxonomy-labels": 1, "GET /service-api/taxonomies": 1 });
  });
});

describe("taxonomy labels of a taxonomy", () => {
  it("labels follow the taxonomy's sortLabelsBy when no sort is asked", async () => {
    const data = await query(stack, `{ taxonomies { nodes { id sortLabelsBy labels(first: 100) { totalCount nodes { id name } } } } }`);
    for (const taxonomy of data.taxonomies.nodes) {
      const records = company().taxonomyLabels.filter((l) => l.taxonomyId === taxonomy.id);
      const expected =
        taxonomy.sortLabelsBy === "name"
          ? [...records].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : Number(a.id) - Number(b.id)))
          : records;
      expect(taxonomy.labels.nodes.map((n: any) => n.id)).toEqual(expected.map((l) => l.id));
      expect(taxonomy.labels.totalCount).toBe(records.length);
    }
  });

  it("labels of every taxonomy cost one call per label order, not per taxonomy", async () => {
    const { calls } = await counting(stack, () => query(stack, `{ taxonomies { nodes { labels(sort: [ID_DESC]) { nodes { id } } } } }`));
    expect(calls.byRoute).toEqual({ "GET /service-api/taxonomies": 1, "GET /service-api/taxonomy-labels": 1 });
  });

  it("labels of a taxonomy filter by search and archival", async () => {
    const archived = company().taxonomyLabels.find((l) => l.isArchived);
    const label = archived ?? company().taxonomyLabels[0]!;
    const data = await query(
      stack,
      `query($id: ID!, $s: String) { taxonomy(id: $id) { found: labels(search: $s) { nodes { id } } active: labels(isArchived: false) { nodes { id isArchived } } } }`,
      { id: label.taxonomyId, s: label.name },
    );
    expect(data.taxonomy.found.nodes.map((n: any) => n.id)).toContain(label.id);
    for (const node of data.taxonomy.active.nodes) expect(node.isArchived).toBe(false);
    expect(data.taxonomy.active.nodes).toHaveLength(company().taxonomyLabels.filter((l) => l.taxonomyId === label.taxonomyId && !l.isArchived).length);
  });
});
