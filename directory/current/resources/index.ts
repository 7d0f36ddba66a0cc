import type { ResourceDef } from "../resource.js";
import { businessEstablishments } from "./business-establishments.js";
import { departments } from "./departments.js";
import { employeeAttributes } from "./employee-attributes.js";
import { employees } from "./employees.js";
import { employments } from "./employments.js";
import { jobPositions } from "./job-positions.js";
import { employeePersonalRecords } from "./employee-personal-records.js";
import { employmentTemplates } from "./employment-templates.js";
import { jobQualifications } from "./job-qualifications.js";
import { legalEntities } from "./legal-entities.js";
import { occupationCategories } from "./occupation-categories.js";
import { probationaryPeriods } from "./probationary-periods.js";
import { taxonomies } from "./taxonomies.js";
import { taxonomyLabels } from "./taxonomy-labels.js";
import { portraits } from "./portraits.js";
import { professions } from "./professions.js";
import { webhookDeliveries } from "./webhook-deliveries.js";
import { events, webhookDeliveryAttempts, webhookEndpoints } from "./webhooks.js";

/** Every current-API resource, in the order they are registered. */
export const resources: ResourceDef<any>[] = [
  employees,
  employments,
  jobPositions,
  legalEntities,
  businessEstablishments,
  departments,
  employmentTemplates,
  occupationCategories,
  jobQualifications,
  taxonomies,
  taxonomyLabels,
  employeeAttributes,
  employeePersonalRecords,
  probationaryPeriods,
  portraits,
  professions,
  webhookEndpoints,
  events,
  webhookDeliveries,
  webhookDeliveryAttempts,
];

export { registerWebhookDeliveries } from "./webhook-deliveries.js";
export { registerPortraitFiles } from "./portraits.js";
