import type { SubgraphContext } from "../shared/graphql/index.js";
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
