import { MAX_IDS, badRequest, parseBoundedInt, parseIdList, rejectUnknownParams, singleParam } from "./http.js";
import { parseLocalDateTime } from "./validate.js";

/**
 * The query syntax the legacy API shares across its lists: comparator filters
 * (`since,<date-time>`, `until,…`, `between,<from>,<to>`, `notequal,…`, `like,…`, the literal
 * `null`), `paging=<offset>,<limit>`, `orderby=<field>,<asc|desc>` and `fields` with nested
 * selections (`id,manager[id,name]`, `collection.count`).
 */

/** A test on one value (a date-time text, an integer or a string; null when the item has none). */
export type ValueTest<T> = (value: T | null) => boolean;

/**
 * A date or date-time comparator: `<v>`, `since,<v>`, `until,<v>`, `between,<a>,<b>`,
 * `notequal,<v>`, `null`, `notequal,null`; `until,<v>,null` (or any form followed by `,null`)
 * also keeps the items without a value. A bare date as an upper bound covers its whole day.
 */
export function parseDateComparator(raw: string, name: string): ValueTest<string> {
  const parts = raw.split(",").map((p) => p.trim());
  let orNull = false;
  if (parts.length > 1 && parts[parts.length - 1] === "null" && parts[0] !== "notequal") {
    orNull = true;
    parts.pop();
  }
  const [op, ...args] = /^[a-z]+$/i.test(parts[0]!) && parts[0] !== "null" ? [parts[0]!.toLowerCase(), ...parts.slice(1)] : ["equal", ...parts];
  const bound = (text: string | undefined, end: boolean): string => {
    const parsed = parseLocalDateTime(text, true);
    if (!parsed.ok) throw badRequest(`'${name}' bound '${text ?? ""}' must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:mm:ss without offset.`);
    return end && text!.length === 10 ? `${text}T23:59:59` : parsed.value.text;
  };
  const expect = (count: number) => {
    if (args.length !== count) throw badRequest(`'${name}': '${op}' takes ${count} value${count > 1 ? "s" : ""}, got '${raw}'.`);
  };
  let test: ValueTest<string>;
  if (op === "equal" && args.length === 1 && args[0] === "null") test = (v) => v === null;
  else if (op === "notequal" && args.length === 1 && args[0] === "null") test = (v) => v !== null;
  else {
    switch (op) {
      case "equal": {
        expect(1);
        const from = bound(args[0], false);
        const to = bound(args[0], true);
        test = (v) => v !== null && v >= from && v <= to;
        break;
      }
      case "notequal": {
        expect(1);
        const from = bound(args[0], false);
        const to = bound(args[0], true);
        test = (v) => v === null || v < from || v > to;
        break;
      }
      case "since": {
        expect(1);
        const from = bound(args[0], false);
        test = (v) => v !== null && v >= from;
        break;
      }
      case "until": {
        expect(1);
        const to = bound(args[0], true);
        test = (v) => v !== null && v <= to;
        break;
      }
      case "between": {
        expect(2);
        const from = bound(args[0], false);
        const to = bound(args[1], true);
        if (from > to) throw badRequest(`'${name}' range is empty: ${args[0]} is after ${args[1]}.`);
        test = (v) => v !== null && v >= from && v <= to;
        break;
      }
      default:
        throw badRequest(`'${name}' must be <value>, since,<v>, until,<v>, between,<from>,<to>, notequal,<v> or null; got '${raw}'.`);
    }
  }
  return orNull ? (v) => v === null || test(v) : test;
}

/** An integer comparator: `<n>[,<n>…]` (any of), `notequal,<n>[,<n>…]` (none of). */
export function parseIntComparator(raw: string, name: string, max = MAX_IDS): ValueTest<number> {
  const parts = raw.split(",").map((p) => p.trim());
  const negate = parts[0]?.toLowerCase() === "notequal";
  const values = negate ? parts.slice(1) : parts;
  if (values.length === 0 || values.length > max) throw badRequest(`'${name}' takes 1 to ${max} integers, got '${raw}'.`);
  const set = new Set(values.map((v) => parseBoundedInt(v, name, 0, Number.MAX_SAFE_INTEGER)));
  return negate ? (v) => v === null || !set.has(v) : (v) => v !== null && set.has(v);
}

