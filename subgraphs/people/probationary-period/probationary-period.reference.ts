import type { SubgraphContext } from "../../shared/graphql/index.js";
import { probationaryPeriodLoader } from "../loaders.js";
import type { RestProbationaryPeriod } from "../rest.js";

/**
 * The probationary-period list has no `id` filter (docs/interface.md#probationary-period), so a reference by id is a
 * single read, run concurrently (bounded) for a batch; a 404 is null.
 */
export const probationaryPeriodReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestProbationaryPeriod | null> {
    return probationaryPeriodLoader(ctx).load(reference.id);
  },
};
