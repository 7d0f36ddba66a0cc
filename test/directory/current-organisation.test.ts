import { beforeAll, describe, expect, it } from "vitest";
import { directoryToken, get, getAll, ids } from "./current-helpers.js";
import { useDirectory } from "../helpers/stack.js";

/**
 * The organisation resources of the current API over HTTP: legal entities, business
 * establishments, departments, employment templates, occupation categories, job qualifications,
 * taxonomies and taxonomy labels. Expected answers are computed from the generated company.
 */

const directory = useDirectory({ employees: 300, today: "2026-06-15" });
let token: string;
let url: string;

beforeAll(async () => {
  url = directory.url;
  token = await directoryToken(url);
});

const company = () => directory.company;
const read = (path: string) => get(url, token, path);
/** every item of a list, without the links the pages were asked for (they are tested apart) */
async function all(path: string): Promise<any[]> {
  return (await getAll(url, token, path)).items.map(({ links: _, ...item }) => item);
}
const ref = (type: string, collection: string, id: string) => ({ id, type, url: `${url}/service-api/${collection}/${id}` });

describe("legal entities", () => {
  it("lists every legal entity with the fields of the interface", async () => {
    const items = await all("/service-api/legal-entities");
    expect(ids(items)).toEqual(ids(company().legalEntities));
    const le = company().legalEntities[0]!;
    expect(items[0]).toEqual({
      ...ref("legal-entity", "legal-entities", le.id),
      legalName: le.legalName,
      remoteId: le.remoteId,
      isArchived: le.isArchived,
      countryCode: le.countryCode,
      currencyCode: le.currencyCode,
      taxIdentificationNumber: le.taxIdentificationNumber,
      industryCode: le.industryCode,
      createdAt: le.createdAt,
      lastUpdatedAt: le.lastUpdatedAt,
      lastArchivedAt: le.lastArchivedAt,
    });
  });

  it("reads one legal entity by id", async () => {
    const res = await read("/service-api/legal-entities/2");
    expect(res.status).toBe(200);
    expect(res.body.legalName).toBe(company().legalEntities.find((l) => l.id === "2")!.legalName);
  });

  it("answers 404 for an unknown legal entity", async () => {
    const res = await read("/service-api/legal-entities/999");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
  });

  it("filters legal entities by alpha-3 country code", async () => {
    const items = await all("/service-api/legal-entities?countryCode=GBR,USA");
    expect(ids(items)).toEqual(ids(company().legalEntities.filter((l) => ["GBR", "USA"].includes(l.countryCode))));
    expect(items.length).toBeGreaterThan(0);
  });

  it("rejects a country code that is not alpha-3", async () => {
    const res = await read("/service-api/legal-entities?countryCode=FR");
    expect(res.status).toBe(400);
    expect(res.body.errors.countryCode[0]).toContain("FR");
  });

  it("keeps only archived legal entities with isArchived=true", async () => {
    const items = await all("/service-api/legal-entities?isArchived=true");
    expect(ids(items)).toEqual(ids(company().legalEntities.filter((l) => l.isArchived)));
    expect(items.length).toBeGreaterThan(0);
  });

  it("keeps only non-archived legal entities with isArchived=false", async () => {
    const items = await all("/service-api/legal-entities?isArchived=false");
    expect(ids(items)).toEqual(ids(company().legalEntities.filter((l) => !l.isArchived)));
  });

  it("rejects an isArchived that is not a boolean", async () => {
    const res = await read("/service-api/legal-entities?isArchived=yes");
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("isArchived");
  });

  it("links a legal entity to its establishments", async () => {
    const res = await read("/service-api/legal-entities/1?include=links");
    expect(res.body.links.businessEstablishments).toEqual({ href: `${url}/service-api/business-establishments?legalEntity.id=1` });
    const followed = await get(url, token, res.body.links.businessEstablishments.href);
    expect(followed.body.items.every((b: any) => b.legalEntity.id === "1")).toBe(true);
  });

  it("leaves links out unless include=links", async () => {
    const res = await read("/service-api/legal-entities/1");
    expect(res.body).not.toHaveProperty("links");
  });
});

