import { createHash } from "node:crypto";
import type { CursorSigner, QueryParams } from "../upstream/types.js";
import { badUserInput, cursorPayloadOf, MAX_FIRST, notACursor } from "../../../platform/user-input.js";

/**
 * Connection cursors (connection.ts): signed with the upstream's cursor key and bound to their
 * list (path, filter and sort). Free of type-graphql: it holds no type of the graph, only the
 * signing and binding every connection of every subgraph shares.
 */

/**
 * What an `after` cursor holds. The REST `page` cursor marks a position in the list (the
 * directory's cursors are keyset positions), not a page of a fixed size, so a position is "the
 * first `s` items of the REST page that starts at cursor `p`" and any `limit` may be asked from it.
 */
export type Cursor =
  /** after the first `s` items of the REST page starting at `p` (null: the list's start) */
  | { p: string | null; s: number }
  /** after item `o` (0-based) of a list first served in full (batched children) */
  | { o: number };

/** What a cursor is bound to: the key that signs it and the list (path, filter, sort) it walks. */
export interface CursorBinding {
  signer: CursorSigner;
  /** `cursorScope(path, query)` of the list */
  scope: string;
}

/** the furthest offset a cursor may name: beyond it, resuming would walk a list page after page */
export const MAX_CURSOR_OFFSET = 10_000;

/** The list a cursor belongs to: its path and its REST query without the paging parameters. */
export function cursorScope(path: string, query: QueryParams = {}): string {
  const kept = Object.entries(query)
    .filter(([name, value]) => value !== undefined && value !== null && !["page", "limit", "include"].includes(name))
    .map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : String(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return `${path}?${new URLSearchParams(kept as [string, string][]).toString()}`;
}

function scopeHash(scope: string): string {
  return createHash("sha256").update(scope).digest().subarray(0, 9).toString("base64url");
}

/** A cursor of the list `binding` names (exported for tests that need a cursor of a given position). */
export function encodeCursor(cursor: Cursor, binding: CursorBinding): string {
  const payload = Buffer.from(JSON.stringify({ ...cursor, h: scopeHash(binding.scope) })).toString("base64url");
  return `${payload}.${binding.signer.sign(payload)}`;
}

export const NOT_A_CURSOR = "after is not a cursor of this connection";

/**
 * The payload of a cursor whose signature holds, or a BAD_USER_INPUT. Checks only that this
 * service issued it; `decodeCursor` also checks the list it belongs to.
 */
export function verifiedCursorPayload(signer: CursorSigner, raw: string, argument = "after"): Record<string, unknown> {
  const payload = cursorPayloadOf(raw);
  const dot = raw.indexOf(".");
  if (payload === null || !signer.verify(raw.slice(0, dot), raw.slice(dot + 1))) throw notACursor(argument);
  return payload;
}

export function decodeCursor(raw: string, binding: CursorBinding): Cursor {
  const v = verifiedCursorPayload(binding.signer, raw);
  if (v.h !== scopeHash(binding.scope)) {
    throw badUserInput("after is a cursor of another list, filter or sort: ask the first page again with these arguments", "after");
  }
  // a REST page holds at most MAX_FIRST items, so more cannot be skipped inside one
  if ((typeof v.p === "string" || v.p === null) && isIndex(v.s) && (v.s as number) <= MAX_FIRST) return { p: v.p, s: v.s as number };
  if (isIndex(v.o) && (v.o as number) < MAX_CURSOR_OFFSET) return { o: v.o as number };
  throw badUserInput("after points outside this list", "after");
}

const isIndex = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
