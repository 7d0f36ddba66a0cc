import type { SubgraphContext } from "../../shared/graphql/index.js";
import { jobPositionLoader } from "../loaders.js";
import type { RestJobPosition } from "../rest.js";

/** `_entities` batches become one `/job-positions?id=` call per 100 job positions. */
export const jobPositionReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestJobPosition | null> {
    return jobPositionLoader(ctx).load(reference.id);
  },
};
