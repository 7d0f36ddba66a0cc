import { portraitToken } from "./portraits.js";
import type { Employee, Employment, JobPosition } from "../../data/model.js";
import { employeeVisible, STATUSES } from "../derived.js";
import { embedById } from "../engine.js";
import { dateEquals, dateRange, enumList, idList, nameSearch, stringList } from "../filters.js";
import { ref, resourceUrl, scopedListLink } from "../refs.js";
import type { CurrentContext, ResourceDef, View } from "../resource.js";

function derivedOf(e: Employee, ctx: CurrentContext) {
  return ctx.derived.employee.get(e.id);
}

export function applicableEmployment(e: Employee, ctx: CurrentContext): Employment | undefined {
  const id = derivedOf(e, ctx)?.applicableEmploymentId;
  return id ? ctx.lookup.employments.get(id) : undefined;
}

export function applicableJobPosition(e: Employee, ctx: CurrentContext): JobPosition | undefined {
  const id = derivedOf(e, ctx)?.applicableJobPositionId;
  return id ? ctx.lookup.jobPositions.get(id) : undefined;
}

/**
 * The portrait's file address carries a token (docs/interface.md#employee) so that it can be used where no
 * bearer token can be sent (an <img src>); it is derived from the file id with the service's key.
 */
function portraitHref(view: View, portraitId: string): string {
  return `${resourceUrl(view, "files", portraitId)}?token=${portraitToken(view.ctx, portraitId)}`;
}

export function serializeEmployee(e: Employee, view: View): Record<string, unknown> {
  const d = derivedOf(e, view.ctx);
  const body: Record<string, unknown> = {
    id: e.id,
    type: "employee",
    url: resourceUrl(view, "employees", e.id),
    remoteId: e.remoteId,
    portrait: ref(view, "portrait", "portraits", e.portraitId),
    givenName: e.givenName,
    familyName: e.familyName,
    employeeNumber: e.employeeNumber,
    status: d?.status ?? "deactivated",
    email: e.email,
    phoneNumber: e.phoneNumber,
    birthDay: e.birthDay,
    applicableEmployment: ref(view, "employment", "employments", d?.applicableEmploymentId),
    applicableJobPosition: ref(view, "job-position", "job-positions", d?.applicableJobPositionId),
    createdAt: e.createdAt,
    lastUpdatedAt: e.lastUpdatedAt,
  };
  if (view.include.has("links")) {
    body.links = {
      portrait: { href: portraitHref(view, e.portraitId) },
      employments: scopedListLink(view, "employments", "employments", { "employee.id": e.id }),
      jobPositions: scopedListLink(view, "job-positions", "job-positions", { "employment.employee.id": e.id }),
      personalRecord: scopedListLink(view, "employee-personal-records", "employee-personal-records", { "employee.id": e.id }),
    };
  }
  return body;
}

const employment = applicableEmployment;
const position = applicableJobPosition;

export const employees: ResourceDef<Employee> = {
  collection: "employees",
  type: "employee",
  scope: "employees",
  records: (ctx) => ctx.company.employees,
  byId: (id, ctx) => ctx.lookup.employees.get(id),
  visible: (e, caller, ctx) => employeeVisible(e.id, caller, ctx),
  serialize: serializeEmployee,
  embeddables: {
    employment: (e, view) => [embedById(view, "employment", derivedOf(e, view.ctx)?.applicableEmploymentId)],
    "job-position": (e, view) => [embedById(view, "job-position", derivedOf(e, view.ctx)?.applicableJobPositionId)],
  },
  filters: {
    id: idList((e) => e.id, { lookup: (id, ctx) => ctx.lookup.employees.get(id) }),
    search: nameSearch((e) => [e.givenName, e.familyName]),
    email: stringList((e) => e.email, { allowNullLiteral: true, minLength: 3, maxLength: 255 }),
    status: enumList(STATUSES, (e, ctx) => derivedOf(e, ctx)?.status),
    "applicableEmployment.legalEntity.id": idList((e, ctx) => {
      const id = derivedOf(e, ctx)?.applicableEmploymentId;
      return id ? ctx.derived.employment.get(id)?.legalEntityId : null;
    }),
    "applicableEmployment.remoteId": stringList((e, ctx) => employment(e, ctx)?.remoteId, { maxLength: 200 }),
    "applicableEmployment.startsOn": dateEquals((e, ctx) => employment(e, ctx)?.startDate),
    "applicableEmployment.startsOn.between": dateRange((e, ctx) => employment(e, ctx)?.startDate),
    "applicableEmployment.endsOn": dateEquals((e, ctx) => employment(e, ctx)?.endDate, { allowNullLiteral: true }),
    "applicableEmployment.endsOn.between": dateRange((e, ctx) => employment(e, ctx)?.endDate),
    "applicableEmployment.template.id": idList((e, ctx) => employment(e, ctx)?.templateId),
    "applicableEmployment.template.term": enumList(["permanent", "fixed"], (e, ctx) => {
      const templateId = employment(e, ctx)?.templateId;
      return templateId ? ctx.lookup.employmentTemplates.get(templateId)?.term : null;
    }),
    "applicableJobPosition.remoteId": stringList((e, ctx) => position(e, ctx)?.remoteId, { allowNullLiteral: true, maxLength: 1024 }),
    "applicableJobPosition.businessEstablishment.id": idList((e, ctx) => position(e, ctx)?.businessEstablishmentId),
    "applicableJobPosition.department.id": idList((e, ctx) => position(e, ctx)?.departmentId),
    "applicableJobPosition.manager.id": idList((e, ctx) => position(e, ctx)?.managerId),
    "applicableJobPosition.jobQualification.id": idList((e, ctx) => position(e, ctx)?.jobQualificationId),
    // Job qualifications and occupation categories have no remoteId of their own in the demo
    // data: their id stands in for it.
    "applicableJobPosition.jobQualification.remoteId": stringList((e, ctx) => position(e, ctx)?.jobQualificationId),
    "applicableJobPosition.occupationCategory.id": idList((e, ctx) => position(e, ctx)?.occupationCategoryId),
    "applicableJobPosition.occupationCategory.remoteId": stringList((e, ctx) => position(e, ctx)?.occupationCategoryId),
  },
  sorts: {
    familyName: (e) => e.familyName,
    createdAt: (e) => e.createdAt,
  },
};
