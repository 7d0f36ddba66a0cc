import type { SubgraphContext } from "../../shared/graphql/index.js";
import { businessEstablishmentLoader } from "../loaders.js";

export const businessEstablishmentReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext) => businessEstablishmentLoader(ctx).load(reference.id),
};
