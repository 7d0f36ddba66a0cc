import { checkFilterList, checkSearchText } from "./arguments.js";
import type { DateRange } from "./common-types.js";
import { badUserInput } from "../../../platform/user-input.js";

/**
 * Filter inputs → REST query parameters, the one way for every subgraph: validated before any
 * upstream call so that a bad filter is the caller's BAD_USER_INPUT naming the argument
 * (`filter.ids`) and never an upstream 400.
 */

type Query = Record<string, string>;

/**
 * Builds the REST query of one list from its GraphQL filter. `argument` names the argument in
 * error messages (`filter.ids`), so that a caller sees which input was wrong.
 */
export class RestFilter {
  readonly query: Query = {};

  /**
   * Set when a list filter can match nothing (an empty list where `allowEmpty` lets it through,
   * or only entries `keep` drops): the caller answers an empty list without any upstream call.
   */
  matchesNothing = false;

  constructor(private readonly argument = "filter") {}

  private name(field: string): string {
    return this.argument === "" ? field : `${this.argument}.${field}`;
  }

  private checkList(field: string, values: readonly unknown[], allowEmpty = false): void {
    checkFilterList(values, this.name(field), { allowEmpty });
    if (values.length === 0) this.matchesNothing = true;
  }

  /** Refuses a range whose start comes after its end. */
  private checkOrder(field: string, from: string | null, to: string | null): void {
    if (from !== null && to !== null && from > to) {
      throw badUserInput(`${this.name(field)} starts (${from}) after it ends (${to})`, this.name(field));
    }
  }

  /**
   * A list of strings. With `nullLiteral`, a null entry asks for the items without a value
   * (the REST literal `null`). A comma cannot be sent inside a comma-separated entry. With
   * `allowEmpty`, an empty list matches nothing instead of being refused; `keep` drops the entries
   * that cannot name anything (legacy ids), and a list left empty matches nothing.
   */
  strings(
    param: string,
    field: string,
    values: ReadonlyArray<string | null> | null | undefined,
    options: {
      nullLiteral?: boolean;
      minLength?: number;
      maxLength?: number;
      pattern?: { test: RegExp; description: string };
      allowEmpty?: boolean;
      keep?: (value: string) => boolean;
    } = {},
  ): this {
    if (values === undefined || values === null) return this;
    this.checkList(field, values, options.allowEmpty);
    const keep = options.keep;
    const kept = keep ? values.filter((value) => value === null || keep(value)) : values;
    if (kept.length === 0) {
      this.matchesNothing = true;
      return this;
    }
    const min = Math.max(1, options.minLength ?? 1);
    const entries = kept.map((value) => {
      if (value === null) {
        if (!options.nullLiteral) throw badUserInput(`${this.name(field)} must not contain null`, this.name(field));
        return "null";
      }
      if (value.length < min) {
        const rule = min === 1 ? "must not be empty" : `must be at least ${min} characters long`;
        throw badUserInput(`${this.name(field)} entries ${rule}`, this.name(field));
      }
      if (options.maxLength !== undefined && value.length > options.maxLength) {
        throw badUserInput(`${this.name(field)} entries must be at most ${options.maxLength} characters long`, this.name(field));
      }
      if (options.pattern && !options.pattern.test.test(value)) {
        throw badUserInput(`${this.name(field)} entries must be ${options.pattern.description}, got "${value.slice(0, 40)}"`, this.name(field));
      }
      if (value.includes(",")) throw badUserInput(`${this.name(field)} entries must not contain a comma`, this.name(field));
      return value;
    });
    this.query[param] = [...new Set(entries)].join(",");
    return this;
  }

  /** A list of enum values (already REST values through the enum's internal values). */
  enums(param: string, field: string, values: readonly string[] | null | undefined): this {
    if (values === undefined || values === null) return this;
    this.checkList(field, values);
    this.query[param] = [...new Set(values)].join(",");
    return this;
  }

  /** Integers of at least `min` (job-qualification ranks, axis ids); with `allowEmpty`, an empty list matches nothing. */
  integers(param: string, field: string, values: readonly number[] | null | undefined, min = 0, options: { allowEmpty?: boolean } = {}): this {
    if (values === undefined || values === null) return this;
    this.checkList(field, values, options.allowEmpty);
    if (values.length === 0) return this;
    for (const value of values) {
      if (!Number.isInteger(value) || value < min) throw badUserInput(`${this.name(field)} entries must be integers >= ${min}, got ${value}`, this.name(field));
    }
    this.query[param] = [...new Set(values)].join(",");
    return this;
  }

  /** A search text: at most `maxLength` characters and at least one word; with `trim`, sent trimmed. */
  search(param: string, field: string, value: string | null | undefined, options: { maxLength?: number; trim?: boolean } = {}): this {
    if (value === undefined || value === null) return this;
    checkSearchText(value, this.name(field), options.maxLength ?? 255);
    this.query[param] = options.trim ? value.trim() : value;
    return this;
  }

