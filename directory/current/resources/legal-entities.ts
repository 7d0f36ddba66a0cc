import type { LegalEntity } from "../../data/model.js";
import { booleanFilter, enumList } from "../filters.js";
import { scopedListLink } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { COUNTRY_CODES } from "./country-codes.js";
import { self, withLinks } from "./common.js";


export function serializeLegalEntity(r: LegalEntity, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "legal-entity", "legal-entities", r.id),
      legalName: r.legalName,
      remoteId: r.remoteId,
      isArchived: r.isArchived,
      countryCode: r.countryCode,
      currencyCode: r.currencyCode,
      taxIdentificationNumber: r.taxIdentificationNumber,
      industryCode: r.industryCode,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
      lastArchivedAt: r.lastArchivedAt,
    },
    () => ({
      businessEstablishments: scopedListLink(view, "business-establishments", "business-establishments", { "legalEntity.id": r.id }),
    }),
  );
}

export const legalEntities: ResourceDef<LegalEntity> = {
  collection: "legal-entities",
  type: "legal-entity",
  scope: "legal-entities",
  records: (ctx) => ctx.company.legalEntities,
  byId: (id, ctx) => ctx.lookup.legalEntities.get(id),
  serialize: serializeLegalEntity,
  filters: {
    countryCode: enumList(COUNTRY_CODES, (r) => r.countryCode),
    isArchived: booleanFilter((r) => r.isArchived),
  },
};
