import type { GraphQLResolveInfo } from "graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { attributeLoader, type AttributeNode } from "../loaders.js";
import { readsDefinitionDetails } from "./definition-selection.js";

/**
 * `_entities` batches become one `/employee-attributes?id=` call per 100 attributes, with the
 * embedded definitions when the gateway asks for more of a definition than its id.
 */
export const employeeAttributeReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext, info: GraphQLResolveInfo): Promise<AttributeNode | null> {
    return attributeLoader(ctx, readsDefinitionDetails(info)).load(reference.id);
  },
};
