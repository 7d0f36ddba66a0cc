import { parseIsoDate } from "../data/calendar.js";
import type { Employment } from "../data/model.js";
import type { Router } from "../http/router.js";
import type { CompanyView } from "./company.js";
import { HIRING_TYPES, TEMPORARY_CONTRACT_GROUNDS, TERMINATION_REASONS, type Named } from "./reference.js";
import {
  existing,
  localDateTime,
  ok,
  parseBoolean,
  parseBoundedInt,
  parseIdList,
  rejectUnknownParams,
  resourceRoute,
  singleParam,
  wantsCount,
  withApiKey,
} from "./http.js";

/**
 * Legacy work contracts (`/directory/api/4.0/work-contracts`): one per employment, same id.
 *
 * - `ownerId` is the employee, `typeId` the employment template, `establishmentId` the
 *   establishment of the employment's first job position (the one its legal entity comes from),
 *   `spcId` the occupation category of its job position that applies today.
 * - Trial periods come from the employment's probationary period: `trialPeriodDays` counts the
 *   days from the start to `initialEndsOn` inclusive, `renewedTrialPeriodDays` those to
 *   `extendedEndsOn` (the initial length plus the renewal), `trialPeriodEndDate(2)` are those dates.
 * - `isApplicable` follows the applicable rule (ongoing today, else first upcoming, else last:
 *   docs/interface.md#applicable-employment-and-job-position).
 * - The list's `isArchived` filter: a contract is archived when it has ended and its owner has no
 *   employment today or to come (a deactivated employee's contracts); the ended contracts of a
 *   current employee stay active. The contract itself does not write it (docs/interface.md#legacy-work-contract).
 * - `authorId` is the manager of the first job position (else the owner), `lastModifierId` the
 *   manager of the job position that applies today (else the author).
 * - Hiring type, termination reason (ended contracts only) and temporary-contract ground
 *   (fixed-term templates only) are drawn per contract id from the reference lists of
 *   reference.ts, which `/directory/api/work-contract-<list>` serve whole (`{items: [{id, name}]}`).
 */

/** The reference lists the work contract's ids name, by their address (docs/decisions.md#legacy-api). */
export const WORK_CONTRACT_REFERENCE_LISTS: Readonly<Record<string, readonly Named[]>> = {
  "/directory/api/work-contract-hiring-types": HIRING_TYPES,
  "/directory/api/work-contract-termination-reasons": TERMINATION_REASONS,
  "/directory/api/work-contract-temporary-contract-grounds": TEMPORARY_CONTRACT_GROUNDS,
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
const MAX_LIST = 100;
const PARAMS = ["page", "limit", "fields.root", "ownerId", "isApplicable", "isArchived", "typeId", "establishmentId"];

export function representWorkContract(e: Employment, view: CompanyView): Record<string, unknown> {
  const rng = view.random(0xc0de).fork(Number(e.id));
  const positions = view.jobPositionsByEmployment.get(e.id) ?? [];
  const first = positions[0];
  const current = view.applicablePositionOf(e);
  const template = view.templates.get(e.templateId);
  const probation = view.probationByEmployment.get(e.id);
  const start = parseIsoDate(e.startDate);
  const daysTo = (end: string | null | undefined) => (end ? parseIsoDate(end) - start + 1 : null);
  const ended = e.endDate !== null && e.endDate < view.today;
  const authorId = first?.managerId ?? e.employeeId;
  return {
    id: Number(e.id),
    ownerId: Number(e.employeeId),
    externalId: e.remoteId,
    typeId: Number(e.templateId),
    startsOn: e.startDate,
    endsOn: e.endDate,
    isApplicable: view.isApplicable(e),
    establishmentId: first ? Number(first.businessEstablishmentId) : null,
    spcId: current ? Number(current.occupationCategoryId) : null,
    hiringTypeId: rng.int(1, HIRING_TYPES.length),
    terminationReasonId: ended ? rng.int(1, TERMINATION_REASONS.length) : null,
    trialPeriodDays: daysTo(probation?.initialEndsOn),
    renewedTrialPeriodDays: daysTo(probation?.extendedEndsOn),
    trialPeriodEndDate: probation?.initialEndsOn ?? null,
    trialPeriodEndDate2: probation?.extendedEndsOn ?? null,
    temporaryContractGroundId: template?.term === "fixed" ? rng.int(1, TEMPORARY_CONTRACT_GROUNDS.length) : null,
    internshipSupervisorId: template?.audience === "student" && first?.managerId ? Number(first.managerId) : null,
    authorId: Number(authorId),
    lastModifierId: Number(current?.managerId ?? authorId),
    createdAt: localDateTime(e.createdAt),
    lastModifiedAt: localDateTime(e.lastUpdatedAt),
  };
}

function isArchived(e: Employment, view: CompanyView): boolean {
  return e.endDate !== null && e.endDate < view.today && view.employeeStatus(e.employeeId) === "deactivated";
}

export function registerWorkContractRoutes(router: Router, state: () => { view: CompanyView }): void {
  router.get(
    "/directory/api/4.0/work-contracts/{id}",
    resourceRoute([], (id) => {
      const { view } = state();
      return ok(representWorkContract(existing(view.employments.get(String(id)), "Work contract", id), view));
    }),
  );
  router.get(
    "/directory/api/4.0/work-contracts",
    withApiKey((req) => {
      const q = req.query;
      rejectUnknownParams(q, PARAMS);
      const param = (name: string) => singleParam(q, name);
      const list = (name: string) => {
        const raw = param(name);
        return raw === undefined ? null : new Set(parseIdList(raw, name, MAX_LIST));
      };
      const page = param("page") === undefined ? 1 : parseBoundedInt(param("page")!, "page", 1, Number.MAX_SAFE_INTEGER);
      const limit = param("limit") === undefined ? DEFAULT_LIMIT : parseBoundedInt(param("limit")!, "limit", 0, MAX_LIMIT);
      const count = wantsCount(q);
      const owners = list("ownerId");
      const types = list("typeId");
      const establishments = list("establishmentId");
      const applicable = param("isApplicable") === undefined ? null : parseBoolean(param("isApplicable")!, "isApplicable");
      const archived = param("isArchived") === undefined ? null : parseBoolean(param("isArchived")!, "isArchived");

      const { view } = state();
      const candidates = owners
        ? [...owners].flatMap((owner) => view.employmentsByEmployee.get(String(owner)) ?? []).sort((a, b) => Number(a.id) - Number(b.id))
        : view.company.employments;
      const matching = candidates.filter((e) => {
        if (types && !types.has(Number(e.templateId))) return false;
        if (establishments) {
          const first = view.jobPositionsByEmployment.get(e.id)?.[0];
          if (!first || !establishments.has(Number(first.businessEstablishmentId))) return false;
        }
        if (applicable !== null && view.isApplicable(e) !== applicable) return false;
        if (archived !== null && isArchived(e, view) !== archived) return false;
        return true;
      });
      const offset = (page - 1) * limit;
      const items = matching.slice(offset, offset + limit).map((e) => representWorkContract(e, view));
      return ok(count ? { items, count: matching.length } : { items });
    }),
  );
  for (const [path, rows] of Object.entries(WORK_CONTRACT_REFERENCE_LISTS)) {
    router.get(
      path,
      withApiKey((req) => {
        rejectUnknownParams(req.query, []);
        return ok({ items: rows.map((r) => ({ id: r.id, name: r.name })) });
      }),
    );
  }
}
