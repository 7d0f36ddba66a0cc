import type { SubgraphContext } from "../../shared/graphql/index.js";
import { personalRecordLoader } from "../loaders.js";
import type { RestEmployeePersonalRecord } from "../rest.js";

/**
 * The personal-record list has no `id` filter (docs/interface.md#employee-personal-record), so a reference by id is a single
 * read, run concurrently (bounded) for a batch; a 404 is null.
 */
export const employeePersonalRecordReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestEmployeePersonalRecord | null> {
    return personalRecordLoader(ctx).load(reference.id);
  },
};
