import type { OccupationCategory } from "../../data/model.js";
import { idList } from "../filters.js";
import { ref } from "../refs.js";
import type { FilterDef, ResourceDef, View } from "../resource.js";
import { containsText, self, withLinks } from "./common.js";


export function serializeOccupationCategory(r: OccupationCategory, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "occupation-category", "occupation-categories", r.id),
      title: r.title,
      businessEstablishments:
        r.businessEstablishmentIds === null
          ? null
          : r.businessEstablishmentIds.map((id) => ref(view, "business-establishment", "business-establishments", id)),
      t9n: r.t9n,
    },
    () => ({}),
  );
}

const establishmentIds = idList<OccupationCategory>((r) => r.businessEstablishmentIds);

/** A category without establishments is valid for all of them, so it matches any establishment. */
const validForEstablishments: FilterDef<OccupationCategory> = {
  parse: establishmentIds.parse,
  matches: (r, value, ctx) => r.businessEstablishmentIds === null || establishmentIds.matches(r, value, ctx),
};

export const occupationCategories: ResourceDef<OccupationCategory> = {
  collection: "occupation-categories",
  type: "occupation-category",
  scope: "occupation-categories",
  records: (ctx) => ctx.company.occupationCategories,
  byId: (id, ctx) => ctx.lookup.occupationCategories.get(id),
  serialize: serializeOccupationCategory,
  filters: {
    "businessEstablishments.id": validForEstablishments,
    search: containsText((r) => r.title, { maxLength: 255 }),
  },
};
