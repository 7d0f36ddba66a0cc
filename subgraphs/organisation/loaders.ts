import type { SubgraphContext } from "../shared/graphql/index.js";
import { adaptiveLoader } from "../shared/upstream/index.js";
import type {
  RestBusinessEstablishment,
  RestDepartment,
  RestEmploymentTemplate,
  RestJobQualification,
  RestLegalEntity,
  RestOccupationCategory,
  RestProfession,
  RestTaxonomy,
  RestTaxonomyLabel,
  RestEvent,
  RestWebhookDelivery,
  RestWebhookDeliveryAttempt,
  RestWebhookEndpoint,
} from "./rest.js";

/**
 * The request's loaders, by name. Every one lives in the request's registry and dies with it.
 * None of these lists has an `id` filter, so references go through the shared `adaptiveLoader`
 * (single reads or the whole collection, whichever is cheaper; the whole list where there is no
 * single read). The one-to-many edges are in edges.ts.
 */

const path = (collection: string) => (id: string) => `/${collection}/${encodeURIComponent(id)}`;

export const legalEntityLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legalEntity", () =>
    adaptiveLoader<RestLegalEntity>(ctx.upstream, { list: "/legal-entities", single: path("legal-entities") }),
  );

export const businessEstablishmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("businessEstablishment", () =>
    adaptiveLoader<RestBusinessEstablishment>(ctx.upstream, {
      list: "/business-establishments",
      single: path("business-establishments"),
    }),
  );

export const departmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("department", () => adaptiveLoader<RestDepartment>(ctx.upstream, { list: "/departments", single: path("departments") }));

/** The specification has no single read of an employment template (docs/interface.md#reads): the list is read whole. */
export const employmentTemplateLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employmentTemplate", () => adaptiveLoader<RestEmploymentTemplate>(ctx.upstream, { list: "/employment-templates" }));

export const occupationCategoryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("occupationCategory", () =>
    adaptiveLoader<RestOccupationCategory>(ctx.upstream, { list: "/occupation-categories", single: path("occupation-categories") }),
  );

/** The specification has no single read of a job qualification (docs/interface.md#reads): the list is read whole. */
export const jobQualificationLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("jobQualification", () => adaptiveLoader<RestJobQualification>(ctx.upstream, { list: "/job-qualifications" }));

/** Professions: a small list with a single read (`GET /professions[/{id}]`), read with the job qualifications' scope. */
export const professionLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("profession", () => adaptiveLoader<RestProfession>(ctx.upstream, { list: "/professions", single: path("professions") }));

/** The specification has no single read of a taxonomy (docs/interface.md#reads): the list is read whole. */
export const taxonomyLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomy", () => adaptiveLoader<RestTaxonomy>(ctx.upstream, { list: "/taxonomies" }));

export const taxonomyLabelLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomyLabel", () =>
    adaptiveLoader<RestTaxonomyLabel>(ctx.upstream, { list: "/taxonomy-labels", single: path("taxonomy-labels") }),
  );

/** Webhook endpoints (scope webhook-endpoints). */
export const webhookEndpointLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookEndpoint", () =>
    adaptiveLoader<RestWebhookEndpoint>(ctx.upstream, { list: "/webhook-endpoints", single: path("webhook-endpoints") }),
  );

/** Events (scope events): the directory leaves out, and answers 404 for, an event about an employee the caller may not see. */
export const eventLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("event", () => adaptiveLoader<RestEvent>(ctx.upstream, { list: "/events", single: path("events") }));

/** Webhook deliveries (read with scope webhook-deliveries). */
export const webhookDeliveryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookDelivery", () =>
    adaptiveLoader<RestWebhookDelivery>(ctx.upstream, { list: "/webhook-deliveries", single: path("webhook-deliveries") }),
  );

/**
 * Webhook delivery attempts (read with scope webhook-deliveries): the list has no `id` filter but a
 * single read, so references adapt like the others (single reads, or the whole list when cheaper).
 */
export const webhookDeliveryAttemptLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookDeliveryAttempt", () =>
    adaptiveLoader<RestWebhookDeliveryAttempt>(ctx.upstream, { list: "/webhook-delivery-attempts", single: path("webhook-delivery-attempts") }),
  );
