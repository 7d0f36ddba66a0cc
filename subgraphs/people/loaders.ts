import type DataLoader from "dataloader";
import type { GraphQLResolveInfo } from "graphql";
import { connectionItems, fieldTypeName, readsReference, type EmbeddedPrime, type SubgraphContext } from "../shared/graphql/index.js";
import {
  adaptiveLoader,
  followPages,
  groupedLoader,
  keyedLoader,
  listByIdsLoader,
  loadEvery,
  MAX_FILTER_VALUES,
  nextPageCursor,
  singleReadLoader,
  type QueryParams,
  type UpstreamSession,
} from "../shared/upstream/index.js";
import type {
  RestEmployee,
  RestEmployeeAttribute,
  RestEmployeeAttributeDefinition,
  RestEmployeePersonalRecord,
  RestEmployment,
  RestJobPosition,
  RestPortrait,
  RestProbationaryPeriod,
} from "./rest.js";
import { taxonomyLabelIds, type EmbeddedLabel } from "./employee-attribute/taxonomy-labels.js";
import { readsPortraitAddress } from "./employee/portrait-selection.js";

/**
 * The request's loaders of the people subgraph, by name. Every loader lives in the request's
 * registry (`ctx.loaders`) and dies with it; the contract is the one of
 * subgraphs/shared/upstream/loaders.ts (ids in, entities or null out, in order).
 *
 * Which upstream call backs which loader:
 * - employees, employments, job positions: the list with an `id` filter, one call per 100 ids;
 * - employee attributes: the list with an `id` filter too, with the embedded definitions when the
 *   operation reads more of a definition than its id (the interface has no other source of them);
 * - personal records and probationary periods: their lists have no `id` filter, so a reference by
 *   id is a single read (bounded concurrency); by parent they are one list call per 100 parents.
 * The one-to-many edges served as connections (an employee's employments, a department's
 * members) are in edges.ts.
 */

export const employeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employee", () => listByIdsLoader<RestEmployee>(ctx.upstream, "/employees"));

/**
 * Employees with their `links` (`include=links`), for the portrait's file address
 * (employee/portrait.ts): one call per 100 employees, made only when an operation reads it.
 */
export const employeeWithLinksLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employeeWithLinks", () => listByIdsLoader<RestEmployee>(ctx.upstream, "/employees", { query: { include: "links" } }));

/**
 * The loader an employee reference under this field reads through: with links when a portrait
 * address is read below it, so that the address costs no second read of the same employees.
 */
export function employeeLoaderFor(ctx: SubgraphContext, info: GraphQLResolveInfo) {
  return readsPortraitAddress(info) ? employeeWithLinksLoader(ctx) : employeeLoader(ctx);
}

/** The order of an employee's job positions: `Employee.jobPositions` (edges.ts) and its prefetch below. */
export const EMPLOYEE_JOB_POSITIONS_ORDER = "startsOn";

/**
 * Every job position of an employee (`job-positions?employment.employee.id=`, by start date, the
 * order of `Employee.jobPositions`), one call per 100 employees: what `employee(id)` prefetches.
 */
export const jobPositionsByEmployeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("jobPositionsByEmployee", () =>
    groupedLoader<RestJobPosition>(ctx.upstream, "/job-positions", "employment.employee.id", (p) => p.employee?.id, { sort: EMPLOYEE_JOB_POSITIONS_ORDER }),
  );

export const employmentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("employment", () => listByIdsLoader<RestEmployment>(ctx.upstream, "/employments"));

export const jobPositionLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("jobPosition", () => listByIdsLoader<RestJobPosition>(ctx.upstream, "/job-positions"));

export const personalRecordLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("personalRecord", () =>
    singleReadLoader<RestEmployeePersonalRecord>(ctx.upstream, (id) => `/employee-personal-records/${encodeURIComponent(id)}`),
  );

/** An employee's personal record: `links.personalRecord` is the list filtered by `employee.id`. */
export const personalRecordsByEmployeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("personalRecordsByEmployee", () =>
    groupedLoader<RestEmployeePersonalRecord>(ctx.upstream, "/employee-personal-records", "employee.id", (r) => r.employee?.id),
  );

export const probationaryPeriodLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("probationaryPeriod", () =>
    singleReadLoader<RestProbationaryPeriod>(ctx.upstream, (id) => `/probationary-periods/${encodeURIComponent(id)}`),
  );

