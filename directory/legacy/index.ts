import type { Router } from "../http/router.js";
import type { DirectoryContext } from "../server.js";
import { AxisSectionStore, registerAxisSectionRoutes } from "./axis-sections.js";
import { CompanyView } from "./company.js";
import { DepartmentTree, registerDepartmentRoutes } from "./departments.js";
import { registerEstablishmentRoutes } from "./establishments.js";
import { TimeStore, registerTimeEntryRoutes } from "./time-entries.js";
import { UserStore, registerUserRoutes } from "./users.js";
import { registerWorkContractRoutes } from "./work-contracts.js";

/**
 * The legacy API (INTERFACE.md "Legacy endpoints", DECISIONS.md "Legacy API"): users,
 * departments, work contracts, establishments, time entries and axis sections, authenticated by
 * `Authorization: service application=<API_KEY>`.
 *
 * Its state is built on the first legacy request rather than at start-up, so that a service
 * used only through the current API pays nothing for it.
 */
export interface LegacyState {
  view: CompanyView;
  sections: AxisSectionStore;
  users: UserStore;
  departments: DepartmentTree;
  time: TimeStore;
}

export function createLegacyState(ctx: DirectoryContext): LegacyState {
  const view = new CompanyView(ctx.company);
  const sections = new AxisSectionStore(view);
  return {
    view,
    sections,
    users: new UserStore(view, sections),
    departments: new DepartmentTree(view),
    time: new TimeStore(view, sections),
  };
}

export function registerLegacyApi(router: Router, ctx: DirectoryContext): void {
  let state: LegacyState | null = null;
  const get = () => (state ??= createLegacyState(ctx));
  registerUserRoutes(router, get);
  registerDepartmentRoutes(router, get);
  registerWorkContractRoutes(router, get);
  registerEstablishmentRoutes(router, get);
  registerTimeEntryRoutes(router, get);
  registerAxisSectionRoutes(router, get);
}
