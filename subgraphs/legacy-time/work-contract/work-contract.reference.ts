import type { SubgraphContext } from "../../shared/graphql/index.js";
import type { RestWorkContract } from "../rest.js";
import { readWorkContract } from "./work-contract.resolver.js";

/** Single reads with bounded concurrency: the work-contract list cannot be filtered by id. */
export const workContractReference = {
  __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestWorkContract | null> {
    return readWorkContract(ctx, reference.id);
  },
};
