import type { Id, IsoDate, IsoDateTime } from "../data/model.js";
import { fold, splitWords } from "../data/text.js";
import { perContext } from "./cache.js";
import { BadParameter, type CurrentContext, type FilterDef } from "./resource.js";

export { fold, splitWords };

/**
 * Builders of list filters (docs/interface.md#conventions: list-valued filters are comma-separated, at most 100
 * entries, each at least one character). Every builder that filters on a value also offers
 * `candidates`: an index from value to records, built lazily once per context, so that a
 * selective filter costs in proportion to its matches rather than to the size of the company.
 */

export const MAX_LIST_ENTRIES = 100;

type Getter<R, V> = (r: R, ctx: CurrentContext) => V | readonly V[] | null | undefined;

/** Index key of a null value, distinct from every string an index holds. */
const NULL_KEY = "\u0000null";

export function parseList(raw: string, param: string): string[] {
  const entries = raw.split(",").map((e) => e.trim());
  if (entries.length > MAX_LIST_ENTRIES) {
    throw new BadParameter(param, `at most ${MAX_LIST_ENTRIES} comma-separated entries are allowed (got ${entries.length})`);
  }
  if (entries.some((e) => e.length === 0)) throw new BadParameter(param, "entries must not be empty");
  return entries;
}

export function parseIsoDate(raw: string, param: string): IsoDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d) return raw;
  }
  throw new BadParameter(param, `"${truncate(raw)}" is not a date (YYYY-MM-DD)`);
}

/**
 * `opts.index` (parent id -> records) saves building an index of `get`'s values; `opts.lookup`
 * (the record with that id) does the same for a filter on the records' own id.
 */
export function idList<R>(
  get: (r: R, ctx: CurrentContext) => Id | readonly Id[] | null | undefined,
  opts: { index?: (ctx: CurrentContext) => ReadonlyMap<Id, readonly R[]>; lookup?: (id: Id, ctx: CurrentContext) => R | undefined } = {},
): FilterDef<R> {
  const index: (ctx: CurrentContext, all: readonly R[]) => ReadonlyMap<Id, readonly R[]> = opts.index ?? valueIndex(get, (v: Id) => v);
  const lookup = opts.lookup;
  return {
    parse: (raw, param) => new Set(parseList(raw, param)),
    matches: (r, value, ctx) => anyIn(get(r, ctx), (v) => (value as Set<string>).has(v)),
    candidates: lookup
      ? (value, ctx) => [...(value as Set<string>)].map((id) => lookup(id, ctx)).filter((r): r is R => r !== undefined)
      : (value, ctx, all) => union(index(ctx, all), value as Set<string>),
  };
}

interface StringListValue {
  values: Set<string>;
  includeNull: boolean;
}

export function stringList<R>(
  get: (r: R, ctx: CurrentContext) => string | readonly string[] | null | undefined,
  opts: { allowNullLiteral?: boolean; minLength?: number; maxLength?: number } = {},
): FilterDef<R> {
  const index = valueIndex(get, (v: string) => v);
  return {
    parse(raw, param): StringListValue {
      const parsed: StringListValue = { values: new Set(), includeNull: false };
      for (const entry of parseList(raw, param)) {
        if (opts.allowNullLiteral && entry === "null") {
          parsed.includeNull = true;
          continue;
        }
        if (opts.minLength !== undefined && entry.length < opts.minLength) {
          throw new BadParameter(param, `entries must be at least ${opts.minLength} characters long`);
        }
        if (opts.maxLength !== undefined && entry.length > opts.maxLength) {
          throw new BadParameter(param, `entries must be at most ${opts.maxLength} characters long`);
        }
        parsed.values.add(entry);
      }
      return parsed;
    },
    matches(r, value, ctx) {
      const { values, includeNull } = value as StringListValue;
      const v = get(r, ctx);
      if (v === null || v === undefined) return includeNull;
      return anyIn(v, (s) => values.has(s));
    },
    candidates(value, ctx, all) {
      const { values, includeNull } = value as StringListValue;
      const keys = new Set(values);
      if (includeNull) keys.add(NULL_KEY);
      return union(index(ctx, all), keys);
    },
  };
}