/**
 * Portraits' metadata (`GET /portraits[/{id}]`, employee/portrait.ts): the list has no `id` filter.
 * Single reads alone (as personal records are read by id) would cost one call per portrait, and a
 * page of 100 employees' portraits would pass the request's call budget; so the shared adaptive
 * loader: one id is one single read, more ids the first list page, then the cheaper of single reads
 * for the ones still missing or the remaining pages (docs/performance.md#batching-rules).
 */
export const portraitLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("portrait", () => adaptiveLoader<RestPortrait>(ctx.upstream, { list: "/portraits", single: (id) => `/portraits/${encodeURIComponent(id)}` }));

export const PROBATION_ORDER = { sort: "startsOn" } as const;

export const probationaryPeriodsByEmploymentLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("probationaryPeriodsByEmployment", () =>
    groupedLoader<RestProbationaryPeriod>(ctx.upstream, "/probationary-periods", "employment.id", (p) => p.employment?.id, PROBATION_ORDER),
  );

/**
 * An employee's probationary periods through `employment.employee.id`. A period names only its
 * employment, so with several employees in one batch the periods are grouped back through the
 * employment loader (one call per 100 employments, shared with the rest of the operation); a
 * batch of one employee needs no grouping.
 */
export const probationaryPeriodsByEmployeeLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get("probationaryPeriodsByEmployee", () =>
    keyedLoader<string, RestProbationaryPeriod[]>(
      async (employeeIds) => {
        const periods = await ctx.upstream.current.allByValues<RestProbationaryPeriod>(
          "/probationary-periods",
          "employment.employee.id",
          employeeIds,
          PROBATION_ORDER,
        );
        const groups = new Map<string, RestProbationaryPeriod[]>(employeeIds.map((id) => [id, []]));
        if (employeeIds.length === 1) {
          groups.set(employeeIds[0]!, periods);
          return groups;
        }
        const employments = await loadEvery(employmentLoader(ctx), [...new Set(periods.map((p) => p.employment.id))]);
        const employeeOf = new Map<string, string>();
        for (const employment of employments) if (employment) employeeOf.set(employment.id, employment.employee.id);
        for (const period of periods) groups.get(employeeOf.get(period.employment.id) ?? "")?.push(period);
        return groups;
      },
      { maxBatchSize: MAX_FILTER_VALUES },
    ),
  );

// ---- employee attributes ----

/**
 * An attribute with its definition when the upstream embedded it, and then the ids of the
 * taxonomy labels its value names (employee-attribute/taxonomy-labels.ts; null: the definition has
 * no taxonomy).
 */
export type AttributeNode = RestEmployeeAttribute & { definitionDetails?: RestEmployeeAttributeDefinition | null; labelIds?: string[] | null };

const DEFINITION_TYPE = "employee-attribute-definition";
const LABEL_TYPE = "taxonomy-label";

/**
 * Every page of an attribute list, with the embedded definitions when `embed` is set. Pages are
 * read one after another (`followPages`): the next page's cursor comes with the previous one.
 */
async function readAttributes(session: UpstreamSession, query: QueryParams, embed: boolean): Promise<AttributeNode[]> {
  const out: AttributeNode[] = [];
  const pages = followPages("/employee-attributes", null, async (page) => {
    const envelope = await session.current.page<RestEmployeeAttribute>("/employee-attributes", {
      ...query,
      limit: MAX_FILTER_VALUES,
      ...(embed ? { include: "embedded" } : {}),
      ...(page ? { page } : {}),
    });
    return { page: envelope, next: nextPageCursor(envelope) };
  });
  for await (const { page } of pages) out.push(...attributeNodes(page.items, embed ? page.embedded : undefined));
  return out;
}

/** Attaches the embedded definitions (keyed by type then id) and the labels their values name to their attributes. */
function attributeNodes(items: readonly RestEmployeeAttribute[], embedded: Record<string, Record<string, unknown>> | undefined): AttributeNode[] {
  if (embedded === undefined) return [...items];
  const definitions = (embedded[DEFINITION_TYPE] ?? {}) as Record<string, RestEmployeeAttributeDefinition>;
  const labels = (embedded[LABEL_TYPE] ?? {}) as Record<string, EmbeddedLabel>;
  return items.map((item) => {
    const definitionDetails = definitions[item.definition.id] ?? null;
    return { ...item, definitionDetails, labelIds: taxonomyLabelIds(item.value, definitionDetails, labels) };
  });
}