/** A string comparator: strict equality, or `like,<text>` (case-insensitive containment). */
export function parseStringComparator(raw: string, name: string): ValueTest<string> {
  if (raw.toLowerCase().startsWith("like,")) {
    const needle = raw.slice(5).toLowerCase();
    if (needle === "") throw badRequest(`'${name}': like needs a text, got '${raw}'.`);
    return (v) => v !== null && v.toLowerCase().includes(needle);
  }
  if (raw === "") throw badRequest(`'${name}' must not be empty.`);
  return (v) => v === raw;
}

/** `paging=<offset>,<limit>`; `maxLimit` is the largest page the list serves. */
export function parsePaging(raw: string | undefined, defaultLimit: number, maxLimit: number): { offset: number; limit: number } {
  if (raw === undefined) return { offset: 0, limit: defaultLimit };
  const parts = raw.split(",");
  if (parts.length !== 2) throw badRequest(`'paging' must be <offset>,<limit>, got '${raw}'.`);
  return {
    offset: parseBoundedInt(parts[0]!.trim(), "paging offset", 0, Number.MAX_SAFE_INTEGER),
    limit: parseBoundedInt(parts[1]!.trim(), "paging limit", 0, maxLimit),
  };
}

export interface Order {
  field: string;
  descending: boolean;
}

/** `orderby=<field>,<asc|desc>` (the name of the parameter is case-insensitive: `orderBy` too). */
export function parseOrderBy(query: URLSearchParams, allowed: readonly string[]): Order | null {
  const names = [...new Set(query.keys())].filter((k) => k.toLowerCase() === "orderby");
  if (names.length === 0) return null;
  if (names.length > 1) throw badRequest("'orderby' must be given once.");
  const raw = singleParam(query, names[0]!)!;
  const [field, direction = "asc", ...rest] = raw.split(",").map((p) => p.trim());
  const match = allowed.find((f) => f.toLowerCase() === field!.toLowerCase());
  if (!match || rest.length > 0 || !["asc", "desc"].includes(direction.toLowerCase())) {
    throw badRequest(`'orderby' must be <field>,<asc|desc> with a field among ${allowed.join(", ")}; got '${raw}'.`);
  }
  return { field: match, descending: direction.toLowerCase() === "desc" };
}

/** Compares two items on the ordered field, nulls first; ties by id. */
export function compareBy<T extends { id: number }>(order: Order, value: (item: T, field: string) => string | number | boolean | null) {
  return (a: T, b: T): number => {
    const va = value(a, order.field);
    const vb = value(b, order.field);
    let c = va === vb ? 0 : va === null ? -1 : vb === null ? 1 : va < vb ? -1 : 1;
    if (c === 0) c = a.id - b.id;
    return order.descending ? -c : c;
  };
}

/** A selection of fields: name -> nested selection (null when the whole value is wanted). */
export type Selection = Map<string, Selection | null>;

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** `a,b[c,d[e]],f` as a selection; a 400 on an unbalanced bracket or an empty name. */
export function parseSelection(raw: string, name = "fields"): Selection {
  let i = 0;
  const fail = (): never => {
    throw badRequest(`'${name}' must be a comma-separated list of field names, with nested selections in brackets (id,manager[id,name]); got '${raw}'.`);
  };
  const list = (): Selection => {
    const out: Selection = new Map();
    for (;;) {
      let start = i;
      while (i < raw.length && !",[]".includes(raw[i]!)) i++;
      const field = raw.slice(start, i).trim();
      if (!NAME.test(field)) fail();
      let nested: Selection | null = null;
      if (raw[i] === "[") {
        i++;
        nested = list();
        if (raw[i] !== "]") fail();
        i++;
      }
      out.set(field, nested);
      if (raw[i] === ",") {
        i++;
        start = i;
        continue;
      }
      return out;
    }
  };
  const selection = list();
  if (i !== raw.length) fail();
  return selection;
}

/** The part of a value a nested selection asks for (objects and arrays of objects). */
export function project(value: unknown, selection: Selection | null): unknown {
  if (selection === null || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => project(v, selection));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, nested] of selection) if (key in source) out[key] = project(source[key], nested);
  return out;
}

/** The parameters of a v3 list beside its filters: `paging`, `fields` and `orderby` in any case (`orderBy`). */
export function v3ListParams(query: URLSearchParams, filters: readonly string[]): string[] {
  return [...filters, "paging", "fields", ...[...new Set(query.keys())].filter((k) => k.toLowerCase() === "orderby")];
}

/**
 * `fields` of a v3 list: the item fields (null: the list's default items) and whether
 * `collection.count` is asked, the only collection field (docs/interface.md#legacy-list-conventions).
 */
