import type { SubgraphContext } from "../../shared/graphql/index.js";
import { professionLoader } from "../loaders.js";

export const professionReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => professionLoader(ctx).load(reference.id),
};
