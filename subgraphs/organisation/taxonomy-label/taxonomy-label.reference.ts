import type { SubgraphContext } from "../../shared/graphql/index.js";
import { taxonomyLabelLoader } from "../loaders.js";

export const taxonomyLabelReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => taxonomyLabelLoader(ctx).load(reference.id),
};
