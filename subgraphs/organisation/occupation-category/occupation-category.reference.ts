import type { SubgraphContext } from "../../shared/graphql/index.js";
import { occupationCategoryLoader } from "../loaders.js";

export const occupationCategoryReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => occupationCategoryLoader(ctx).load(reference.id),
};