describe("business establishments", () => {
  it("lists every establishment with its headquarters flag and address", async () => {
    const items = await all("/service-api/business-establishments");
    expect(ids(items)).toEqual(ids(company().businessEstablishments));
    const b = company().businessEstablishments[0]!;
    expect(items[0]).toEqual({
      ...ref("business-establishment", "business-establishments", b.id),
      name: b.name,
      remoteId: b.remoteId,
      legalEntity: ref("legal-entity", "legal-entities", b.legalEntityId),
      isHeadquarters: b.isHeadquarters,
      taxIdentificationNumber: b.taxIdentificationNumber,
      industryCode: b.industryCode,
      address: b.address,
      timezoneId: b.timezoneId,
      isArchived: b.isArchived,
      lastArchivedAt: b.lastArchivedAt,
      createdAt: b.createdAt,
      lastUpdatedAt: b.lastUpdatedAt,
    });
  });

  it("has at most one headquarters per legal entity", async () => {
    const items = await all("/service-api/business-establishments");
    const hq = items.filter((b) => b.isHeadquarters).map((b) => b.legalEntity.id);
    expect(new Set(hq).size).toBe(hq.length);
    expect(hq.length).toBeGreaterThan(0);
  });

  it("reads one establishment by id", async () => {
    const res = await read("/service-api/business-establishments/4");
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(company().businessEstablishments.find((b) => b.id === "4")!.name);
  });

  it("answers 404 for an unknown establishment", async () => {
    expect((await read("/service-api/business-establishments/0")).status).toBe(404);
  });

  it("filters establishments by legal entity", async () => {
    const items = await all("/service-api/business-establishments?legalEntity.id=3");
    expect(ids(items)).toEqual(ids(company().businessEstablishments.filter((b) => b.legalEntityId === "3")));
    expect(items.length).toBeGreaterThan(1);
  });

  it("finds establishments by the start of a word of their name", async () => {
    const items = await all("/service-api/business-establishments?search=york");
    expect(items.map((b) => b.name)).toEqual(["New York"]);
  });

  it("keeps only archived establishments with isArchived=true", async () => {
    const items = await all("/service-api/business-establishments?isArchived=true");
    expect(ids(items)).toEqual(ids(company().businessEstablishments.filter((b) => b.isArchived)));
    expect(items.length).toBeGreaterThan(0);
  });

  it("embeds the legal entity of an establishment", async () => {
    const res = await read("/service-api/business-establishments?legalEntity.id=2&include=embedded");
    expect(Object.keys(res.body.embedded["legal-entity"])).toEqual(["2"]);
    expect(res.body.embedded["legal-entity"]["2"].legalName).toBe(company().legalEntities.find((l) => l.id === "2")!.legalName);
  });
});

