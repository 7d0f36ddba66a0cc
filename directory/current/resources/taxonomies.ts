import type { Taxonomy } from "../../data/model.js";
import { nameSearch } from "../filters.js";
import type { ResourceDef, View } from "../resource.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { self, withLinks } from "./common.js";

const taxonomiesById = perContext((ctx) => byId(ctx.company.taxonomies));

export function serializeTaxonomy(r: Taxonomy, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "taxonomy", "taxonomies", r.id),
      name: r.name,
      sortLabelsBy: r.sortLabelsBy,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
      t9n: r.t9n,
    },
    () => ({}),
  );
}

export const taxonomies: ResourceDef<Taxonomy> = {
  collection: "taxonomies",
  type: "taxonomy",
  scope: "taxonomies",
  records: (ctx) => ctx.company.taxonomies,
  byId: (id, ctx) => taxonomiesById(ctx).get(id),
  serialize: serializeTaxonomy,
  filters: {
    search: nameSearch((r) => [r.name]),
  },
};