export function parseListFields(raw: string | undefined): { selection: Selection | null; count: boolean } {
  if (raw === undefined) return { selection: null, count: false };
  const selection = parseSelection(raw);
  let count = false;
  for (const name of [...selection.keys()]) {
    if (!name.startsWith("collection.")) continue;
    if (name !== "collection.count") throw badRequest(`'fields': the only collection field is collection.count, got '${name}'.`);
    selection.delete(name);
    count = true;
  }
  return { selection, count };
}

/** Rejects a `fields` selection that names a field the items do not have. */
export function checkSelectedFields(selection: Selection | null, known: readonly string[], what: string): void {
  const unknown = selection === null ? [] : [...selection.keys()].filter((n) => !known.includes(n));
  if (unknown.length > 0) throw badRequest(`Unknown ${what} field${unknown.length > 1 ? "s" : ""} in 'fields': ${unknown.join(", ")}.`);
}

/**
 * The answer of a v3 list whose items are written whole and then projected (departments, axis
 * sections): `orderby` on one of `orderFields` (nulls first, ties by id; by id when absent),
 * `paging` (0,`maxLimit` by default), `fields` projecting each item (`collection.count` adds
 * `count`; alone, only the count is written).
 */
export function v3List(
  query: URLSearchParams,
  matching: readonly Record<string, unknown>[],
  options: { orderFields: readonly string[]; itemFields: readonly string[]; what: string; maxLimit: number },
): { data: { items?: unknown[]; count?: number } } {
  const { offset, limit } = parsePaging(singleParam(query, "paging"), options.maxLimit, options.maxLimit);
  const order = parseOrderBy(query, options.orderFields) ?? { field: "id", descending: false };
  const { selection, count } = parseListFields(singleParam(query, "fields"));
  checkSelectedFields(selection, options.itemFields, options.what);
  if (count && selection !== null && selection.size === 0) return { data: { count: matching.length } };
  const sorted = (matching as (Record<string, unknown> & { id: number })[]).slice().sort(compareBy(order, (item, field) => item[field] as string | number | boolean | null));
  const items = sorted.slice(offset, offset + limit).map((item) => project(item, selection));
  return { data: count ? { items, count: matching.length } : { items } };
}

/** A list's filter on one item: true when the item is kept. `ids`: the ids an id filter names (lists read only the owners they name). */
export interface ItemTest<T> {
  (item: T): boolean;
  ids?: ReadonlySet<number>;
}

/** A filter a legacy list declares: how its parameter is read into a test of an item (a 400 on a bad value). */
export type ListFilter<T> = (raw: string, name: string) => ItemTest<T>;

/** `<id>[,<id>…]`, at most `max`: the item's id (or the id it refers to) is one of them. */
export function idFilter<T>(get: (item: T) => number | null, max = MAX_IDS): ListFilter<T> {
  return (raw, name) => {
    const ids = new Set(parseIdList(raw, name, max));
    return Object.assign((item: T) => {
      const value = get(item);
      return value !== null && ids.has(value);
    }, { ids });
  };
}

/** A date comparator (parseDateComparator) on a date-time of the item. */
export function dateFilter<T>(get: (item: T) => string | null): ListFilter<T> {
  return (raw, name) => {
    const test = parseDateComparator(raw, name);
    return (item) => test(get(item));
  };
}

/** An integer comparator (parseIntComparator) on an integer of the item. */
export function intFilter<T>(get: (item: T) => number | null): ListFilter<T> {
  return (raw, name) => {
    const test = parseIntComparator(raw, name);
    return (item) => test(get(item));
  };
}

/**
 * The declared filters a list query sets, read in the order they are declared, as one test (`set`:
 * each one given, by name). A 400 names a parameter that is neither a filter nor one of `others`.
 */
export function listFilters<T>(query: URLSearchParams, filters: Record<string, ListFilter<T>>, others: readonly string[]): { matches: (item: T) => boolean; set: ReadonlyMap<string, ItemTest<T>> } {
  rejectUnknownParams(query, [...Object.keys(filters), ...others]);
  const set = new Map<string, ItemTest<T>>();
  for (const [name, filter] of Object.entries(filters)) {
    const raw = singleParam(query, name);
    if (raw !== undefined) set.set(name, filter(raw, name));
  }
  const tests = [...set.values()];
  return { matches: (item) => tests.every((test) => test(item)), set };
}
