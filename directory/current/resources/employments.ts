import type { Employment } from "../../data/model.js";
import { employeeVisible, STATUSES } from "../derived.js";
import { embedById } from "../engine.js";
import { dateEquals, dateRange, enumList, idList, stringList } from "../filters.js";
import { ref, resourceUrl, scopedListLink } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";

export function serializeEmployment(e: Employment, view: View): Record<string, unknown> {
  const d = view.ctx.derived.employment.get(e.id);
  const body: Record<string, unknown> = {
    id: e.id,
    type: "employment",
    url: resourceUrl(view, "employments", e.id),
    remoteId: e.remoteId,
    employee: ref(view, "employee", "employees", e.employeeId),
    legalEntity: ref(view, "legal-entity", "legal-entities", d?.legalEntityId),
    status: d?.status ?? "deactivated",
    start: { date: e.startDate },
    end: e.endDate === null ? null : { date: e.endDate },
    document: ref(view, "file", "files", e.documentId),
    template: ref(view, "employment-template", "employment-templates", e.templateId),
    createdAt: e.createdAt,
    lastUpdatedAt: e.lastUpdatedAt,
  };
  if (view.include.has("links")) {
    body.links = {
      jobPositions: scopedListLink(view, "job-positions", "job-positions", { "employment.id": e.id }),
      probationaryPeriods: scopedListLink(view, "probationary-periods", "probationary-periods", { "employment.id": e.id }),
    };
  }
  return body;
}

export const employments: ResourceDef<Employment> = {
  collection: "employments",
  type: "employment",
  scope: "employments",
  records: (ctx) => ctx.company.employments,
  byId: (id, ctx) => ctx.lookup.employments.get(id),
  visible: (e, caller, ctx) => employeeVisible(e.employeeId, caller, ctx),
  serialize: serializeEmployment,
  embeddables: {
    employee: (e, view) => [embedById(view, "employee", e.employeeId)],
  },
  filters: {
    id: idList((e) => e.id, { lookup: (id, ctx) => ctx.lookup.employments.get(id) }),
    remoteId: stringList((e) => e.remoteId, { maxLength: 200 }),
    "employee.id": idList((e) => e.employeeId, { index: (ctx) => ctx.lookup.employmentsByEmployee }),
    "template.id": idList((e) => e.templateId),
    "legalEntity.id": idList((e, ctx) => ctx.derived.employment.get(e.id)?.legalEntityId),
    status: enumList(STATUSES, (e, ctx) => ctx.derived.employment.get(e.id)?.status),
    "start.date": dateEquals((e) => e.startDate),
    "end.date": dateEquals((e) => e.endDate, { allowNullLiteral: true }),
    "start.date.between": dateRange((e) => e.startDate),
    "end.date.between": dateRange((e) => e.endDate),
  },
  sorts: {
    "start.date": (e) => e.startDate,
    "end.date": (e) => e.endDate,
  },
};
