import type { TaxonomyLabel } from "../../data/model.js";
import { booleanFilter, idList, nameSearch } from "../filters.js";
import { ref } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { groupBy, self, withLinks } from "./common.js";

const labelsById = perContext((ctx) => byId(ctx.company.taxonomyLabels));
const byTaxonomy = perContext((ctx) => groupBy(ctx.company.taxonomyLabels, (r) => r.taxonomyId));

export function serializeTaxonomyLabel(r: TaxonomyLabel, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "taxonomy-label", "taxonomy-labels", r.id),
      taxonomy: ref(view, "taxonomy", "taxonomies", r.taxonomyId),
      name: r.name,
      remoteId: r.remoteId,
      applicabilitySchema: r.applicabilitySchema,
      isArchived: r.isArchived,
      lastArchivedAt: r.lastArchivedAt,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
      t9n: r.t9n,
    },
    () => ({}),
  );
}

export const taxonomyLabels: ResourceDef<TaxonomyLabel> = {
  collection: "taxonomy-labels",
  type: "taxonomy-label",
  // docs/interface.md#authentication-and-scopes: the `taxonomies` scope covers taxonomies and taxonomy labels.
  scope: "taxonomies",
  records: (ctx) => ctx.company.taxonomyLabels,
  byId: (id, ctx) => labelsById(ctx).get(id),
  serialize: serializeTaxonomyLabel,
  filters: {
    "taxonomy.id": idList((r) => r.taxonomyId, { index: byTaxonomy }),
    search: nameSearch((r) => [r.name]),
    isArchived: booleanFilter((r) => r.isArchived),
  },
  sorts: {
    name: (r) => r.name,
  },
};
