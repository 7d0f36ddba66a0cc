import type { Department } from "../../data/model.js";
import { booleanFilter, nameSearch } from "../filters.js";
import { ref, scopedListLink } from "../refs.js";
import type { ResourceDef, View } from "../resource.js";
import { self, withLinks } from "./common.js";


/** The department shape of docs/interface.md#department (job-position embeddables use it as well). */
export function serializeDepartment(r: Department, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "department", "departments", r.id),
      name: r.name,
      description: r.description,
      remoteId: r.remoteId,
      isArchived: r.isArchived,
      parent: ref(view, "department", "departments", r.parentId),
      level: r.level,
      manager: ref(view, "employee", "employees", r.managerId),
      sortOrder: r.sortOrder,
      owningApplication: r.owningApplication,
    },
    () => ({
      activeEmployees: scopedListLink(view, "employees", "employees", { "applicableJobPosition.department.id": r.id }),
    }),
  );
}

/**
 * A department as a job position embeds it: the members the specification lists for that form
 * (`id`, `type`, `url`, `name`, `remoteId`, `isArchived`, `parent`, `level`, `manager`,
 * `owningApplication`, `links`), a partial representation without `description` and `sortOrder`.
 */
const EMBEDDED_MEMBERS = ["id", "type", "url", "name", "remoteId", "isArchived", "parent", "level", "manager", "owningApplication", "links"];

export function embedDepartment(view: View, id: string | null | undefined): { id: string; representation: unknown } | null {
  const record = id === null || id === undefined ? undefined : view.ctx.lookup.departments.get(id);
  if (!record) return null;
  const full = serializeDepartment(record, view);
  return { id: record.id, representation: Object.fromEntries(EMBEDDED_MEMBERS.filter((m) => m in full).map((m) => [m, full[m]])) };
}

export const departments: ResourceDef<Department> = {
  collection: "departments",
  type: "department",
  scope: "departments",
  records: (ctx) => ctx.company.departments,
  byId: (id, ctx) => ctx.lookup.departments.get(id),
  serialize: serializeDepartment,
  filters: {
    search: nameSearch((r) => [r.name]),
    isArchived: booleanFilter((r) => r.isArchived),
  },
};
