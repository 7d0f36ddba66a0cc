import type { Handler, RouteOptions, Router } from "../http/router.js";
import type { DirectoryContext } from "../context.js";
import { AxisSectionStore, registerAxisSectionRoutes } from "./axis-sections.js";
import { CompanyView } from "./company.js";
import { registerDepartmentRoutes } from "./departments.js";
import { registerEstablishmentRoutes } from "./establishments.js";
import { TimeStore, registerTimeEntryRoutes } from "./time-entries.js";
import { UserStore, registerUserRoutes } from "./users.js";
import { registerWorkContractRoutes } from "./work-contracts.js";

/**
 * The legacy API (docs/interface.md#legacy-routes, docs/decisions.md#legacy-api): users, work
 * contracts, establishments, time entries and axis sections (its departments answer 410 Gone
 * since their sunset, September 2026), authenticated by
 * `Authorization: service application=<API_KEY>`.
 *
 * Its state is built on the first legacy request rather than at start-up, so that a service
 * used only through the current API pays nothing for it.
 */
export interface LegacyState {
  view: CompanyView;
  sections: AxisSectionStore;
  users: UserStore;
  time: TimeStore;
}

export function createLegacyState(ctx: DirectoryContext): LegacyState {
  const view = new CompanyView(ctx.company);
  const sections = new AxisSectionStore(view);
  const users = new UserStore(view, sections);
  return {
    view,
    sections,
    users,
    time: new TimeStore(view, sections, users),
  };
}

export function registerLegacyApi(target: Router, ctx: DirectoryContext): void {
  let state: LegacyState | null = null;
  const get = () => (state ??= createLegacyState(ctx));
  // the legacy API matches its paths whatever their case (`/api/v3/axissections`, as its own guides write it)
  const router: Router = Object.create(target, {
    add: { value: (method: string, pattern: string, handler: Handler, options?: RouteOptions) => target.add(method, pattern, handler, { ...options, ignoreCase: true }) },
  });
  registerUserRoutes(router, get);
  // gone since September 2026: 410 (departments.ts)
  registerDepartmentRoutes(router);
  registerWorkContractRoutes(router, get);
  registerEstablishmentRoutes(router, get);
  registerTimeEntryRoutes(router, get);
  registerAxisSectionRoutes(router, get);
}