export function intList<R>(
  get: (r: R, ctx: CurrentContext) => number | null | undefined,
  opts: { min?: number } = {},
): FilterDef<R> {
  const index = valueIndex(get, (v: number) => String(v));
  return {
    parse(raw, param) {
      return new Set(
        parseList(raw, param).map((entry) => {
          if (!/^-?\d{1,15}$/.test(entry)) throw new BadParameter(param, `"${truncate(entry)}" is not an integer`);
          const n = Number(entry);
          if (opts.min !== undefined && n < opts.min) throw new BadParameter(param, `entries must be integers >= ${opts.min}`);
          return n;
        }),
      );
    },
    matches: (r, value, ctx) => {
      const v = get(r, ctx);
      return v !== null && v !== undefined && (value as Set<number>).has(v);
    },
    candidates: (value, ctx, all) => union(index(ctx, all), new Set([...(value as Set<number>)].map(String))),
  };
}

export function enumList<R>(
  values: readonly string[],
  get: (r: R, ctx: CurrentContext) => string | readonly string[] | null | undefined,
): FilterDef<R> {
  const allowed = new Set(values);
  const index = valueIndex(get, (v: string) => v);
  return {
    parse(raw, param) {
      const entries = parseList(raw, param);
      const unknown = entries.filter((e) => !allowed.has(e));
      if (unknown.length > 0) {
        throw new BadParameter(param, `unknown value ${unknown.map((u) => `"${truncate(u)}"`).join(", ")}; allowed: ${values.join(", ")}`);
      }
      return new Set(entries);
    },
    matches: (r, value, ctx) => anyIn(get(r, ctx), (v) => (value as Set<string>).has(v)),
    candidates: (value, ctx, all) => union(index(ctx, all), value as Set<string>),
  };
}

/** Strict equality on a date; the value is one date (or the literal `null` when allowed), not a list. */
export function dateEquals<R>(
  get: (r: R, ctx: CurrentContext) => IsoDate | null | undefined,
  opts: { allowNullLiteral?: boolean } = {},
): FilterDef<R> {
  const index = valueIndex(get, (v: IsoDate) => v);
  return {
    parse(raw, param) {
      if (opts.allowNullLiteral && raw === "null") return null;
      return parseIsoDate(raw, param);
    },
    matches: (r, value, ctx) => (get(r, ctx) ?? null) === value,
    candidates: (value, ctx, all) => index(ctx, all).get(value === null ? NULL_KEY : (value as string)) ?? [],
  };
}

interface Range {
  from: string | null;
  to: string | null;
}

/**
 * `<from>--<to>`, both inclusive, `..` for an open bound. A record whose value is null never
 * matches a range (a filter with the literal `null`, where offered, selects those).
 */
export function dateRange<R>(get: (r: R, ctx: CurrentContext) => IsoDate | null | undefined): FilterDef<R> {
  return {
    parse: parseRange,
    matches: (r, value, ctx) => inRange(get(r, ctx), value as Range),
  };
}

/** A date range applied to the (UTC) date part of a timestamp. */
export function timestampRange<R>(get: (r: R, ctx: CurrentContext) => IsoDateTime | null | undefined): FilterDef<R> {
  return {
    parse: parseRange,
    matches: (r, value, ctx) => inRange(get(r, ctx)?.slice(0, 10), value as Range),
  };
}

export function booleanFilter<R>(get: (r: R, ctx: CurrentContext) => boolean): FilterDef<R> {
  const index = valueIndex(get, (v: boolean) => String(v));
  return {
    parse(raw, param) {
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw new BadParameter(param, `must be true or false (got "${truncate(raw)}")`);
    },
    matches: (r, value, ctx) => get(r, ctx) === value,
    candidates: (value, ctx, all) => index(ctx, all).get(String(value)) ?? [],
  };
}

/** Longest accepted search text. */
export const MAX_SEARCH_LENGTH = 255;

/**
 * The name search of docs/interface.md#name-search: the query is split into words on space, `-`, `_`, `,`, `.`; a record
 * matches when every word is a prefix of a word of one of its names. Case and accents are ignored
 * ("eloise" finds "Éloïse").
 */
