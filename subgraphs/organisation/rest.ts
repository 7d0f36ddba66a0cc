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

export interface RestWebhookDelivery {
  id: string;
  status: string;
  attemptsCount: number;
  nextAttemptAt: string | null;
  event: Ref;
  webhookEndpoint: Ref;
}
