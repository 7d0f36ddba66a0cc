import type { Employment, ProbationaryPeriod } from "../../data/model.js";
import { booleanFilter, dateRange, idList } from "../filters.js";
import { ref } from "../refs.js";
import type { CurrentContext, ResourceDef, View } from "../resource.js";
import { employeeVisible } from "../derived.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { groupBy, self, withLinks } from "./common.js";

const periodsById = perContext((ctx) => byId(ctx.company.probationaryPeriods));
const byEmployment = perContext((ctx) => groupBy(ctx.company.probationaryPeriods, (r) => r.employmentId));
const byEmployee = perContext((ctx) => groupBy(ctx.company.probationaryPeriods, (r) => ctx.lookup.employments.get(r.employmentId)?.employeeId));

function employmentOf(r: ProbationaryPeriod, ctx: CurrentContext): Employment | undefined {
  return ctx.lookup.employments.get(r.employmentId);
}

/** Read-only: a probationary period starts with its employment. */
function startsOn(r: ProbationaryPeriod, ctx: CurrentContext): string | null {
  return employmentOf(r, ctx)?.startDate ?? null;
}

/** Read-only: an extension replaces the initial end. */
function endsOn(r: ProbationaryPeriod): string {
  return r.extendedEndsOn ?? r.initialEndsOn;
}

export function serializeProbationaryPeriod(r: ProbationaryPeriod, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "probationary-period", "probationary-periods", r.id),
      employment: ref(view, "employment", "employments", r.employmentId),
      startsOn: startsOn(r, view.ctx),
      endsOn: endsOn(r),
      initialEndsOn: r.initialEndsOn,
      extendedEndsOn: r.extendedEndsOn,
      createdAt: r.createdAt,
      lastUpdatedAt: r.lastUpdatedAt,
    },
    () => ({}),
  );
}

export const probationaryPeriods: ResourceDef<ProbationaryPeriod> = {
  collection: "probationary-periods",
  type: "probationary-period",
  scope: "probationary-periods",
  records: (ctx) => ctx.company.probationaryPeriods,
  byId: (id, ctx) => periodsById(ctx).get(id),
  visible: (r, caller, ctx) => {
    const employment = employmentOf(r, ctx);
    return employment !== undefined && employeeVisible(employment.employeeId, caller, ctx);
  },
  serialize: serializeProbationaryPeriod,
  filters: {
    "employment.employee.id": idList((r, ctx) => employmentOf(r, ctx)?.employeeId, { index: byEmployee }),
    "employment.id": idList((r) => r.employmentId, { index: byEmployment }),
    "startsOn.between": dateRange(startsOn),
    "endsOn.between": dateRange(endsOn),
    "initialEndsOn.between": dateRange((r) => r.initialEndsOn),
    "extendedEndsOn.between": dateRange((r) => r.extendedEndsOn),
    isExtended: booleanFilter((r) => r.extendedEndsOn !== null),
  },
  sorts: {
    startsOn,
    endsOn,
  },
};
