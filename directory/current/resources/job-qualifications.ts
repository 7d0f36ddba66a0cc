import type { JobQualification } from "../../data/model.js";
import { idList, intList } from "../filters.js";
import { ref, scopedListLink } from "../refs.js";
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
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({
      jobPositions: scopedListLink(view, "job-positions", "job-positions", { "jobQualification.id": r.id }),
    }),
  );
}

export const jobQualifications: ResourceDef<JobQualification> = {
  collection: "job-qualifications",
  type: "job-qualification",
  // The interface names no scope of its own for job qualifications; they are part of the job
  // data that `job-positions` grants.
  scope: "job-positions",
  records: (ctx) => ctx.company.jobQualifications,
  byId: (id, ctx) => ctx.lookup.jobQualifications.get(id),
  serialize: serializeJobQualification,
  filters: {
    rank: intList((r) => r.rank, { min: 0 }),
    "profession.id": idList((r) => r.professionId),
  },
};
