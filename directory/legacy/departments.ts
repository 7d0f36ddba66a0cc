import type { Department, Id } from "../data/model.js";
import type { Router } from "../http/router.js";
import type { CompanyView } from "./company.js";
import {
  badRequest,
  existing,
  ok,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { checkSelectedFields, idFilter, listFilters, parseListFields, project, v3List, v3ListParams, type ListFilter } from "./query.js";
import { userRef } from "./refs.js";
import type { UserStore } from "./users.js";

/**
 * Legacy departments (`/api/v3/departments`): the current API's department tree, same ids.
 * `hierarchy` is the path of ids from the root (`/1/4/9/`); `sortOrder` is the 1-based rank among
 * siblings (by id); `position` the department's general position in the tree, in the documented
 * range 10^19 to 10^20 (docs/interface.md#legacy-department): 10^19 plus, for each level from the
 * root down to the department, its sibling rank times 100^(9 - level), so that sorting by it lists
 * the tree as it is drawn; `level` is 1 for a root, as in the current API.
 * `users` are the people whose applicable job position is in the department, whatever their status
 * (a legacy PUT of `departmentId` moves a user); `currentUsers` those of them active today.
 */

/** `paging` of the list: 0,1000 by default and at most (docs/interface.md#legacy-department) */
const MAX_PAGE = 1000;
/** the general position of the first root: each level below adds its sibling rank times 100^(9 - level) */
const POSITION_BASE = 10n ** 19n;
const MAX_LEVEL = 9;
const FIELDS = ["id", "name", "code", "hierarchy", "parentId", "position", "sortOrder", "level", "isActive", "headID", "head", "users", "currentUsers", "currentUsersCount", "url"];
const ORDER_FIELDS = ["id", "name", "code", "hierarchy", "position", "sortOrder", "level", "isActive", "headID"];

interface TreeInfo {
  hierarchy: string;
  position: number;
  sortOrder: number;
}

export class DepartmentTree {
  private readonly info = new Map<Id, TreeInfo>();

  constructor(view: CompanyView) {
    const children = new Map<Id | null, Department[]>();
    for (const d of view.company.departments) {
      const parent = d.parentId !== null && view.departments.has(d.parentId) ? d.parentId : null;
      const list = children.get(parent);
      if (list) list.push(d);
      else children.set(parent, [d]);
    }
    for (const list of children.values()) list.sort((a, b) => Number(a.id) - Number(b.id));
    const walk = (parent: Id | null, path: string, level: number, above: bigint) => {
      (children.get(parent) ?? []).forEach((d, i) => {
        const hierarchy = `${path}${d.id}/`;
        // a tree deeper than documented (MAX_LEVEL) keeps its parent's position below that level
        const position = level > MAX_LEVEL ? above : above + BigInt(i + 1) * 100n ** BigInt(MAX_LEVEL - level);
        this.info.set(d.id, { hierarchy, position: Number(position), sortOrder: i + 1 });
        walk(d.id, hierarchy, level + 1, position);
      });
    };
    walk(null, "/", 1, POSITION_BASE);
  }

  get(id: Id): TreeInfo {
    return this.info.get(id)!;
  }
}

export function representDepartment(d: Department, view: CompanyView, tree: DepartmentTree, users: UserStore, origin: string) {
  const moved = users.departmentOverrides();
  const memberIds = view.membersOf(d.id).filter((id) => !moved.has(id));
  for (const [id, departmentId] of moved) if (departmentId === Number(d.id)) memberIds.push(id);
  memberIds.sort((a, b) => Number(a) - Number(b));
  const members = memberIds.map((id) => view.employees.get(id)!);
  const head = d.managerId === null ? undefined : view.employees.get(d.managerId);
  const info = tree.get(d.id);
  const current = members.filter((e) => view.employeeStatus(e.id) === "active");
  return {
    id: Number(d.id),
    name: d.name,
    code: d.remoteId,
    hierarchy: info.hierarchy,
    // the legacy API writes the parent's place in the tree (docs/interface.md#legacy-department), a string: its hierarchy, "/" for a root
    parentId: d.parentId !== null && view.departments.has(d.parentId) ? tree.get(d.parentId).hierarchy : "/",
    position: info.position,
    sortOrder: info.sortOrder,
    level: d.level,
    isActive: !d.isArchived,
    headID: head ? Number(head.id) : null,
    head: head ? userRef(origin, head) : null,
    users: members.map((e) => userRef(origin, e)),
    currentUsers: current.map((e) => userRef(origin, e)),
    currentUsersCount: current.length,
    url: `${origin}/api/v3/departments/${d.id}`,
  };
}

const DEPARTMENT_FILTERS: Record<string, ListFilter<Department>> = {
  id: idFilter((d) => Number(d.id)),
  headId: idFilter((d) => (d.managerId === null ? null : Number(d.managerId))),
  parentId: idFilter((d) => (d.parentId === null ? null : Number(d.parentId))),
};

export function registerDepartmentRoutes(
  router: Router,
  state: () => { view: CompanyView; departments: DepartmentTree; users: UserStore },
): void {
  router.get(
    "/api/v3/departments",
    withApiKey((req) => {
      const q = req.query;
      const { matches } = listFilters(q, DEPARTMENT_FILTERS, v3ListParams(q, []));
      const { view, departments, users } = state();
      const matching = view.company.departments
        .filter(matches)
        .map((d) => representDepartment(d, view, departments, users, req.origin));
      return ok(v3List(q, matching, { orderFields: ORDER_FIELDS, itemFields: FIELDS, what: "department", maxLimit: MAX_PAGE }));
    }),
  );
  router.get(
    "/api/v3/departments/{id}",
    resourceRoute(["fields"], (id, req) => {
      const { selection, count } = parseListFields(singleParam(req.query, "fields"));
      if (count) throw badRequest("'fields': collection.count is for lists.");
      checkSelectedFields(selection, FIELDS, "department");
      const { view, departments, users } = state();
      const d = existing(view.departments.get(String(id)), "Department", id);
      return ok({ data: project(representDepartment(d, view, departments, users, req.origin), selection) });
    }),
  );
}