describe("departments", () => {
  it("lists every department in the embedded department shape", async () => {
    const items = await all("/service-api/departments");
    expect(ids(items)).toEqual(ids(company().departments));
    const child = company().departments.find((d) => d.parentId !== null && d.managerId !== null)!;
    expect(items.find((d) => d.id === child.id)).toEqual({
      ...ref("department", "departments", child.id),
      name: child.name,
      description: child.description,
      remoteId: child.remoteId,
      isArchived: child.isArchived,
      parent: ref("department", "departments", child.parentId!),
      level: child.level,
      manager: ref("employee", "employees", child.managerId!),
      sortOrder: child.sortOrder,
      owningApplication: child.owningApplication,
    });
  });

  it("numbers siblings from 0 in sortOrder and links a department to its active employees", async () => {
    const departments = company().departments;
    for (const parent of new Set(departments.map((d) => d.parentId))) {
      const orders = departments.filter((d) => d.parentId === parent).map((d) => d.sortOrder);
      expect(orders).toEqual(orders.map((_, i) => i));
    }
    const res = await read("/service-api/departments/2?include=links");
    expect(res.body.links).toEqual({
      activeEmployees: { href: `${url}/service-api/employees?applicableJobPosition.department.id=2` },
    });
  });

  it("gives a root department a null parent and level 1", async () => {
    const root = company().departments.find((d) => d.parentId === null)!;
    const res = await read(`/service-api/departments/${root.id}`);
    expect(res.body.parent).toBeNull();
    expect(res.body.level).toBe(1);
  });

  it("answers 404 for an unknown department", async () => {
    expect((await read("/service-api/departments/9999")).status).toBe(404);
  });

  it("finds departments by the start of a word of their name", async () => {
    const items = await all("/service-api/departments?search=eng");
    const expected = company().departments.filter((d) => d.name.toLowerCase().split(/[\s\-_,.&]+/).some((w) => w.startsWith("eng")));
    expect(ids(items)).toEqual(ids(expected));
    expect(items.length).toBeGreaterThan(0);
  });

  it("keeps only archived departments with isArchived=true", async () => {
    const items = await all("/service-api/departments?isArchived=true");
    expect(ids(items)).toEqual(ids(company().departments.filter((d) => d.isArchived)));
    expect(items.length).toBeGreaterThan(0);
  });

  it("lets a caller with only departments.readonly read departments", async () => {
    const limited = await directoryToken(url, "demo-limited");
    const res = await get(url, limited, "/service-api/departments?limit=1");
    expect(res.status).toBe(200);
  });
});

describe("employment templates", () => {
  it("lists every template with its legal entities as references", async () => {
    const items = await all("/service-api/employment-templates");
    expect(ids(items)).toEqual(ids(company().employmentTemplates));
    const multi = company().employmentTemplates.find((t) => t.legalEntityIds.length > 1)!;
    const item = items.find((t) => t.id === multi.id);
    expect(item.legalEntities).toEqual(multi.legalEntityIds.map((id) => ref("legal-entity", "legal-entities", id)));
    expect(item).toMatchObject({ type: "employment-template", title: multi.title, term: multi.term, audience: multi.audience, t9n: multi.t9n });
  });

  it("links a template to its extension definitions by a list address", async () => {
    const res = await read("/service-api/employment-templates/3?include=links");
    const href = new URL(res.body.links.extensionDefinitions.href);
    expect(href.pathname).toBe("/service-api/employee-extension-definitions");
    expect(Object.fromEntries(href.searchParams)).toEqual({ "extends.type": "employment-template", "extendedEmploymentTemplate.id": "3" });
  });

  it("answers 404 for an unknown template", async () => {
    expect((await read("/service-api/employment-templates/77")).status).toBe(404);
  });

  it("rejects a filter on templates, which have none", async () => {
    const res = await read("/service-api/employment-templates?term=fixed");
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("term");
  });
});

describe("occupation categories", () => {
  it("lists every category, with null establishments when valid for all", async () => {
    const items = await all("/service-api/occupation-categories");
    expect(ids(items)).toEqual(ids(company().occupationCategories));
    for (const category of company().occupationCategories) {
      const item = items.find((i) => i.id === category.id);
      expect(item.businessEstablishments).toEqual(
        category.businessEstablishmentIds === null
          ? null
          : category.businessEstablishmentIds.map((id) => ref("business-establishment", "business-establishments", id)),
      );
    }
  });

  it("reads one category by id", async () => {
    const res = await read("/service-api/occupation-categories/3");
    expect(res.body.title).toBe(company().occupationCategories.find((c) => c.id === "3")!.title);
  });

  it("answers 404 for an unknown category", async () => {
    expect((await read("/service-api/occupation-categories/abc")).status).toBe(404);
  });

  it("returns the categories of an establishment and those valid for all", async () => {
    const items = await all("/service-api/occupation-categories?businessEstablishments.id=4");
    const expected = company().occupationCategories.filter((c) => c.businessEstablishmentIds === null || c.businessEstablishmentIds.includes("4"));
    expect(ids(items)).toEqual(ids(expected));
    expect(items.some((c) => c.businessEstablishments === null)).toBe(true);
    expect(items.some((c) => c.businessEstablishments !== null)).toBe(true);
  });

  it("finds categories by a case-insensitive part of the title", async () => {
    const items = await all("/service-api/occupation-categories?search=EXEMP");
    expect(items.map((c) => c.title).sort()).toEqual(["Exempt", "Non-exempt"]);
  });

  it("rejects an empty title search", async () => {
    const res = await read("/service-api/occupation-categories?search=");
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("search");
  });
});

