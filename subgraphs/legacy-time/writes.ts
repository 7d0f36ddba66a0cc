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

/*
 * Refusals (docs/graph.md#mutations: a validation failure is data, not an exception). Only failures the caller can fix
 * by changing the input become data; a missing target is a NOT_FOUND GraphQL error and any other
 * upstream failure keeps its code (docs/graph.md#error-codes).
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