  /**
   * A date equality. With `nullLiteral`, an explicit null asks for the items without that date;
   * an absent field does not filter.
   */
  date(param: string, field: string, value: string | null | undefined, options: { nullLiteral?: boolean } = {}): this {
    if (value === undefined) return this;
    if (value === null) {
      if (options.nullLiteral) this.query[param] = "null";
      return this;
    }
    this.query[param] = value;
    return this;
  }

  /**
   * A date range as `<from>--<to>`, `..` for an open bound. A range with neither bound (`{}`) is
   * open at both ends: it does not filter (`..--..` would be sent as a filter the directory does
   * not read as "everything"). `legacyRange` reads it the same way.
   */
  range(param: string, field: string, range: DateRange | null | undefined): this {
    const from = range?.from ?? null;
    const to = range?.to ?? null;
    if (from === null && to === null) return this;
    this.checkOrder(field, from, to);
    this.query[param] = `${from ?? ".."}--${to ?? ".."}`;
    return this;
  }

  /**
   * A date or date-time range as the legacy API's comparator: `between,<from>,<to>`,
   * `since,<from>` or `until,<to>`; a range with neither bound does not filter.
   */
  legacyRange(param: string, field: string, range: { from?: string | null; to?: string | null } | null | undefined): this {
    const from = range?.from || null;
    const to = range?.to || null;
    if (from === null && to === null) return this;
    this.checkOrder(field, from, to);
    this.query[param] = from !== null && to !== null ? `between,${from},${to}` : from !== null ? `since,${from}` : `until,${to}`;
    return this;
  }

  /**
   * A text matched exactly: not blank, at most `maxLength` characters. With `partialWith` (the
   * legacy API reads `like,<text>` as a partial match), a value starting with `like,` is refused
   * and the caller is pointed to the field that does partial matches.
   */
  text(param: string, field: string, value: string | null | undefined, options: { maxLength?: number; partialWith?: string } = {}): this {
    if (value === undefined || value === null) return this;
    this.query[param] = this.checkText(field, value, options.maxLength);
    if (options.partialWith !== undefined && value.toLowerCase().startsWith("like,")) {
      throw badUserInput(`${this.name(field)}: use ${options.partialWith} for a partial match`, this.name(field));
    }
    return this;
  }

  /** A part of a text, whatever its case: the legacy comparator `like,<text>`, with `text`'s rules. */
  like(param: string, field: string, value: string | null | undefined, options: { maxLength?: number } = {}): this {
    if (value === undefined || value === null) return this;
    this.query[param] = `like,${this.checkText(field, value, options.maxLength)}`;
    return this;
  }

  private checkText(field: string, value: string, maxLength = 255): string {
    if (value.trim() === "" || value.length > maxLength) throw badUserInput(`${this.name(field)} must be 1 to ${maxLength} characters`, this.name(field));
    return value;
  }

  /** Refuses two or more of `fields` (name → value) given together: they ask for the same REST parameter. */
  atMostOne(fields: Record<string, unknown>): this {
    const given = Object.entries(fields).filter(([, value]) => value !== undefined && value !== null).map(([name]) => this.name(name));
    if (given.length > 1) throw badUserInput(`${given.join(" and ")} cannot be given together`, given[0]!);
    return this;
  }

  boolean(param: string, value: boolean | null | undefined): this {
    if (value === undefined || value === null) return this;
    this.query[param] = String(value);
    return this;
  }

  /** One plain value, sent as given. */
  value(param: string, value: string | null | undefined): this {
    if (value === undefined || value === null) return this;
    this.query[param] = value;
    return this;
  }
}

/**
 * The REST `sort` parameter from a list of sort enum values whose internal values are REST sort
 * instructions (`familyName`, `-familyName`). A key sorted on twice is refused: the upstream
 * would answer 400.
 */
export function restSort(sort: readonly string[] | null | undefined, argument = "sort"): Query {
  if (sort === undefined || sort === null || sort.length === 0) return {};
  const keys = sort.map((s) => s.replace(/^-/, ""));
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i);
  if (repeated !== undefined) throw badUserInput(`${argument} names the key "${repeated}" more than once`, argument);
  return { sort: sort.join(",") };
}

/** The id argument of a single read: identifiers have a minimum length of 1. */
export function requiredId(id: string, field = "id"): string {
  if (id === "") throw badUserInput(`${field} must not be empty`, field);
  return id;
}

/** ISO 3166-1 alpha-3 country codes (`FRA`), for `RestFilter.strings`' `pattern`. */
export const ALPHA3_COUNTRY_CODE = { test: /^[A-Z]{3}$/, description: "ISO 3166-1 alpha-3 codes such as FRA" };
