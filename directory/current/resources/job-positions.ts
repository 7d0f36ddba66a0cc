import type { JobPosition } from "../../data/model.js";
import { employeeVisible, STATUSES, UPDATED_ATTRIBUTES } from "../derived.js";
import { embedById } from "../engine.js";
import { embedDepartment } from "./departments.js";
import { dateEquals, dateRange, enumList, idList, stringList } from "../filters.js";
import { ref, resourceUrl } from "../refs.js";
import type { CurrentContext, ResourceDef, View } from "../resource.js";

function endsOn(p: JobPosition, ctx: CurrentContext): string | null {
  return ctx.derived.jobPosition.get(p.id)?.endsOn ?? null;
}

export function serializeJobPosition(p: JobPosition, view: View): Record<string, unknown> {
  const d = view.ctx.derived.jobPosition.get(p.id);
  const body: Record<string, unknown> = {
    id: p.id,
    type: "job-position",
    url: resourceUrl(view, "job-positions", p.id),
    remoteId: p.remoteId,
    employment: ref(view, "employment", "employments", p.employmentId),
    employee: ref(view, "employee", "employees", p.employeeId),
    status: d?.status ?? "deactivated",
    startsOn: p.startsOn,
    endsOn: d?.endsOn ?? null,
    businessEstablishment: ref(view, "business-establishment", "business-establishments", p.businessEstablishmentId),
    jobTitle: p.jobTitle,
    jobQualification: ref(view, "job-qualification", "job-qualifications", p.jobQualificationId),
    manager: ref(view, "employee", "employees", p.managerId),
    occupationCategory: ref(view, "occupation-category", "occupation-categories", p.occupationCategoryId),
    // docs/interface.md#conventions: a working-time-arrangement reference has the url about:blank
    workingTimeArrangement:
      p.workingTimeArrangementId === null ? null : { id: p.workingTimeArrangementId, type: "working-time-arrangement", url: "about:blank" },
    department: ref(view, "department", "departments", p.departmentId),
    // the production service types a job position's document `document` (an employment's stays `file`): docs/interface.md#job-position
    document: ref(view, "document", "files", p.documentId),
    notes: p.notes,
    t9n: p.t9n,
    updatedAttributes: d?.updatedAttributes ?? [],
    createdAt: p.createdAt,
    lastUpdatedAt: p.lastUpdatedAt,
  };
  // the interface gives job positions no links: an empty object when asked for
  if (view.include.has("links")) body.links = {};
  return body;
}

export const jobPositions: ResourceDef<JobPosition> = {
  collection: "job-positions",
  type: "job-position",
  scope: "job-positions",
  records: (ctx) => ctx.company.jobPositions,
  byId: (id, ctx) => ctx.lookup.jobPositions.get(id),
  visible: (p, caller, ctx) => employeeVisible(p.employeeId, caller, ctx),
  serialize: serializeJobPosition,
  embeddables: {
    // the embedded department is the partial shape the specification gives (docs/interface.md#job-position)
    department: (p, view) => [embedDepartment(view, p.departmentId)],
    "job-qualification": (p, view) => [embedById(view, "job-qualification", p.jobQualificationId)],
    employee: (p, view) => [embedById(view, "employee", p.employeeId)],
    employment: (p, view) => [embedById(view, "employment", p.employmentId)],
  },
  filters: {
    id: idList((p) => p.id, { lookup: (id, ctx) => ctx.lookup.jobPositions.get(id) }),
    remoteId: stringList((p) => p.remoteId, { allowNullLiteral: true, maxLength: 1024 }),
    "employment.id": idList((p) => p.employmentId, { index: (ctx) => ctx.lookup.jobPositionsByEmployment }),
    // the filter of an employee's links.jobPositions (docs/interface.md#employee)
    "employment.employee.id": idList((p) => p.employeeId, { index: (ctx) => ctx.lookup.jobPositionsByEmployee }),
    "businessEstablishment.id": idList((p) => p.businessEstablishmentId),
    "jobQualification.id": idList((p) => p.jobQualificationId),
    "occupationCategory.id": idList((p) => p.occupationCategoryId),
    "manager.id": idList((p) => p.managerId),
    "department.id": idList((p) => p.departmentId),
    status: enumList(STATUSES, (p, ctx) => ctx.derived.jobPosition.get(p.id)?.status),
    startsOn: dateEquals((p) => p.startsOn),
    endsOn: dateEquals(endsOn, { allowNullLiteral: true }),
    "startsOn.between": dateRange((p) => p.startsOn),
    "endsOn.between": dateRange(endsOn),
    updatedAttributes: enumList(UPDATED_ATTRIBUTES, (p, ctx) => ctx.derived.jobPosition.get(p.id)?.updatedAttributes),
  },
  sorts: {
    startsOn: (p) => p.startsOn,
    endsOn,
  },
};