describe("job qualifications", () => {
  it("lists every qualification with its profession reference and rank", async () => {
    const items = await all("/service-api/job-qualifications");
    expect(ids(items)).toEqual(ids(company().jobQualifications));
    const q = company().jobQualifications[0]!;
    expect(items[0]).toEqual({
      ...ref("job-qualification", "job-qualifications", q.id),
      title: q.title,
      profession: ref("profession", "professions", q.professionId),
      rank: q.rank,
      t9n: q.t9n,
      createdAt: q.createdAt,
      lastUpdatedAt: q.lastUpdatedAt,
    });
  });

  it("answers 404 for an unknown qualification", async () => {
    expect((await read("/service-api/job-qualifications/1000")).status).toBe(404);
  });

  it("filters qualifications by rank", async () => {
    const items = await all("/service-api/job-qualifications?rank=1,3");
    expect(ids(items)).toEqual(ids(company().jobQualifications.filter((q) => q.rank === 1 || q.rank === 3)));
    expect(items.length).toBeGreaterThan(0);
  });

  it("rejects a negative rank", async () => {
    const res = await read("/service-api/job-qualifications?rank=-1");
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("rank");
  });

  it("filters qualifications by profession", async () => {
    const items = await all("/service-api/job-qualifications?profession.id=2");
    expect(ids(items)).toEqual(ids(company().jobQualifications.filter((q) => q.professionId === "2")));
    expect(items.length).toBeGreaterThan(0);
  });
});

describe("taxonomies", () => {
  it("lists every taxonomy with its label sorting property", async () => {
    const items = await all("/service-api/taxonomies");
    expect(ids(items)).toEqual(ids(company().taxonomies));
    for (const t of company().taxonomies) {
      expect(items.find((i) => i.id === t.id)).toMatchObject({ type: "taxonomy", name: t.name, sortLabelsBy: t.sortLabelsBy, t9n: t.t9n });
    }
  });

  it("answers 404 for an unknown taxonomy", async () => {
    expect((await read("/service-api/taxonomies/42")).status).toBe(404);
  });

  it("finds taxonomies whose name starts with every searched word", async () => {
    const items = await all("/service-api/taxonomies?search=cost%20cent");
    expect(items.map((t) => t.name)).toEqual(["Cost centres"]);
  });

  it("gives a taxonomy no links and sorts labels by id or name only", async () => {
    const res = await read("/service-api/taxonomies/2?include=links");
    expect(res.body.links).toEqual({});
    expect(new Set(company().taxonomies.map((t) => t.sortLabelsBy))).toEqual(new Set(["id", "name"]));
  });
});