export function nameSearch<R>(names: (r: R, ctx: CurrentContext) => readonly string[]): FilterDef<R> {
  const index = perContext((ctx: CurrentContext, all: readonly R[]) => {
    const wordsOf = new Map<R, string[]>();
    const entries: Array<{ word: string; record: R }> = [];
    for (const r of all) {
      const words = [...new Set(names(r, ctx).flatMap(splitWords))];
      wordsOf.set(r, words);
      for (const word of words) entries.push({ word, record: r });
    }
    entries.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    return { wordsOf, words: entries.map((e) => e.word), records: entries.map((e) => e.record) };
  });
  return {
    parse(raw, param) {
      if (raw.length > MAX_SEARCH_LENGTH) throw new BadParameter(param, `must be at most ${MAX_SEARCH_LENGTH} characters`);
      const words = splitWords(raw);
      if (words.length === 0) throw new BadParameter(param, "must contain at least one word");
      return words;
    },
    matches(r, value, ctx) {
      const words = index.peek(ctx)?.wordsOf.get(r) ?? names(r, ctx).flatMap(splitWords);
      return (value as string[]).every((q) => words.some((w) => w.startsWith(q)));
    },
    candidates(value, ctx, all) {
      const idx = index(ctx, all);
      // the rarest word bounds the candidates; the engine checks the other words with `matches`
      let best: [number, number] | null = null;
      for (const q of value as string[]) {
        const lo = lowerBound(idx.words, q);
        const hi = lowerBound(idx.words, `${q}\uffff`);
        if (best === null || hi - lo < best[1] - best[0]) best = [lo, hi];
      }
      const [lo, hi] = best!;
      return [...new Set(idx.records.slice(lo, hi))];
    },
  };
}

function parseRange(raw: string, param: string): Range {
  const parts = raw.split("--");
  if (parts.length !== 2) throw new BadParameter(param, `"${truncate(raw)}" is not a date range (<from>--<to>, ".." for an open bound)`);
  const [a, b] = parts as [string, string];
  const from = a === ".." ? null : parseIsoDate(a, param);
  const to = b === ".." ? null : parseIsoDate(b, param);
  if (from !== null && to !== null && from > to) throw new BadParameter(param, `the range starts (${from}) after it ends (${to})`);
  return { from, to };
}

function inRange(v: string | null | undefined, { from, to }: Range): boolean {
  if (v === null || v === undefined) return false;
  return (from === null || v >= from) && (to === null || v <= to);
}

function anyIn<V>(v: V | readonly V[] | null | undefined, test: (v: V) => boolean): boolean {
  if (v === null || v === undefined) return false;
  if (Array.isArray(v)) return (v as readonly V[]).some(test);
  return test(v as V);
}

function union<R>(index: ReadonlyMap<string, readonly R[]>, keys: Iterable<string>): readonly R[] {
  const buckets: Array<readonly R[]> = [];
  for (const k of keys) {
    const bucket = index.get(k);
    if (bucket && bucket.length > 0) buckets.push(bucket);
  }
  if (buckets.length === 0) return [];
  if (buckets.length === 1) return buckets[0]!;
  return [...new Set(buckets.flat())];
}

/** value -> records holding it (null values under NULL_KEY), once per context. */
function valueIndex<R, V>(get: Getter<R, V>, key: (v: V) => string) {
  return perContext((ctx: CurrentContext, all: readonly R[]) => {
    const map = new Map<string, R[]>();
    const add = (k: string, r: R) => {
      const bucket = map.get(k);
      if (bucket) {
        if (bucket[bucket.length - 1] !== r) bucket.push(r);
      } else map.set(k, [r]);
    };
    for (const r of all) {
      const v = get(r, ctx);
      if (v === null || v === undefined) add(NULL_KEY, r);
      else if (Array.isArray(v)) for (const item of v as readonly V[]) add(key(item), r);
      else add(key(v as V), r);
    }
    return map as ReadonlyMap<string, readonly R[]>;
  });
}

function lowerBound(sorted: readonly string[], probe: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < probe) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
