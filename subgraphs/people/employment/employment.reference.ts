import type { SubgraphContext } from "../../shared/graphql/index.js";
import { employmentLoader } from "../loaders.js";
import type { RestEmployment } from "../rest.js";

/** `_entities` batches become one `/employments?id=` call per 100 employments. */
export const employmentReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestEmployment | null> {
    return employmentLoader(ctx).load(reference.id);
  },
};
