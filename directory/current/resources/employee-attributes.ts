import type { EmployeeAttribute, EmployeeAttributeDefinition, Id } from "../../data/model.js";
import { employeeVisible } from "../derived.js";
import { serializeEmployment } from "./employments.js";
import { idList, parseIsoDate, timestampRange } from "../filters.js";
import { serializeJobPosition } from "./job-positions.js";
import { ref } from "../refs.js";
import type { CurrentContext, FilterDef, ResourceDef, View } from "../resource.js";
import { byId } from "../../data/records.js";
import { perContext } from "../cache.js";
import { groupBy, jsonEquals, self, withLinks } from "./common.js";
import { serializeTaxonomyLabel } from "./taxonomy-labels.js";

/**
 * Employee attributes: one value of one definition for one employee, possibly from one of the
 * employee's employments or job positions and then limited in time to it.
 *
 * Value filters (docs/interface.md#employee-attribute): `value=<v>` keeps attributes whose value equals `<v>`, `-value=<v>`
 * the others; `value.<prop>=<v>` keeps object values whose property (a dotted path for nested
 * objects) equals `<v>`, `-value.<prop>=<v>` exactly the attributes that one would not keep. `<v>`
 * is read as JSON when it parses (`42`, `true`, `"42"`, `{"a":1}`), else as a plain string
 * (`M` = `"M"`), and compared structurally.
 */

const attributesById = perContext((ctx) => byId(ctx.company.employeeAttributes));
const byDefinition = perContext((ctx) => groupBy(ctx.company.employeeAttributes, (r) => r.definitionId));
const byEmployee = perContext((ctx) => groupBy(ctx.company.employeeAttributes, (r) => r.employeeId));
const definitionsById = perContext((ctx) => byId(ctx.company.attributeDefinitions));
const labelsById = perContext((ctx) => byId(ctx.company.taxonomyLabels));

export function serializeAttributeDefinition(d: EmployeeAttributeDefinition, view: View): Record<string, unknown> {
  return {
    ...self(view, "employee-attribute-definition", "employee-attribute-definitions", d.id),
    name: d.name,
    multipleValueHandling: d.multipleValueHandling,
    taxonomy: ref(view, "taxonomy", "taxonomies", d.taxonomyId),
    schema: d.schema,
    propertyDescriptions: d.propertyDescriptions,
    t9n: d.t9n,
    createdAt: d.createdAt,
    lastUpdatedAt: d.lastUpdatedAt,
    isArchived: d.isArchived,
    lastArchivedAt: d.lastArchivedAt,
  };
}

export function serializeEmployeeAttribute(r: EmployeeAttribute, view: View): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...self(view, "employee-attribute", "employee-attributes", r.id),
    definition: ref(view, "employee-attribute-definition", "employee-attribute-definitions", r.definitionId),
    employee: ref(view, "employee", "employees", r.employeeId),
  };
  // present only when the attribute originates from one: the interface gives the whole object
  const employment = r.employmentId === null ? undefined : view.ctx.lookup.employments.get(r.employmentId);
  if (employment) body.employment = serializeEmployment(employment, view);
  const jobPosition = r.jobPositionId === null ? undefined : view.ctx.lookup.jobPositions.get(r.jobPositionId);
  if (jobPosition) body.jobPosition = serializeJobPosition(jobPosition, view);
  body.applicability = r.applicability;
  body.value = r.value;
  body.createdAt = r.createdAt;
  body.lastUpdatedAt = r.lastUpdatedAt;
  return withLinks(view, body, () => ({}));
}

/**
 * The taxonomy labels an attribute's value names: a label id, an object with an `id`, or a list
 * of those, for a definition bound to a taxonomy. Ids of other taxonomies are not labels of it.
 */
function labelIds(r: EmployeeAttribute, ctx: CurrentContext): Id[] {
  const definition = definitionsById(ctx).get(r.definitionId);
  if (!definition || definition.taxonomyId === null) return [];
  const labels = labelsById(ctx);
  const ids: Id[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === "string") ids.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (typeof v === "object" && v !== null && typeof (v as { id?: unknown }).id === "string") ids.push((v as { id: string }).id);
  };
  collect(r.value);
  return [...new Set(ids)].filter((id) => labels.get(id)?.taxonomyId === definition.taxonomyId);
}

/** `<v>` of the value filters: JSON when it parses, else the text itself. */
export function parseFilterValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The property at `path` of an object value; `found` is false when there is none. */
function propertyAt(value: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current) || !Object.prototype.hasOwnProperty.call(current, key)) {
      return { found: false };
    }
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

function valueFilter(path: readonly string[], negate: boolean): FilterDef<EmployeeAttribute> {
  return {
    parse: (raw) => parseFilterValue(raw),
    matches(r, expected) {
      const at = path.length === 0 ? { found: true, value: r.value } : propertyAt(r.value, path);
      const equal = at.found && jsonEquals(at.value, expected);
      return negate ? !equal : equal;
    },
  };
}

const asOf: FilterDef<EmployeeAttribute> = {
  parse: (raw, param) => parseIsoDate(raw, param),
  matches(r, date) {
    const a = r.applicability;
    if (a === null) return true;
    return (a.start === null || a.start <= (date as string)) && (a.end === null || (date as string) <= a.end);
  },
};

const VALUE_PROPERTY = /^(-?)value\.(.+)$/;

/** Scalars sort by themselves (numbers before text, as the engine orders them); others by their JSON. */
function valueSortKey(r: EmployeeAttribute): string | number | null {
  const v = r.value;
  if (v === null || v === undefined) return null;
  if (typeof v === "number" || typeof v === "string") return v;
  return JSON.stringify(v);
}

export const employeeAttributes: ResourceDef<EmployeeAttribute> = {
  collection: "employee-attributes",
  type: "employee-attribute",
  scope: "employee-attributes",
  records: (ctx) => ctx.company.employeeAttributes,
  byId: (id, ctx) => attributesById(ctx).get(id),
  visible: (r, caller, ctx) => employeeVisible(r.employeeId, caller, ctx),
  serialize: serializeEmployeeAttribute,
  embeddables: {
    "employee-attribute-definition": (r, view) => {
      const definition = definitionsById(view.ctx).get(r.definitionId);
      return [definition ? { id: definition.id, representation: serializeAttributeDefinition(definition, view) } : null];
    },
    "taxonomy-label": (r, view) => {
      const labels = labelsById(view.ctx);
      return labelIds(r, view.ctx).map((id) => ({ id, representation: serializeTaxonomyLabel(labels.get(id)!, view) }));
    },
  },
  filters: {
    id: idList((r) => r.id),
    "definition.id": idList((r) => r.definitionId, { index: byDefinition }),
    "employee.id": idList((r) => r.employeeId, { index: byEmployee }),
    "applicability.asOf": asOf,
    value: valueFilter([], false),
    "-value": valueFilter([], true),
    "lastUpdatedAt.between": timestampRange((r) => r.lastUpdatedAt),
  },
  dynamicFilter(param) {
    const m = VALUE_PROPERTY.exec(param);
    if (!m) return undefined;
    const path = m[2]!.split(".");
    // `value..a` or `value.a.` name no property: leave them unknown parameters (400)
    if (path.some((p) => p.length === 0)) return undefined;
    return valueFilter(path, m[1] === "-");
  },
  sorts: {
    createdAt: (r) => r.createdAt,
    value: valueSortKey,
    "definition.id": (r) => r.definitionId,
  },
};
