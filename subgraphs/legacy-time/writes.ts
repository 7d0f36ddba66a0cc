import type { GraphQLError } from "graphql";
import type { SubgraphContext } from "../shared/graphql/index.js";
import { UpstreamError } from "../shared/upstream/index.js";
import { ErrorCode, codedError } from "../../platform/error-codes.js";
import { AXIS_SECTIONS_PATH, TIME_ENTRIES_PATH, USERS_PATH } from "./loaders.js";
import { USER_FIELDS, type RestAxisSection, type RestLegacyUser, type RestTimeEntry } from "./rest.js";

/**
 * The legacy-time subgraph's writes: every PUT it sends, beside the reads of loaders.ts. The
 * mutations (`updateTimeEntry`, `updateAxisSection`, `updateLegacyUser`) check their input, read
 * and merge, and turn refusals into data; the calls themselves are here. Each answers the entity
 * as written (the legacy API's `{ data }`).
 */

export async function putTimeEntry(ctx: SubgraphContext, id: string, body: unknown): Promise<RestTimeEntry> {
  return (await ctx.upstream.legacy.put<{ data: RestTimeEntry }>(`${TIME_ENTRIES_PATH}/${id}`, body)).data;
}

export async function putAxisSection(ctx: SubgraphContext, id: string, body: unknown): Promise<RestAxisSection> {
  return (await ctx.upstream.legacy.put<{ data: RestAxisSection }>(`${AXIS_SECTIONS_PATH}/${id}`, body)).data;
}

/** The user as written, with the fields the graph reads (`fields=`). */
export async function putLegacyUser(ctx: SubgraphContext, id: string, body: Record<string, unknown>): Promise<RestLegacyUser> {
  return (await ctx.upstream.legacy.put<{ data: RestLegacyUser }>(`${USERS_PATH}/${id}`, body, { fields: USER_FIELDS })).data;
}

/**
 * A mutation's read-merge-write of one record, from its read to its PUT, while no other write of
 * the facade on any replica holds the record (docs/decisions.md#writes-are-serialised-per-record):
 * the record's copy in the loader is forgotten first, so that the merge starts from what the
 * directory holds now, not from what this operation read or wrote before another write came in.
 * `id` is a legacy id (checked before: nothing is held for a malformed one).
 */
export function serialisedWrite<T>(ctx: SubgraphContext, path: string, id: string, loader: { clear(id: string): unknown }, write: () => Promise<T>): Promise<T> {
  return ctx.upstream.serialise(`${path}/${id}`, () => {
    loader.clear(id);
    return write();
  });
}

/**
 * The write step every legacy mutation shares, once its input is checked and its target read:
 * the PUT; the entity as written primed in its loader, so that a later read of the same
 * operation shows it (a later write reads it again, holding it: `serialisedWrite`); a 404 is NOT_FOUND (data:
 * `audited` makes it a NotFoundError); a refusal (a 400) is data, which `refused` builds from the legacy message; any other failure forgets the entity
 * (it may have changed: a later write reads it again) and is thrown. `changed` runs whenever the
 * entity may have changed (the lists that hold it are read again).
 */
export async function writeLegacy<T, R>(options: {
  what: string;
  id: string;
  loader: { clear(id: string): { prime(id: string, value: T): unknown } };
  put: () => Promise<T>;
  refused: (err: UpstreamError, message: string) => R;
  changed?: () => void;
}): Promise<T | R> {
  const { what, id, loader } = options;
  let written: T;
  try {
    written = await options.put();
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) throw notFound(what, id);
    if (!isRefusal(err)) {
      loader.clear(id);
      options.changed?.();
      throw err;
    }
    return options.refused(err, refusalMessage(err));
  }
  loader.clear(id).prime(id, written);
  options.changed?.();
  return written;
}

/*
 * Refusals (docs/graph.md#mutations: a validation failure is data, not an exception). Only failures the caller can fix
 * by changing the input are built here; a missing target is thrown as NOT_FOUND, which `audited`
 * returns as a NotFoundError (as FORBIDDEN and CONFLICT), and any other upstream failure keeps its
 * code (docs/graph.md#error-codes).
 */

export function notFound(what: string, id: string): GraphQLError {
  return codedError(ErrorCode.NOT_FOUND, `${what} ${id} does not exist.`);
}

/** A 400 of the legacy API (a refused body), as opposed to any other failure. */
export function isRefusal(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && err.status === 400;
}

/**
 * The input fields an upstream refusal names. The legacy API answers `{status, message}` and
 * starts each problem of its message with the REST field name ("Invalid request body: mail must
 * be an email address."); the names found there are mapped back to the mutation's input names.
 * When no problem starts with a known name, a name anywhere in the message counts.
 */
export function fieldsNamedIn(message: string, inputNameOf: Readonly<Record<string, string>>): string[] {
  const find = (before: string) => {
    const found = new Set<string>();
    for (const [restName, inputName] of Object.entries(inputNameOf)) {
      if (new RegExp(`${before}${escape(restName)}(?=[^A-Za-z0-9_]|$)`).test(message)) found.add(inputName);
    }
    return [...found];
  };
  const leading = find(`(?:^|[:.]\\s+|')`);
  return leading.length > 0 ? leading : find("(?:^|[^A-Za-z0-9_])");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The legacy API's message, without the wrapper the directory service puts around it. */
export function refusalMessage(err: UpstreamError): string {
  return err.detail ?? err.message;
}