describe("taxonomy labels", () => {
  it("lists every label with its taxonomy reference", async () => {
    const items = await all("/service-api/taxonomy-labels");
    expect(ids(items)).toEqual(ids(company().taxonomyLabels));
    const l = company().taxonomyLabels[0]!;
    expect(items[0]).toEqual({
      ...ref("taxonomy-label", "taxonomy-labels", l.id),
      taxonomy: ref("taxonomy", "taxonomies", l.taxonomyId),
      name: l.name,
      remoteId: l.remoteId,
      applicabilitySchema: l.applicabilitySchema,
      isArchived: l.isArchived,
      lastArchivedAt: l.lastArchivedAt,
      createdAt: l.createdAt,
      lastUpdatedAt: l.lastUpdatedAt,
      t9n: l.t9n,
    });
  });

  it("reads one label by id", async () => {
    const res = await read("/service-api/taxonomy-labels/9");
    expect(res.body.name).toBe(company().taxonomyLabels.find((l) => l.id === "9")!.name);
  });

  it("answers 404 for an unknown label", async () => {
    expect((await read("/service-api/taxonomy-labels/0")).status).toBe(404);
  });

  it("filters labels by taxonomy", async () => {
    const items = await all("/service-api/taxonomy-labels?taxonomy.id=3");
    expect(ids(items)).toEqual(ids(company().taxonomyLabels.filter((l) => l.taxonomyId === "3")));
  });

  it("finds labels by the start of a word of their name", async () => {
    const items = await all("/service-api/taxonomy-labels?search=sales");
    expect(items.map((l) => l.name).sort()).toEqual(["CC-3100 Sales", "CC-3900 Sales (former EMEA split)"]);
  });

  it("keeps only archived labels with isArchived=true", async () => {
    const items = await all("/service-api/taxonomy-labels?isArchived=true");
    expect(ids(items)).toEqual(ids(company().taxonomyLabels.filter((l) => l.isArchived)));
    expect(items.length).toBeGreaterThan(0);
  });

  it("sorts labels by name", async () => {
    const items = await all("/service-api/taxonomy-labels?taxonomy.id=2&sort=name");
    const expected = company()
      .taxonomyLabels.filter((l) => l.taxonomyId === "2")
      .map((l) => l.name)
      .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(items.map((l) => l.name)).toEqual(expected);
  });

  it("sorts labels by name descending", async () => {
    const ascending = (await all("/service-api/taxonomy-labels?sort=name")).map((l) => l.id);
    const descending = (await all("/service-api/taxonomy-labels?sort=-name")).map((l) => l.id);
    expect(descending).toEqual([...ascending].reverse());
  });

  it("rejects a sort the labels do not offer", async () => {
    const res = await read("/service-api/taxonomy-labels?sort=createdAt");
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty("sort");
  });
});

describe("scopes", () => {
  const cases: Array<[string, string]> = [
    ["/service-api/legal-entities", "legal-entities"],
    ["/service-api/business-establishments/1", "business-establishments"],
    ["/service-api/employment-templates", "employment-templates"],
    ["/service-api/occupation-categories", "occupation-categories"],
    ["/service-api/taxonomies", "taxonomies"],
    ["/service-api/taxonomy-labels/1", "taxonomies"],
  ];
  for (const [path, scope] of cases) {
    it(`answers 403 on ${path} without the ${scope} scope`, async () => {
      const limited = await directoryToken(url, "demo-limited");
      const res = await get(url, limited, path);
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain(scope);
    });
  }

  it("answers 403 on departments for a token without the departments scope", async () => {
    const narrow = await directoryToken(url, "demo-client", "legal-entities.readonly");
    expect((await get(url, narrow, "/service-api/departments")).status).toBe(403);
  });

  it("serves job qualifications and professions under their own scope, job-qualifications", async () => {
    for (const scope of ["job-qualifications.readonly", "job-qualifications.readwrite"]) {
      const own = await directoryToken(url, "demo-client", scope);
      expect((await get(url, own, "/service-api/job-qualifications?limit=1")).status).toBe(200);
      expect((await get(url, own, "/service-api/professions/1")).status).toBe(200);
    }
    const jobPositions = await directoryToken(url, "demo-client", "job-positions.readonly");
    expect((await get(url, jobPositions, "/service-api/job-qualifications?limit=1")).status).toBe(403);
    expect((await get(url, jobPositions, "/service-api/professions?limit=1")).status).toBe(403);
  });
});
