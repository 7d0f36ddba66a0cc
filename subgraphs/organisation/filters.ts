import { badUserInput, checkFilterList, checkSearchText } from "../shared/graphql/index.js";

/**
 * Checks of filter arguments, made before any upstream call so that a bad filter is a
 * BAD_USER_INPUT naming the argument rather than a round trip answered 400.
 */

/** A list of ids: at most 100, none empty, none containing the list separator. */
export function idList(values: readonly string[] | null | undefined, field: string): string[] | undefined {
  if (values === null || values === undefined) return undefined;
  checkFilterList(values, field);
  for (const value of values) {
    if (value.trim() === "") throw badUserInput(`${field} must not contain an empty id`, field);
    // the upstream joins list filters with commas, so a comma would split one id into two
    if (value.includes(",")) throw badUserInput(`${field} entries must not contain a comma, got "${value.slice(0, 40)}"`, field);
  }
  return [...new Set(values)];
}

/** Alpha-3 country codes (ISO 3166-1), upper case. */
export function countryCodeList(values: readonly string[] | null | undefined, field: string): string[] | undefined {
  const codes = idList(values, field);
  for (const code of codes ?? []) {
    if (!/^[A-Z]{3}$/.test(code)) throw badUserInput(`${field} entries must be ISO 3166-1 alpha-3 codes such as FRA, got "${code.slice(0, 40)}"`, field);
  }
  return codes;
}

/** Non-negative integers (job-qualification ranks). */
export function rankList(values: readonly number[] | null | undefined, field: string): number[] | undefined {
  if (values === null || values === undefined) return undefined;
  checkFilterList(values, field);
  for (const value of values) {
    if (!Number.isInteger(value) || value < 0) throw badUserInput(`${field} entries must be integers >= 0, got ${value}`, field);
  }
  return [...new Set(values)];
}

/** Name search: words separated by space, `-`, `_`, `,` or `.`; at least one word is needed. */
export function searchText(value: string | null | undefined, field: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  checkSearchText(value, field);
  return value.trim();
}

/** The id argument of a single read: identifiers have a minimum length of 1. */
export function requiredId(id: string, field = "id"): string {
  if (id === "") throw badUserInput(`${field} must not be empty`, field);
  return id;
}
