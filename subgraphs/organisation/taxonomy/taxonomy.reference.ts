import type { SubgraphContext } from "../../shared/graphql/index.js";
import { taxonomyLoader } from "../loaders.js";

export const taxonomyReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => taxonomyLoader(ctx).load(reference.id),
};
