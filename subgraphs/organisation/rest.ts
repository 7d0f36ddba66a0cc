/**
 * The payloads of the current API that this subgraph reads (docs/interface.md#current-api-resources), as the
 * upstream sends them, typed from the shapes declared once in contract/rest-shapes.ts. GraphQL types
 * resolve straight from these objects; fields whose GraphQL shape differs (references,
 * translations, enums) have field resolvers.
 */

import type { Static } from "@sinclair/typebox";
import type * as Shapes from "../../contract/rest-shapes.js";

export type RestLegalEntity = Static<typeof Shapes.legalEntity>;
export type RestBusinessEstablishment = Static<typeof Shapes.businessEstablishment>;
export type { RestDepartment } from "../shared/organisation/departments.js";
export type RestEmploymentTemplate = Static<typeof Shapes.employmentTemplate>;
/** `businessEstablishments` null: valid for every establishment, including future ones */
export type RestOccupationCategory = Static<typeof Shapes.occupationCategory>;
export type RestJobQualification = Static<typeof Shapes.jobQualification>;
export type RestProfession = Static<typeof Shapes.profession>;
/** `sortLabelsBy`: the label property the taxonomy sorts its labels by, `id` (creation order) or `name` */
export type RestTaxonomy = Static<typeof Shapes.taxonomy>;
export type RestTaxonomyLabel = Static<typeof Shapes.taxonomyLabel>;
export type RestWebhookEndpoint = Static<typeof Shapes.webhookEndpoint>;
/** `data`: what the event is about, the employee as it reads now or its reference */
export type RestEvent = Static<typeof Shapes.event>;
/** `event`: a reference whose `type` is the event's kind (`employee.created`), not `event` */
export type RestWebhookDelivery = Static<typeof Shapes.webhookDelivery>;
export type RestWebhookDeliveryAttempt = Static<typeof Shapes.webhookDeliveryAttempt>;
