import {
  DEPARTMENTS,
  ESTABLISHMENTS,
  FAMILIES,
  FAMILY_ORDER,
  LEGAL_ENTITIES,
  OCCUPATION_CATEGORIES,
  RANK_NAMES,
  SQUAD_NAMES,
  TAXONOMIES,
  TEMPLATES,
} from "../catalog.js";
import {
  britishCompanyNumber,
  siren,
  siret,
  swissUid,
  usEin,
} from "../identifiers.js";
import type { Company, EmployeeAttributeDefinition, Stamped } from "../model.js";
import { Random } from "../random.js";
import { GeneratorState, WeightedPicker, type DeptInfo } from "./state.js";

/** A phase of the demo company's generator (generate.ts): the legal entities, establishments, departments, templates, categories, qualifications, taxonomies and attribute definitions. */
export abstract class ReferenceDataPhase extends GeneratorState {
  // ---------------------------------------------------------------- reference data

  protected buildLegalEntitiesAndEstablishments(rng: Random): void {
    const sirens: string[] = [];
    LEGAL_ENTITIES.forEach((spec, index) => {
      const taxValue =
        spec.taxNumber === "siren" ? siren(rng)
        : spec.taxNumber === "britishCompanyNumber" ? britishCompanyNumber(rng)
        : spec.taxNumber === "usEin" ? usEin(rng)
        : swissUid(rng);
      sirens.push(taxValue);
      const createdDay = this.founded + spec.createdAfter;
      const stamps = spec.archived
        ? this.archivedStamp(createdDay, this.today - 400, rng)
        : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
      this.legalEntities.push({
        id: String(index + 1),
        legalName: spec.legalName,
        remoteId: spec.remoteId,
        isArchived: spec.archived,
        countryCode: spec.countryCode,
        currencyCode: spec.currencyCode,
        taxIdentificationNumber: { format: spec.taxNumber === "siren" ? "franceSIREN" : "other", value: taxValue },
        industryCode: { ...spec.industry },
        ...stamps,
      });
    });

    ESTABLISHMENTS.forEach((spec, index) => {
      const entity = LEGAL_ENTITIES[spec.legalEntity - 1]!;
      const entityTax = sirens[spec.legalEntity - 1]!;
      const tax =
        entity.taxNumber === "siren"
          ? { format: "franceSIRET", value: siret(entityTax, rng) }
          : { format: "other", value: entityTax };
      const createdDay = this.founded + spec.createdAfter;
      const stamps = spec.archived
        ? this.archivedStamp(createdDay, this.today - 700, rng)
        : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
      this.establishments.push({
        id: String(index + 1),
        name: spec.name,
        remoteId: spec.remoteId,
        legalEntityId: String(spec.legalEntity),
        isHeadquarters: spec.isHeadquarters,
        taxIdentificationNumber: tax,
        industryCode: { ...entity.industry },
        address: { ...spec.address, addressLines: [...spec.address.addressLines] },
        timezoneId: spec.timezoneId,
        isArchived: spec.archived,
        ...stamps,
      });
      if (!spec.archived) {
        const list = this.establishmentsOfEntity.get(spec.legalEntity - 1) ?? [];
        list.push(index);
        this.establishmentsOfEntity.set(spec.legalEntity - 1, list);
      }
    });
    this.establishmentPicker = new WeightedPicker(ESTABLISHMENTS.map((spec, index) => [index, spec.archived ? 0 : spec.weight] as const));
  }

  /** how many squads a company of this size gets below the leaf departments (bounded) */
  protected squadCount(): number {
    const n = this.settings.employees;
    return n <= 1000 ? 0 : Math.min(120, Math.floor((n - 1000) / 800) + 1);
  }

