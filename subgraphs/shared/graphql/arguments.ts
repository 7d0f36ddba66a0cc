import { MAX_FILTER_VALUES } from "../upstream/index.js";
import { badUserInput } from "./connection.js";

/**
 * Checks of filter arguments shared by the subgraphs, made before any upstream call so that a bad
 * filter is the caller's BAD_USER_INPUT naming the argument, never an upstream 400.
 */

/**
 * A list-valued filter: at most 100 entries (docs/interface.md#conventions). An empty list is refused unless the
 * subgraph gives it a meaning (`allowEmpty`: it then matches nothing).
 */
export function checkFilterList(values: readonly unknown[], field: string, options: { allowEmpty?: boolean } = {}): void {
  if (values.length === 0 && !options.allowEmpty) {
    throw badUserInput(`${field} must not be an empty list (omit it to not filter)`, field);
  }
  if (values.length > MAX_FILTER_VALUES) {
    throw badUserInput(`${field} takes at most ${MAX_FILTER_VALUES} entries, got ${values.length}`, field);
  }
}

/** A name search (docs/interface.md#name-search): words delimited by space, `-`, `_`, comma and dot; at least one. */
export function checkSearchText(value: string, field: string, maxLength = 255): void {
  if (value.length > maxLength) throw badUserInput(`${field} must be at most ${maxLength} characters`, field);
  if (value.split(/[\s\-_,.]+/).every((word) => word === "")) throw badUserInput(`${field} must contain at least one word`, field);
}
