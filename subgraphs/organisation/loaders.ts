import { childConnectionLoader, type SubgraphContext } from "../shared/graphql/index.js";
import type { QueryParams } from "../shared/upstream/index.js";
import { referenceLoader } from "./reference-loader.js";
import type {
  RestBusinessEstablishment,
  RestDepartment,
  RestEmploymentTemplate,
  RestJobQualification,
  RestLegalEntity,
  RestOccupationCategory,
  RestTaxonomy,
  RestTaxonomyLabel,
} from "./rest.js";

/**
 * The request's loaders, by name. Every one lives in the request's registry and dies with it.
 * None of these lists has an `id` filter, so references go through `referenceLoader` (adaptive
 * single reads / whole collection); the one-to-many edges batch over the parent filter the list
 * does have.
 */

const path = (collection: string) => (id: string) => `/${collection}/${encodeURIComponent(id)}`;

export const legalEntityLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legalEntity", () =>
    referenceLoader<RestLegalEntity>(ctx.upstream, { list: "/legal-entities", single: path("legal-entities") }),
  );

export const businessEstablishmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("businessEstablishment", () =>
    referenceLoader<RestBusinessEstablishment>(ctx.upstream, {
      list: "/business-establishments",
      single: path("business-establishments"),
    }),
  );

export const departmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("department", () => referenceLoader<RestDepartment>(ctx.upstream, { list: "/departments", single: path("departments") }));

/** The specification has no single read of an employment template (docs/interface.md#reads): the list is read whole. */
export const employmentTemplateLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employmentTemplate", () => referenceLoader<RestEmploymentTemplate>(ctx.upstream, { list: "/employment-templates" }));

export const occupationCategoryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("occupationCategory", () =>
    referenceLoader<RestOccupationCategory>(ctx.upstream, { list: "/occupation-categories", single: path("occupation-categories") }),
  );

/** The specification has no single read of a job qualification (docs/interface.md#reads): the list is read whole. */
export const jobQualificationLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("jobQualification", () => referenceLoader<RestJobQualification>(ctx.upstream, { list: "/job-qualifications" }));

/** The specification has no single read of a taxonomy (docs/interface.md#reads): the list is read whole. */
export const taxonomyLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomy", () => referenceLoader<RestTaxonomy>(ctx.upstream, { list: "/taxonomies" }));

export const taxonomyLabelLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomyLabel", () =>
    referenceLoader<RestTaxonomyLabel>(ctx.upstream, { list: "/taxonomy-labels", single: path("taxonomy-labels") }),
  );

/** `LegalEntity.businessEstablishments`: one list call for every legal entity of the request. */
export const establishmentsOfLegalEntityLoader = (ctx: SubgraphContext, query: QueryParams) =>
  ctx.loaders.get(`establishmentsOfLegalEntity:${JSON.stringify(query)}`, () =>
    childConnectionLoader<RestBusinessEstablishment>(ctx.upstream, "/business-establishments", "legalEntity.id", (item) => item.legalEntity?.id, {
      query,
    }),
  );

/** `Taxonomy.labels`: one list call for every taxonomy of the request (and filter). */
export const labelsOfTaxonomyLoader = (ctx: SubgraphContext, query: QueryParams) =>
  ctx.loaders.get(`labelsOfTaxonomy:${JSON.stringify(query)}`, () =>
    childConnectionLoader<RestTaxonomyLabel>(ctx.upstream, "/taxonomy-labels", "taxonomy.id", (item) => item.taxonomy?.id, { query }),
  );