  protected buildDepartments(rng: Random): void {
    const add = (info: Omit<DeptInfo, "record">, name: string, remoteId: string | null, archived: boolean, createdDay: number): void => {
      const id = String(this.departments.length + 1);
      const parentRecord = info.parent >= 0 ? this.departments[info.parent]!.record : null;
      this.departments.push({
        ...info,
        record: {
          id,
          name,
          remoteId,
          isArchived: archived,
          parentId: parentRecord ? parentRecord.id : null,
          level: parentRecord ? parentRecord.level + 1 : 1,
          managerId: null,
          owningApplication: "directory",
          description: parentRecord ? null : "The whole company: every department descends from this one.",
          sortOrder: this.departments.filter((d) => d.parent === info.parent).length,
          ...this.stamp(createdDay, rng),
        },
      });
    };

    DEPARTMENTS.forEach((spec, index) => {
      const parent = spec.parent === null ? -1 : spec.parent - 1;
      const headTitle: readonly [string, string] =
        parent < 0 ? ["Chief Executive Officer", "Président-directeur général"] : [`Head of ${spec.name}`, `Responsable ${spec.fr}`];
      add(
        { family: spec.family, ladder: spec.ladder ?? FAMILIES[spec.family].ladder, parent, headTitle },
        spec.name,
        `DEP-${String(index + 1).padStart(3, "0")}`,
        spec.archived,
        this.founded + 30 + index * 40,
      );
    });

    // larger companies get squads below the leaves, round-robin, so that no parent gets many
    const leaves = this.departments
      .map((dept, index) => ({ dept, index }))
      .filter(({ dept, index }) => !dept.record.isArchived && dept.record.level >= 3 && !this.departments.some((other) => other.parent === index))
      .map(({ index }) => index);
    const squads = this.squadCount();
    for (let s = 0; s < squads; s++) {
      const parent = leaves[s % leaves.length]!;
      const parentInfo = this.departments[parent]!;
      const squad = SQUAD_NAMES[Math.floor(s / leaves.length) % SQUAD_NAMES.length]!;
      const round = Math.floor(s / (leaves.length * SQUAD_NAMES.length));
      const name = `${parentInfo.record.name} – ${squad}${round > 0 ? ` ${round + 1}` : ""}`;
      add(
        { family: parentInfo.family, ladder: parentInfo.ladder, parent, headTitle: [`Squad Lead, ${name}`, `Responsable d'équipe ${name}`] },
        name,
        null,
        false,
        this.today - rng.int(60, 1500),
      );
    }

    const active = this.departments.map((d, i) => ({ d, i })).filter(({ d }) => !d.record.isArchived);
    const hasChildren = new Set(this.departments.map((d) => d.parent));
    this.departmentPicker = new WeightedPicker(
      active.map(({ d, i }) => [i, d.record.level === 1 ? 1 : d.record.level === 2 ? 2 : hasChildren.has(i) ? 3 : 6] as const),
    );
    this.founders = active.map(({ i }) => i).slice(0, this.settings.employees);
  }

  protected buildReferenceData(rng: Random): void {
    const refDay = this.founded + 20;
    TEMPLATES.forEach((spec, index) => {
      this.templates.push({
        id: String(index + 1),
        title: spec.title,
        legalEntityIds: spec.legalEntities.map(String),
        term: spec.term,
        audience: spec.audience,
        t9n: { title: { ...spec.t9n } },
        ...this.stamp(refDay + index * 30, rng),
      });
    });

    OCCUPATION_CATEGORIES.forEach((spec, index) => {
      this.categories.push({
        id: String(index + 1),
        title: spec.title,
        businessEstablishmentIds: spec.establishments ? spec.establishments.map(String) : null,
        t9n: { title: { ...spec.t9n } },
        ...this.stamp(refDay + index * 20, rng),
      });
    });

    // qualification id = (profession - 1) * 3 + rank for ranks 1-3; the last one is the internship
    FAMILY_ORDER.forEach((family, p) => {
      for (let rank = 1; rank <= 3; rank++) {
        this.qualifications.push({
          id: String(p * 3 + rank),
          title: `${FAMILIES[family].profession} – ${RANK_NAMES[rank - 1]}`,
          professionId: String(p + 1),
          rank,
          t9n: { title: { "en-GB": `${FAMILIES[family].profession} – ${RANK_NAMES[rank - 1]}` } },
          ...this.stamp(refDay + p * 10, rng),
        });
      }
    });
    this.qualifications.push({
      id: String(FAMILY_ORDER.length * 3 + 1),
      title: "Internship",
      professionId: String(FAMILY_ORDER.length + 1),
      rank: 0,
      t9n: { title: { "en-GB": "Internship", "fr-FR": "Stage" } },
      ...this.stamp(refDay + 200, rng),
    });

    TAXONOMIES.forEach((spec, index) => {
      const taxonomyId = String(index + 1);
      this.taxonomies.push({
        id: taxonomyId,
        name: spec.name,
        sortLabelsBy: spec.sortLabelsBy,
        t9n: { name: { ...spec.t9n } },
        ...this.stamp(refDay + 400 + index * 90, rng),
      });
      spec.labels.forEach((label, labelIndex) => {
        const createdDay = refDay + 400 + index * 90 + labelIndex * 7;
        const stamps = label.archived
          ? this.archivedStamp(createdDay, this.today - rng.int(30, 900), rng)
          : { ...this.stamp(createdDay, rng), lastArchivedAt: null };
        this.labels.push({
          id: String(this.labels.length + 1),
          taxonomyId,
          name: label.name,
          remoteId: label.remoteId,
          applicabilitySchema: {
            $schema: "https://json-schema.org/draft/2020-12/schema",
            type: "object",
            properties: { type: { const: "employee" } },
            required: ["type"],
          },
          isArchived: label.archived ?? false,
          t9n: { name: { ...label.t9n } },
          ...stamps,
        });
      });
    });
    // cost-centre labels by position in the first taxonomy, as FAMILIES refers to them
    this.costCentreLabelIds = this.labels.filter((l) => l.taxonomyId === "1" && !l.isArchived).map((l) => l.id);

    this.buildAttributeDefinitions(rng);
  }

