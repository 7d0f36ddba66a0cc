import type { SubgraphContext } from "../../shared/graphql/index.js";
import type { RestTimeEntry } from "../rest.js";
import { readTimeEntry } from "./time-entry.resolver.js";

/** Single reads with bounded concurrency: the time-entry list cannot be filtered by id. */
export const timeEntryReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestTimeEntry | null> {
    return readTimeEntry(ctx, reference.id);
  },
};
