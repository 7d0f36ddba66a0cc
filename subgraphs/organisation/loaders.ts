import { primeEmbedded, type EmbeddedPrime, type SubgraphContext } from "../shared/graphql/index.js";
import { departmentLoader, itemPath as path, referenceLoader } from "../shared/organisation/departments.js";
import type {
  RestBusinessEstablishment,
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

// departments are read by legacy-time as well: their loader is shared (subgraphs/shared/organisation/departments.ts)
export { departmentLoader };

export const legalEntityLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("legalEntity", () =>
    referenceLoader<RestLegalEntity>(ctx, { list: "/legal-entities", single: path("legal-entities") }),
  );

/**
 * What an establishment read embeds (`include=embedded`): its legal entity, when the operation
 * reads an establishment's `legalEntity` beyond its id. The legal entities that hold every member
 * the operation reads of one prime its loader, so they cost no round of their own
 * (docs/performance.md#batching-rules). None: nothing embedded.
 */
export function establishmentEmbeds(ctx: SubgraphContext): EmbeddedPrime[] {
  const operation = ctx.operation;
  if (!operation || ctx.mechanismsOff?.has("embedded-priming") || !operation.fieldsOf("BusinessEstablishment").has("legalEntity") || !operation.readsBeyondKey("LegalEntity")) return [];
  return [
    {
      restType: "legal-entity",
      graphType: operation.typeName("LegalEntity"),
      prime: (entries) => legalEntityLoader(ctx).primeAll(entries.map(([, entity]) => entity as RestLegalEntity)),
    },
  ];
}

/** Establishments, with their legal entities embedded when the operation reads them (`establishmentEmbeds`). */
export const businessEstablishmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("businessEstablishment", () => {
    const embeds = establishmentEmbeds(ctx);
    const operation = ctx.operation;
    return referenceLoader<RestBusinessEstablishment>(ctx, {
      list: "/business-establishments",
      single: path("business-establishments"),
      ...(embeds.length > 0 && operation ? { embedded: (answer) => primeEmbedded(answer, embeds, operation.selected) } : {}),
    });
  });

/** The specification has no single read of an employment template (docs/interface.md#reads): the list is read whole. */
export const employmentTemplateLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employmentTemplate", () => referenceLoader<RestEmploymentTemplate>(ctx, { list: "/employment-templates" }));

export const occupationCategoryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("occupationCategory", () =>
    referenceLoader<RestOccupationCategory>(ctx, { list: "/occupation-categories", single: path("occupation-categories") }),
  );

/** The specification has no single read of a job qualification (docs/interface.md#reads): the list is read whole. */
export const jobQualificationLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("jobQualification", () => referenceLoader<RestJobQualification>(ctx, { list: "/job-qualifications" }));

/** Professions: a small list with a single read (`GET /professions[/{id}]`), read with the job qualifications' scope. */
export const professionLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("profession", () => referenceLoader<RestProfession>(ctx, { list: "/professions", single: path("professions") }));

/** The specification has no single read of a taxonomy (docs/interface.md#reads): the list is read whole. */
export const taxonomyLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomy", () => referenceLoader<RestTaxonomy>(ctx, { list: "/taxonomies" }));

export const taxonomyLabelLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("taxonomyLabel", () =>
    referenceLoader<RestTaxonomyLabel>(ctx, { list: "/taxonomy-labels", single: path("taxonomy-labels") }),
  );

/** Webhook endpoints (scope webhook-endpoints). */
export const webhookEndpointLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookEndpoint", () =>
    referenceLoader<RestWebhookEndpoint>(ctx, { list: "/webhook-endpoints", single: path("webhook-endpoints") }),
  );

/** Events (scope events): the directory leaves out, and answers 404 for, an event about an employee the caller may not see. */
export const eventLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("event", () => referenceLoader<RestEvent>(ctx, { list: "/events", single: path("events") }));

/** Webhook deliveries (read with scope webhook-deliveries). */
export const webhookDeliveryLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookDelivery", () =>
    referenceLoader<RestWebhookDelivery>(ctx, { list: "/webhook-deliveries", single: path("webhook-deliveries") }),
  );

/**
 * Webhook delivery attempts (read with scope webhook-deliveries): the list has no `id` filter but a
 * single read, so references adapt like the others (single reads, or the whole list when cheaper).
 */
export const webhookDeliveryAttemptLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("webhookDeliveryAttempt", () =>
    referenceLoader<RestWebhookDeliveryAttempt>(ctx, { list: "/webhook-delivery-attempts", single: path("webhook-delivery-attempts") }),
  );

