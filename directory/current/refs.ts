import type { Id } from "../data/model.js";
import { hasScope } from "./auth.js";
import type { View } from "./resource.js";

/** Reference objects, links and list addresses of the current API; every url is absolute. */

export function resourceUrl(view: View, collection: string, id: Id): string {
  return `${view.origin}/service-api/${collection}/${encodeURIComponent(id)}`;
}

/** `{id, type, url}`, or null when there is nothing to refer to. */
export function ref(
  view: View,
  type: string,
  collection: string,
  id: Id | null | undefined,
): { id: string; type: string; url: string } | null {
  if (id === null || id === undefined) return null;
  return { id, type, url: resourceUrl(view, collection, id) };
}

/** A `links` member: null when there is no address (or the caller may not follow it). */
export function link(_view: View, href: string | null): { href: string } | null {
  return href === null ? null : { href };
}

/** The address of a list with the given query parameters. */
export function collectionHref(view: View, collection: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return `${view.origin}/service-api/${collection}${search ? `?${search}` : ""}`;
}

/** A list address, or null when the caller lacks the list's scope (docs/interface.md#visibility: `links`). */
export function scopedListLink(
  view: View,
  scope: string,
  collection: string,
  query: Record<string, string>,
): { href: string } | null {
  return link(view, hasScope(view.caller, scope, "read") ? collectionHref(view, collection, query) : null);
}
