import type { Id } from "../../data/model.js";
import { fold } from "../filters.js";
import { ref } from "../refs.js";
import { BadParameter, type FilterDef, type View } from "../resource.js";

/**
 * Pieces shared by the resource modules: grouping for per-context indexes, representation
 * helpers and the filters that the builders of filters.ts do not cover.
 */

export function groupBy<R>(records: readonly R[], key: (r: R) => Id | readonly Id[] | null | undefined): Map<Id, R[]> {
  const groups = new Map<Id, R[]>();
  for (const record of records) {
    const keys = key(record);
    if (keys === null || keys === undefined) continue;
    for (const k of typeof keys === "string" ? [keys] : keys) {
      let group = groups.get(k);
      if (!group) groups.set(k, (group = []));
      group.push(record);
    }
  }
  return groups;
}

/** The `id` and `url` of a resource's own representation, with its `type`. */
export function self(view: View, type: string, collection: string, id: Id): { id: string; type: string; url: string } {
  return ref(view, type, collection, id)!;
}

/** Includes `links` only when the request asked for them (the ResourceDef contract). */
export function withLinks(view: View, body: Record<string, unknown>, links: () => Record<string, unknown>): Record<string, unknown> {
  if (view.include.has("links")) body.links = links();
  return body;
}

/**
 * Partial match of one text (occupation-category titles), ignoring case and accents like the name
 * search: unlike that word-prefix search, the query may start in the middle of a word.
 */
export function containsText<R>(text: (r: R) => string, opts: { maxLength: number }): FilterDef<R> {
  return {
    parse(raw, param) {
      const query = raw.trim();
      if (query.length === 0) throw new BadParameter(param, "must not be empty");
      if (query.length > opts.maxLength) throw new BadParameter(param, `must be at most ${opts.maxLength} characters`);
      return fold(query);
    },
    matches(record, value) {
      return fold(text(record)).includes(value as string);
    },
  };
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEquals(item, other[i]));
  }
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && jsonEquals((a as Record<string, unknown>)[k], bo[k]));
}
