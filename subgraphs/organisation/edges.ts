import type { ChildEdge, FilteredEdge } from "../shared/graphql/index.js";
import { jobQualificationQuery } from "./job-qualification/job-qualification.resolver.js";
import { businessEstablishmentLoader, jobQualificationLoader, taxonomyLabelLoader, webhookDeliveryAttemptLoader, webhookDeliveryLoader } from "./loaders.js";
import type { RestBusinessEstablishment, RestJobQualification, RestTaxonomyLabel, RestWebhookDelivery, RestWebhookDeliveryAttempt } from "./rest.js";

/**
 * The one-to-many edges of the organisation subgraph that are connections, each named by the REST
 * list and filter that back it, served by the shared `childConnection`: one list call for every
 * parent of the request (and filter). The children are primed into their entity's loader. An
 * edge whose field takes the caller's filter names that field (`field`): the subgraph's field
 * checks and the gateway's table of them are derived from it (index.ts).
 */

/** `LegalEntity.businessEstablishments` */
export const establishmentsOfLegalEntity: ChildEdge<RestBusinessEstablishment> = {
  path: "/business-establishments",
  filter: "legalEntity.id",
  parentOf: (establishment) => establishment.legalEntity?.id,
  primes: businessEstablishmentLoader,
};

/** `Taxonomy.labels` */
export const labelsOfTaxonomy: ChildEdge<RestTaxonomyLabel> = {
  path: "/taxonomy-labels",
  filter: "taxonomy.id",
  parentOf: (label) => label.taxonomy?.id,
  primes: taxonomyLabelLoader,
};

/** `Profession.jobQualifications` */
export const jobQualificationsOfProfession: FilteredEdge<RestJobQualification> = {
  path: "/job-qualifications",
  filter: "profession.id",
  field: { coordinate: "Profession.jobQualifications", ownFilter: "professionIds", query: jobQualificationQuery },
  parentOf: (qualification) => qualification.profession?.id,
  primes: jobQualificationLoader,
};

/** `WebhookEndpoint.deliveries` */
export const deliveriesOfWebhookEndpoint: ChildEdge<RestWebhookDelivery> = {
  path: "/webhook-deliveries",
  filter: "webhookEndpoint.id",
  parentOf: (delivery) => delivery.webhookEndpoint?.id,
  primes: webhookDeliveryLoader,
};

/** `WebhookDelivery.attempts` */
export const attemptsOfWebhookDelivery: ChildEdge<RestWebhookDeliveryAttempt> = {
  path: "/webhook-delivery-attempts",
  filter: "webhookDelivery.id",
  parentOf: (attempt) => attempt.webhookDelivery?.id,
  primes: webhookDeliveryAttemptLoader,
};
