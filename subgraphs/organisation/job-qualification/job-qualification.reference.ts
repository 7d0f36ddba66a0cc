import type { SubgraphContext } from "../../shared/graphql/index.js";
import { jobQualificationLoader } from "../loaders.js";

export const jobQualificationReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => jobQualificationLoader(ctx).load(reference.id),
};
