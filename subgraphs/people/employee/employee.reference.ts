import type { GraphQLResolveInfo } from "graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import type { RestEmployee } from "../rest.js";
import { employeeLoaderFor } from "../loaders.js";

/**
 * `_entities` batches become one `/employees?id=` call per 100 employees; unknown ids are null.
 * With their links when the gateway asks for a portrait's address (the same calls).
 */
export const employeeReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext, info: GraphQLResolveInfo): Promise<RestEmployee | null> {
    return employeeLoaderFor(ctx, info).load(reference.id);
  },
};