  protected buildAttributeDefinitions(rng: Random): void {
    const schema = (body: Record<string, unknown>) => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...body });
    const day = this.founded + 900;
    const defs: Array<Omit<EmployeeAttributeDefinition, keyof Stamped | "isArchived" | "lastArchivedAt"> & { archived?: boolean }> = [
      {
        id: "employee.shirtSize",
        name: "Shirt size",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "string", enum: ["XS", "S", "M", "L", "XL", "XXL"], description: "Size of the company T-shirt" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Taille de T-shirt", "de-DE": "T-Shirt-Größe" } },
      },
      {
        id: "employee.emergencyContact",
        name: "Emergency contact",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 255 },
            relationship: { type: "string", enum: ["partner", "parent", "sibling", "child", "friend"] },
            phoneNumber: { type: "string", minLength: 3, maxLength: 32 },
          },
          required: ["name", "phoneNumber"],
          additionalProperties: false,
        }),
        propertyDescriptions: { name: "Full name of the contact", relationship: "How the contact relates to the employee", phoneNumber: "Phone number to call" },
        t9n: { name: { "fr-FR": "Personne à prévenir en cas d'urgence" } },
      },
      {
        id: "employee.costCenter",
        name: "Cost centre",
        multipleValueHandling: null,
        taxonomyId: "1",
        schema: schema({ type: "string", minLength: 1, description: "Id of a label of the Cost centres taxonomy" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Centre de coûts", "en-US": "Cost center" } },
      },
      {
        id: "employee.childrenCount",
        name: "Number of dependent children",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "integer", minimum: 0, maximum: 20 }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Nombre d'enfants à charge" } },
      },
      {
        id: "employee.commuteDistanceKm",
        name: "Commute distance (km)",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "number", minimum: 0, description: "One-way distance between home and the workplace" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Distance domicile-travail (km)" } },
      },
      {
        id: "employee.companyCar",
        name: "Company car",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: {
            model: { type: "string", minLength: 1, maxLength: 100 },
            licensePlate: { type: "string", minLength: 1, maxLength: 16 },
            fiscalHorsePower: { type: "integer", minimum: 1 },
          },
          required: ["model", "licensePlate"],
        }),
        propertyDescriptions: { model: "Make and model", licensePlate: "Registration plate", fiscalHorsePower: "Fiscal horsepower (France)" },
        t9n: { name: { "fr-FR": "Véhicule de fonction" } },
      },
      {
        id: "employee.badgeNumber",
        name: "Badge number",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({ type: "string", pattern: "^B-[0-9]{6}$", description: "Number of the former access badge" }),
        propertyDescriptions: {},
        t9n: { name: { "fr-FR": "Numéro de badge" } },
        archived: true,
      },
      {
        id: "employment.annualSalary",
        name: "Annual gross salary",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: { amount: { type: "number", minimum: 0 }, currency: { type: "string", pattern: "^[A-Z]{3}$" } },
          required: ["amount", "currency"],
        }),
        propertyDescriptions: { amount: "Gross amount per year", currency: "ISO 4217 currency of the legal entity" },
        t9n: { name: { "fr-FR": "Salaire annuel brut" } },
      },
      {
        id: "jobPosition.workArrangement",
        name: "Work arrangement",
        multipleValueHandling: null,
        taxonomyId: null,
        schema: schema({
          type: "object",
          properties: { mode: { type: "string", enum: ["onsite", "hybrid", "remote"] }, officeDaysPerWeek: { type: "integer", minimum: 0, maximum: 5 } },
          required: ["mode"],
        }),
        propertyDescriptions: { mode: "Where the work is done", officeDaysPerWeek: "Days per week expected at the office" },
        t9n: { name: { "fr-FR": "Modalité de travail" } },
      },
    ];
    defs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    defs.forEach(({ archived, ...def }, index) => {
      const stamps = archived
        ? this.archivedStamp(day + index * 15, this.today - 200, rng)
        : { ...this.stamp(day + index * 15, rng), lastArchivedAt: null };
      this.definitions.push({ ...def, isArchived: archived ?? false, ...stamps });
    });
  }
}
