import type { RestEmployeeAttributeDefinition } from "../rest.js";

/**
 * Which taxonomy labels an attribute's value names (`EmployeeAttribute.taxonomyLabels`). The
 * interface links a definition to a taxonomy (`taxonomy`, docs/interface.md#employee-attribute-definition)
 * and embeds the labels an attribute list names (`taxonomy-label`, docs/interface.md#employee-attribute),
 * but does not spell out the value's shape; the rule the graph applies:
 *
 * - a definition without a taxonomy names no labels: the field is null;
 * - a string value is a label id; an object value with a string `id` names that label; a list
 *   value (what `multipleValueHandling` allows: several values in one) names each of its entries by
 *   the same two rules; anything else (numbers, booleans, other objects) names none;
 * - of those ids, only the labels embedded with the same read whose `taxonomy` is the definition's
 *   count: an id that is no label, a label of another taxonomy, or one the caller may not read is
 *   left out, so that every reference the graph returns resolves;
 * - each label once, in the value's order.
 */

/** An embedded taxonomy label, as much of it as the rule reads. */
export interface EmbeddedLabel {
  taxonomy?: { id: string } | null;
}

export function taxonomyLabelIds(
  value: unknown,
  definition: RestEmployeeAttributeDefinition | null,
  labels: Readonly<Record<string, EmbeddedLabel>>,
): string[] | null {
  const taxonomy = definition?.taxonomy?.id;
  if (taxonomy === undefined) return null;
  const named: string[] = [];
  const collect = (v: unknown, nested: boolean): void => {
    if (typeof v === "string") named.push(v);
    else if (Array.isArray(v) && !nested) v.forEach((entry) => collect(entry, true));
    else if (typeof v === "object" && v !== null && typeof (v as { id?: unknown }).id === "string") named.push((v as { id: string }).id);
  };
  collect(value, false);
  return [...new Set(named)].filter((id) => Object.prototype.hasOwnProperty.call(labels, id) && labels[id]?.taxonomy?.id === taxonomy);
}
