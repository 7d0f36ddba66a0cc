import type { GraphQLSchema } from "graphql";
import { buildFederatedSchema, edgeFieldChecks, type SubgraphModule } from "../shared/graphql/index.js";
import { businessEstablishmentReference } from "./business-establishment/business-establishment.reference.js";
import { BusinessEstablishmentResolver } from "./business-establishment/business-establishment.resolver.js";
import { departmentReference } from "./department/department.reference.js";
import { DepartmentResolver } from "./department/department.resolver.js";
import { employmentTemplateReference } from "./employment-template/employment-template.reference.js";
import { EmploymentTemplateResolver } from "./employment-template/employment-template.resolver.js";
import { jobQualificationReference } from "./job-qualification/job-qualification.reference.js";
import { JobQualificationResolver } from "./job-qualification/job-qualification.resolver.js";
import { legalEntityReference } from "./legal-entity/legal-entity.reference.js";
import { LegalEntityResolver } from "./legal-entity/legal-entity.resolver.js";
import { professionReference } from "./profession/profession.reference.js";
import { ProfessionResolver } from "./profession/profession.resolver.js";
import { occupationCategoryReference } from "./occupation-category/occupation-category.reference.js";
import { OccupationCategoryResolver } from "./occupation-category/occupation-category.resolver.js";
import { taxonomyLabelReference } from "./taxonomy-label/taxonomy-label.reference.js";
import { TaxonomyLabelResolver } from "./taxonomy-label/taxonomy-label.resolver.js";
import { taxonomyReference } from "./taxonomy/taxonomy.reference.js";
import { TaxonomyResolver } from "./taxonomy/taxonomy.resolver.js";
import { eventReference } from "./event/event.reference.js";
import { EventResolver } from "./event/event.resolver.js";
import { webhookDeliveryReference } from "./webhook-delivery/webhook-delivery.reference.js";
import { WebhookDeliveryResolver } from "./webhook-delivery/webhook-delivery.resolver.js";
import { webhookDeliveryAttemptReference } from "./webhook-delivery-attempt/webhook-delivery-attempt.reference.js";
import { WebhookDeliveryAttemptResolver } from "./webhook-delivery-attempt/webhook-delivery-attempt.resolver.js";
import { webhookEndpointReference } from "./webhook-endpoint/webhook-endpoint.reference.js";
import { WebhookEndpointResolver } from "./webhook-endpoint/webhook-endpoint.resolver.js";
import * as edges from "./edges.js";

/** The organisation subgraph: the reference data of the current API (docs/graph.md#subgraphs-and-ownership). */
export const subgraph: SubgraphModule = {
  name: "organisation",
  portVariable: "ORGANISATION_PORT",
  defaultPort: 4002,
  // the filters of its edges, declared with them
  ...edgeFieldChecks(Object.values(edges)),
  buildSchema: (naming): Promise<GraphQLSchema> =>
    buildFederatedSchema({
      ...naming,
      resolvers: [
        LegalEntityResolver,
        BusinessEstablishmentResolver,
        DepartmentResolver,
        EmploymentTemplateResolver,
        OccupationCategoryResolver,
        JobQualificationResolver,
        ProfessionResolver,
        TaxonomyResolver,
        TaxonomyLabelResolver,
        WebhookEndpointResolver,
        EventResolver,
        WebhookDeliveryResolver,
        WebhookDeliveryAttemptResolver,
      ],
      referenceResolvers: {
        LegalEntity: legalEntityReference,
        BusinessEstablishment: businessEstablishmentReference,
        Department: departmentReference,
        EmploymentTemplate: employmentTemplateReference,
        OccupationCategory: occupationCategoryReference,
        JobQualification: jobQualificationReference,
        Profession: professionReference,
        Taxonomy: taxonomyReference,
        TaxonomyLabel: taxonomyLabelReference,
        WebhookEndpoint: webhookEndpointReference,
        Event: eventReference,
        WebhookDelivery: webhookDeliveryReference,
        WebhookDeliveryAttempt: webhookDeliveryAttemptReference,
      },
    }),
};