export const attributeLoader = (ctx: SubgraphContext, embed: boolean): DataLoader<string, AttributeNode | null> =>
  ctx.loaders.get(`employeeAttribute:${embed}`, () =>
    keyedLoader<string, AttributeNode>(
      async (ids) => {
        const listable = ids.filter((id) => id !== "" && !id.includes(","));
        const items = listable.length > 0 ? await readAttributes(ctx.upstream, { id: listable }, embed) : [];
        return new Map(items.map((item) => [item.id, item]));
      },
      { maxBatchSize: MAX_FILTER_VALUES },
    ),
  );

/**
 * An employee's attributes, one call per 100 employees. `query` holds the attribute filters
 * other than the employee (definition ids, `applicability.asOf`), already validated.
 */
export const attributesByEmployeeLoader = (ctx: SubgraphContext, query: Record<string, string>, embed: boolean) =>
  ctx.loaders.get(`attributesByEmployee:${embed}:${JSON.stringify(query)}`, () =>
    keyedLoader<string, AttributeNode[]>(
      async (employeeIds) => {
        const listable = employeeIds.filter((id) => id !== "" && !id.includes(","));
        const items = listable.length > 0 ? await readAttributes(ctx.upstream, { ...query, "employee.id": listable }, embed) : [];
        const groups = new Map<string, AttributeNode[]>(listable.map((id) => [id, []]));
        for (const item of items) groups.get(item.employee.id)?.push(item);
        return groups;
      },
      { maxBatchSize: MAX_FILTER_VALUES },
    ),
  );

// ---- embedded prefetch (docs/performance.md#batching-rules) ----

/** A job position's graph fields that read REST members of other names. */
const JOB_POSITION_MEMBERS = { jobTitle: ["jobTitle", "t9n"], jobTitleTranslations: ["t9n"] } as const;
/** An employment's graph fields that read REST members of other names. */
const EMPLOYMENT_MEMBERS = { startsOn: ["start"], endsOn: ["end"] } as const;

/**
 * What an employee list asks embedded (`include=embedded` on `/employees`): each employee's
 * applicable job position and employment, when the operation reads them beyond their id under
 * the list's items; they prime the job-position and employment loaders, so that the positions'
 * titles, managers and departments need no `/job-positions?id=` round. None: nothing embedded.
 */
export function employeeListEmbeds(ctx: SubgraphContext, info: GraphQLResolveInfo): EmbeddedPrime[] {
  const items = connectionItems(info);
  if (items.typeName === null || ctx.mechanismsOff?.has("embedded-priming")) return [];
  const out: EmbeddedPrime[] = [];
  const position = fieldTypeName(info.schema, items.typeName, "applicableJobPosition");
  if (position && readsReference(items.selections, info, "applicableJobPosition")) {
    out.push({ restType: "job-position", graphType: position, members: JOB_POSITION_MEMBERS, prime: (entries) => jobPositionLoader(ctx).primeEntries(entries as Array<[string, RestJobPosition]>) });
  }
  const employment = fieldTypeName(info.schema, items.typeName, "applicableEmployment");
  if (employment && readsReference(items.selections, info, "applicableEmployment")) {
    out.push({ restType: "employment", graphType: employment, members: EMPLOYMENT_MEMBERS, prime: (entries) => employmentLoader(ctx).primeEntries(entries as Array<[string, RestEmployment]>) });
  }
  return out;
}

/** The applicable job position of an employee, through the job-position loader. */
export async function applicableJobPositionOf(ctx: SubgraphContext, employee: RestEmployee): Promise<RestJobPosition | null> {
  const ref = employee.applicableJobPosition;
  return ref ? jobPositionLoader(ctx).load(ref.id) : null;
}

/** The applicable employment of an employee, through the employment loader. */
export async function applicableEmploymentOf(ctx: SubgraphContext, employee: RestEmployee): Promise<RestEmployment | null> {
  const ref = employee.applicableEmployment;
  return ref ? employmentLoader(ctx).load(ref.id) : null;
}
