import type { SubgraphContext } from "../../shared/graphql/index.js";
import { contractOfEmployment, type RestWorkContract } from "../../shared/legacy/work-contracts.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import { employmentLoader } from "../loaders.js";

/**
 * A work contract by id, for `node`/`nodes`: people serves the contract's plain members
 * (`@shareable`), so a plan takes them from here for a contract people answers by id. Its
 * employment (same id, read with the caller's credentials: one call per 100) names the owner, whose
 * contracts are one list call per 100 owners; a contract whose employment the caller cannot read
 * is null, as the employment is.
 */
export const workContractReference = {
  async __resolveReference(reference: { id: string }, ctx: SubgraphContext): Promise<RestWorkContract | null> {
    if (!isLegacyId(reference.id)) return null;
    const employment = await employmentLoader(ctx).load(reference.id);
    return employment ? contractOfEmployment(ctx, employment) : null;
  },
};
