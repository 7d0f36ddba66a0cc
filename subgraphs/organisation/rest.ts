/**
 * The payloads of the current API that this subgraph reads (docs/interface.md#current-api-resources), as the
 * upstream sends them. GraphQL types resolve straight from these objects; fields whose GraphQL
 * shape differs (references, translations, enums) have field resolvers.
 */

import type { Ref } from "../shared/upstream/index.js";

export type T9n = Record<string, Record<string, string>>;

export interface RestFormattedIdentifier {
  format: string;
  value: string;
}

export interface RestLegalEntity {
  id: string;
  legalName: string;
  remoteId: string;
  isArchived: boolean;
  countryCode: string;
  currencyCode: string;
  taxIdentificationNumber: RestFormattedIdentifier;
  industryCode: RestFormattedIdentifier;
  createdAt: string;
  lastUpdatedAt: string;
  lastArchivedAt: string | null;
}

export interface RestAddress {
  addressLines: string[];
  postalCode: string;
  locality: string;
  administrativeArea: string;
  countryCode: string;
}

export interface RestBusinessEstablishment {
  id: string;
  name: string;
  remoteId: string;
  legalEntity: Ref;
  isHeadquarters: boolean;
  taxIdentificationNumber: RestFormattedIdentifier;
  industryCode: RestFormattedIdentifier;
  address: RestAddress;
  timezoneId: string;
  isArchived: boolean;
  lastArchivedAt: string | null;
  createdAt: string;
  lastUpdatedAt: string;
}

/** The department shape of docs/interface.md#department (what `/departments` serves: docs/decisions.md#reads-named-only-by-address). */
export interface RestDepartment {
  id: string;
  name: string;
  remoteId: string | null;
  isArchived: boolean;
  parent: Ref | null;
  level: number;
  manager: Ref | null;
  owningApplication: string;
  description?: string | null;
  sortOrder?: number;
}

export interface RestEmploymentTemplate {
  id: string;
  title: string;
  legalEntities: Ref[];
  term: string;
  audience: string;
  t9n?: T9n;
  createdAt: string;
  lastUpdatedAt: string;
}

export interface RestOccupationCategory {
  id: string;
  title: string;
  /** null: valid for every establishment, including future ones */
  businessEstablishments: Ref[] | null;
  t9n?: T9n;
  createdAt?: string;
  lastUpdatedAt?: string;
}

export interface RestJobQualification {
  id: string;
  title: string;
  profession: Ref | null;
  rank: number;
  t9n?: T9n;
  createdAt: string;
  lastUpdatedAt: string;
}

export interface RestProfession {
  id: string;
  title: string;
  isArchived: boolean;
  t9n?: T9n;
}

export interface RestTaxonomy {
  id: string;
  name: string;
  /** the label property the taxonomy sorts its labels by: `id` (creation order) or `name` */
  sortLabelsBy: string;
  t9n?: T9n;
  createdAt: string;
  lastUpdatedAt: string;
}

export interface RestTaxonomyLabel {
  id: string;
  taxonomy: Ref;
  name: string;
  remoteId: string | null;
  applicabilitySchema: Record<string, unknown>;
  isArchived: boolean;
  lastArchivedAt: string | null;
  t9n?: T9n;
  createdAt: string;
  lastUpdatedAt: string;
}

export interface RestWebhookEndpoint {
  id: string;
  name: string;
  apiVersion: string;
  webhookUrl: string;
  topics: string[];
  /** `active`, `suspended` or `inactive` */
  status: string;
  createdAt: string | null;
  lastUpdatedAt: string | null;
}

export interface RestEvent {
  id: string;
  apiVersion: string;
  topic: string;
  occurredAt: string;
  businessEstablishment: Ref | null;
  /** what the event is about: the employee as it reads now, or its reference */
  data: { id: string; type: string; url: string } | null;
  previousAttributes: Record<string, unknown> | null;
}

export interface RestWebhookDelivery {
  id: string;
  status: string;
  attemptsCount: number;
  nextAttemptAt: string | null;
  /** a reference whose `type` is the event's kind (`employee.created`), not `event` */
  event: Ref;
  webhookEndpoint: Ref;
}

export interface RestWebhookDeliveryAttempt {
  id: string;
  signature: string;
  webhookDelivery: Ref;
  isSuccessful: boolean;
  responseStatusCode: number | null;
  errorResponseBody: string;
  createdAt: string;
}
