import type { SubgraphContext } from "../../shared/graphql/index.js";
import { employeeLoader } from "../loaders.js";
import type { RestEmployee } from "../rest.js";

/** `_entities` batches become one `/employees?id=` call per 100 employees; unknown ids are null. */
export const employeeReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestEmployee | null> {
    return employeeLoader(ctx).load(reference.id);
  },
};
