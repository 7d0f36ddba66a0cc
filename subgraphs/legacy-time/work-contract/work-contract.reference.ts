import type { SubgraphContext } from "../../shared/graphql/index.js";
import type { RestWorkContract } from "../rest.js";
import { workContractByReferenceLoader } from "./work-contract.resolver.js";

/** The contracts of one `_entities` call together (the list has no id filter: workContractByReferenceLoader). */
export const workContractReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestWorkContract | null> {
    return workContractByReferenceLoader(ctx).load(reference.id);
  },
};
