import type { GraphQLResolveInfo } from "graphql";
import { readsBeyondKey, someField, type SubgraphContext } from "../../shared/graphql/index.js";
import { businessEstablishmentLoader, legalEntityLoader } from "../loaders.js";

export const businessEstablishmentReference = {
  __resolveReference: (reference: { id: string }, ctx: SubgraphContext, info?: GraphQLResolveInfo) => {
    // the legal entities the establishments name, from one page read together with them
    if (info && readsLegalEntity(info)) legalEntityLoader(ctx).warm();
    return businessEstablishmentLoader(ctx).load(reference.id);
  },
};

function readsLegalEntity(info: GraphQLResolveInfo): boolean {
  const selections = info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []);
  return someField(selections, info, (f) => f.name.value === "legalEntity" && readsBeyondKey(f.selectionSet?.selections ?? [], info));
}
