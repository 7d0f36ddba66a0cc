import type { BusinessEstablishment } from "../../data/model.js";
import { booleanFilter, idList, nameSearch } from "../filters.js";
import { ref } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { perContext } from "../cache.js";
import { groupBy, self, withLinks } from "./common.js";
import { legalEntities, serializeLegalEntity } from "./legal-entities.js";

const byLegalEntity = perContext((ctx) => groupBy(ctx.company.businessEstablishments, (r) => r.legalEntityId));

export function serializeBusinessEstablishment(r: BusinessEstablishment, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "business-establishment", "business-establishments", r.id),
      name: r.name,
      remoteId: r.remoteId,
      legalEntity: ref(view, "legal-entity", "legal-entities", r.legalEntityId),
      isHeadquarters: r.isHeadquarters,
      taxIdentificationNumber: r.taxIdentificationNumber,
      industryCode: r.industryCode,
      address: r.address,
      timezoneId: r.timezoneId,
      isArchived: r.isArchived,
      lastArchivedAt: r.lastArchivedAt,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({}),
  );
}

export const businessEstablishments: ResourceDef<BusinessEstablishment> = {
  collection: "business-establishments",
  type: "business-establishment",
  scope: "business-establishments",
  records: (ctx) => ctx.company.businessEstablishments,
  byId: (id, ctx) => ctx.lookup.businessEstablishments.get(id),
  serialize: serializeBusinessEstablishment,
  embeddables: {
    "legal-entity": (r, view) => {
      const entity = legalEntities.byId(r.legalEntityId, view.ctx);
      return [entity ? { id: entity.id, representation: serializeLegalEntity(entity, view) } : null];
    },
  },
  filters: {
    "legalEntity.id": idList((r) => r.legalEntityId, { index: byLegalEntity }),
    search: nameSearch((r) => [r.name]),
    isArchived: booleanFilter((r) => r.isArchived),
  },
};
