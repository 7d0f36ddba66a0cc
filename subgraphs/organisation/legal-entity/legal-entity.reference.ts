import type { SubgraphContext } from "../../shared/graphql/index.js";
import { legalEntityLoader } from "../loaders.js";

export const legalEntityReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => legalEntityLoader(ctx).load(reference.id),
};
