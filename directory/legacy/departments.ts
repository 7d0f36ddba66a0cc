import type { Department, Id } from "../data/model.js";
import type { Router } from "../http/router.js";
import type { CompanyView } from "./company.js";
import {
  existing,
  ok,
  parseIdList,
  rejectUnknownParams,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { parsePaging } from "./query.js";
import { userRef } from "./refs.js";
import type { UserStore } from "./users.js";

/**
 * Legacy departments (`/api/v3/departments`): the current API's department tree, same ids.
 * `hierarchy` is the path of ids from the root (`/1/4/9/`); `position` is the 1-based rank among
 * siblings (by id); `sortOrder` the 1-based rank in a depth-first walk of the whole tree, so that
 * sorting by it lists the tree as it is drawn; `level` is 1 for a root, as in the current API.
 * `users` are the people whose applicable job position is in the department, whatever their status
 * (a legacy PUT of `departmentId` moves a user); `currentUsers` those of them active today.
 */

const MAX_IDS = 100;
/** `paging` of the list: 0,1000 by default and at most (the legacy reference) */
const MAX_PAGE = 1000;

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
    let order = 0;
    const walk = (parent: Id | null, path: string) => {
      (children.get(parent) ?? []).forEach((d, i) => {
        const hierarchy = `${path}${d.id}/`;
        this.info.set(d.id, { hierarchy, position: i + 1, sortOrder: ++order });
        walk(d.id, hierarchy);
      });
    };
    walk(null, "/");
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
    // the reference writes the parent's place in the tree, a string: its hierarchy, "/" for a root
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

export function registerDepartmentRoutes(
  router: Router,
  state: () => { view: CompanyView; departments: DepartmentTree; users: UserStore },
): void {
  router.get(
    "/api/v3/departments",
    withApiKey((req) => {
      const q = req.query;
      rejectUnknownParams(q, ["id", "headId", "parentId", "paging"]);
      const param = (name: string) => singleParam(q, name);
      const ids = param("id") === undefined ? null : new Set(parseIdList(param("id")!, "id", MAX_IDS));
      const heads = param("headId") === undefined ? null : new Set(parseIdList(param("headId")!, "headId", MAX_IDS));
      const parents = param("parentId") === undefined ? null : new Set(parseIdList(param("parentId")!, "parentId", MAX_IDS));
      const { offset, limit } = parsePaging(param("paging"), MAX_PAGE, MAX_PAGE);
      const { view, departments, users } = state();
      const matching = view.company.departments
        .filter(
          (d) =>
            (ids === null || ids.has(Number(d.id))) &&
            (heads === null || (d.managerId !== null && heads.has(Number(d.managerId)))) &&
            (parents === null || (d.parentId !== null && parents.has(Number(d.parentId)))),
        )
        .sort((a, b) => Number(a.id) - Number(b.id));
      const items = matching.slice(offset, offset + limit).map((d) => representDepartment(d, view, departments, users, req.origin));
      return ok({ data: { items } });
    }),
  );
  router.get(
    "/api/v3/departments/{id}",
    resourceRoute([], (id, req) => {
      const { view, departments, users } = state();
      const d = existing(view.departments.get(String(id)), "Department", id);
      return ok({ data: representDepartment(d, view, departments, users, req.origin) });
    }),
  );
}
