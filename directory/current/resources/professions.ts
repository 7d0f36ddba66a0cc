import type { Profession } from "../../data/model.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { booleanFilter } from "../filters.js";
import type { ResourceDef, View } from "../resource.js";
import { self, withLinks } from "./common.js";

/** Professions: what a job qualification is a rank of (`jobQualification.profession`). */

const professionsById = perContext((ctx) => byId(ctx.company.professions));

export function serializeProfession(r: Profession, view: View): Record<string, unknown> {
  return withLinks(
    view,
    { ...self(view, "profession", "professions", r.id), title: r.title, isArchived: r.isArchived, t9n: r.t9n },
    () => ({}),
  );
}

export const professions: ResourceDef<Profession> = {
  collection: "professions",
  type: "profession",
  // the production service reads professions with the job qualifications' scope
  scope: "job-qualifications",
  records: (ctx) => ctx.company.professions,
  byId: (id, ctx) => professionsById(ctx).get(id),
  serialize: serializeProfession,
  filters: {
    isArchived: booleanFilter((r) => r.isArchived),
  },
};
