import type { SubgraphContext } from "../../shared/graphql/index.js";
import { businessEstablishmentLoader } from "../loaders.js";

export const businessEstablishmentReference = {
  // the legal entities the establishments name come embedded with them when the operation reads them (loaders.ts)
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => businessEstablishmentLoader(ctx).load(reference.id),
};
