import { describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { query, send } from "./helpers.js";

/** Every field of every entity, read through the single reads, checked against the directory's own records. */

const stack = useStack({ subgraphs: ["organisation"] });

const company = () => stack.directory.company;

describe("legal entity", () => {
  it("a legal entity carries every field of the interface", async () => {
    const record = company().legalEntities[0]!;
    const data = await query(
      stack,
      `query($id: ID!) { legalEntity(id: $id) { id legalName remoteId isArchived countryCode currencyCode
        taxIdentificationNumber { format value } industryCode { format value } lastArchivedAt createdAt lastUpdatedAt } }`,
      { id: record.id },
    );
    expect(data.legalEntity).toEqual({
      id: record.id,
      legalName: record.legalName,
      remoteId: record.remoteId,
      isArchived: record.isArchived,
      countryCode: record.countryCode,
      currencyCode: record.currencyCode,
      taxIdentificationNumber: record.taxIdentificationNumber,
      industryCode: record.industryCode,
      lastArchivedAt: record.lastArchivedAt,
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
    });
  });

  it("an archived legal entity has the moment it was archived", async () => {
    const record = company().legalEntities.find((l) => l.isArchived)!;
    expect(record).toBeDefined();
    const data = await query(stack, `query($id: ID!) { legalEntity(id: $id) { isArchived lastArchivedAt } }`, { id: record.id });
    expect(data.legalEntity).toEqual({ isArchived: true, lastArchivedAt: record.lastArchivedAt });
    expect(record.lastArchivedAt).not.toBeNull();
  });
});

describe("business establishment", () => {
  it("a business establishment carries every field of the interface and its legal entity", async () => {
    const record = company().businessEstablishments[0]!;
    const data = await query(
      stack,
      `query($id: ID!) { businessEstablishment(id: $id) { id name remoteId isHeadquarters
        taxIdentificationNumber { format value } industryCode { format value }
        address { addressLines postalCode locality administrativeArea countryCode }
        timezoneId isArchived lastArchivedAt createdAt lastUpdatedAt legalEntity { id legalName } } }`,
      { id: record.id },
    );
    const legalEntity = company().legalEntities.find((l) => l.id === record.legalEntityId)!;
    expect(data.businessEstablishment).toEqual({
      id: record.id,
      name: record.name,
      remoteId: record.remoteId,
      isHeadquarters: record.isHeadquarters,
      taxIdentificationNumber: record.taxIdentificationNumber,
      industryCode: record.industryCode,
      address: record.address,
      timezoneId: record.timezoneId,
      isArchived: record.isArchived,
      lastArchivedAt: record.lastArchivedAt,
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
      legalEntity: { id: legalEntity.id, legalName: legalEntity.legalName },
    });
  });
});

describe("department", () => {
  it("a department carries every field of the embedded department shape", async () => {
    const record = company().departments.find((d) => d.parentId !== null && d.managerId !== null)!;
    const data = await query(
      stack,
      `query($id: ID!) { department(id: $id) { id name remoteId isArchived level owningApplication parent { id } manager { id } } }`,
      { id: record.id },
    );
    expect(data.department).toEqual({
      id: record.id,
      name: record.name,
      remoteId: record.remoteId,
      isArchived: record.isArchived,
      level: record.level,
      owningApplication: record.owningApplication,
      parent: { id: record.parentId },
      manager: { id: record.managerId },
    });
  });

  it("a root department has no parent", async () => {
    const root = company().departments.find((d) => d.parentId === null)!;
    const data = await query(stack, `query($id: ID!) { department(id: $id) { level parent { id } ancestors { id } } }`, { id: root.id });
    expect(data.department).toEqual({ level: 1, parent: null, ancestors: [] });
  });
});

describe("employment template", () => {
  it("an employment template carries its title, translations, term, audience and legal entities", async () => {
    const record = company().employmentTemplates.find((t) => t.legalEntityIds.length > 1)!;
    const data = await query(
      stack,
      `query($id: ID!) { employmentTemplate(id: $id) { id title titleTranslations { language text } term audience
        legalEntities { id legalName } createdAt lastUpdatedAt } }`,
      { id: record.id },
    );
    expect(data.employmentTemplate).toEqual({
      id: record.id,
      title: record.title,
      titleTranslations: Object.entries(record.t9n.title ?? {}).map(([language, text]) => ({ language, text })),
      term: record.term.toUpperCase(),
      audience: record.audience,
      legalEntities: record.legalEntityIds.map((id) => ({ id, legalName: company().legalEntities.find((l) => l.id === id)!.legalName })),
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
    });
  });

  it("a title asked in a language comes in that language", async () => {
    const record = company().employmentTemplates.find((t) => Object.keys(t.t9n.title ?? {}).length > 0)!;
    const [language, text] = Object.entries(record.t9n.title!)[0]!;
    const data = await query(stack, `query($id: ID!, $lang: String) { employmentTemplate(id: $id) { title(lang: $lang) } }`, {
      id: record.id,
      lang: language,
    });
    expect(data.employmentTemplate.title).toBe(text);
  });

  it("a title asked in a language without translation falls back to the invariant title", async () => {
    const record = company().employmentTemplates[0]!;
    const data = await query(stack, `query($id: ID!) { employmentTemplate(id: $id) { title(lang: "ja-JP") } }`, { id: record.id });
    expect(data.employmentTemplate.title).toBe(record.title);
  });
});

describe("occupation category", () => {
  it("an occupation category lists the establishments it is valid for", async () => {
    const record = company().occupationCategories.find((o) => o.businessEstablishmentIds !== null)!;
    const data = await query(
      stack,
      `query($id: ID!) { occupationCategory(id: $id) { id title titleTranslations { language text } businessEstablishments { id name } createdAt lastUpdatedAt } }`,
      { id: record.id },
    );
    expect(data.occupationCategory).toEqual({
      id: record.id,
      title: record.title,
      titleTranslations: Object.entries(record.t9n.title ?? {}).map(([language, text]) => ({ language, text })),
      businessEstablishments: record.businessEstablishmentIds!.map((id) => ({
        id,
        name: company().businessEstablishments.find((b) => b.id === id)!.name,
      })),
      // the directory does not publish an occupation category's timestamps
      createdAt: null,
      lastUpdatedAt: null,
    });
  });

  it("an occupation category valid for every establishment has null establishments", async () => {
    const record = company().occupationCategories.find((o) => o.businessEstablishmentIds === null)!;
    const data = await query(stack, `query($id: ID!) { occupationCategory(id: $id) { businessEstablishments { id } } }`, { id: record.id });
    expect(data.occupationCategory.businessEstablishments).toBeNull();
  });

  it("a category title asked in French comes in French", async () => {
    const record = company().occupationCategories.find((o) => o.t9n.title?.["fr-FR"])!;
    const data = await query(stack, `query($id: ID!) { occupationCategory(id: $id) { title(lang: "fr-FR") } }`, { id: record.id });
    expect(data.occupationCategory.title).toBe(record.t9n.title!["fr-FR"]);
  });
});

describe("job qualification", () => {
  it("a job qualification carries its title, profession and rank", async () => {
    const record = company().jobQualifications[3]!;
    const data = await query(
      stack,
      `query($id: ID!) { jobQualification(id: $id) { id title profession { id } rank createdAt lastUpdatedAt } }`,
      { id: record.id },
    );
    expect(data.jobQualification).toEqual({
      id: record.id,
      title: record.title,
      profession: { id: record.professionId },
      rank: record.rank,
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
    });
  });
});

describe("taxonomy and label", () => {
  it("a taxonomy carries its name, translations and label sorting", async () => {
    const record = company().taxonomies[0]!;
    const data = await query(
      stack,
      `query($id: ID!) { taxonomy(id: $id) { id name nameTranslations { language text } sortLabelsBy createdAt lastUpdatedAt } }`,
      { id: record.id },
    );
    expect(data.taxonomy).toEqual({
      id: record.id,
      name: record.name,
      nameTranslations: Object.entries(record.t9n.name ?? {}).map(([language, text]) => ({ language, text })),
      sortLabelsBy: record.sortLabelsBy,
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
    });
  });

  it("a taxonomy label carries every field of the interface and its taxonomy", async () => {
    const record = company().taxonomyLabels.find((l) => l.remoteId !== null) ?? company().taxonomyLabels[0]!;
    const data = await query(
      stack,
      `query($id: ID!) { taxonomyLabel(id: $id) { id name nameTranslations { language text } remoteId applicabilitySchema
        isArchived lastArchivedAt createdAt lastUpdatedAt taxonomy { id name } } }`,
      { id: record.id },
    );
    const taxonomy = company().taxonomies.find((t) => t.id === record.taxonomyId)!;
    expect(data.taxonomyLabel).toEqual({
      id: record.id,
      name: record.name,
      nameTranslations: Object.entries(record.t9n.name ?? {}).map(([language, text]) => ({ language, text })),
      remoteId: record.remoteId,
      applicabilitySchema: record.applicabilitySchema,
      isArchived: record.isArchived,
      lastArchivedAt: record.lastArchivedAt,
      createdAt: record.createdAt,
      lastUpdatedAt: record.lastUpdatedAt,
      taxonomy: { id: taxonomy.id, name: taxonomy.name },
    });
  });
});

describe("single reads of unknown ids", () => {
  for (const [field, selection] of [
    ["legalEntity", "id"],
    ["businessEstablishment", "id"],
    ["department", "id"],
    ["employmentTemplate", "id"],
    ["occupationCategory", "id"],
    ["jobQualification", "id"],
    ["taxonomy", "id"],
    ["taxonomyLabel", "id"],
  ] as const) {
    it(`${field} of an unknown id is null without error`, async () => {
      const response = await send(stack, `query($id: ID!) { ${field}(id: $id) { ${selection} } }`, { id: "999999" });
      expect(response.errors).toBeUndefined();
      expect(response.data).toEqual({ [field]: null });
    });
  }

  it("an empty id is a BAD_USER_INPUT", async () => {
    const response = await send(stack, `{ department(id: "") { id } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.data).toBeUndefined();
  });
});
