import type { JobQualification } from "../../data/model.js";
import { idList, intList } from "../filters.js";
import { ref } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { self, withLinks } from "./common.js";


export function serializeJobQualification(r: JobQualification, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "job-qualification", "job-qualifications", r.id),
      title: r.title,
      profession: ref(view, "profession", "professions", r.professionId),
      rank: r.rank,
      t9n: r.t9n,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({}),
  );
}

export const jobQualifications: ResourceDef<JobQualification> = {
  collection: "job-qualifications",
  type: "job-qualification",
  scope: "job-qualifications",
  records: (ctx) => ctx.company.jobQualifications,
  byId: (id, ctx) => ctx.lookup.jobQualifications.get(id),
  serialize: serializeJobQualification,
  filters: {
    rank: intList((r) => r.rank, { min: 0 }),
    "profession.id": idList((r) => r.professionId),
  },
};
