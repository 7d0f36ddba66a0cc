import { Ctx, Directive, FieldResolver, Resolver, Root } from "type-graphql";
import { isLegacyId } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { workContractsByOwnerLoader } from "../loaders.js";
import { loadIfVisible } from "../visibility.js";
import type { RestWorkContract } from "../rest.js";
import { WorkContract } from "../work-contract/work-contract.js";
import { readWorkContract } from "../work-contract/work-contract.resolver.js";
import { Employment, type EmploymentRef } from "./employment.js";

@Resolver(() => Employment)
export class EmploymentResolver {
  /**
   * The gateway supplies the owner's id (`@requires`), so the contracts of all the employments of
   * an operation come from one work-contract list call per 100 owners. A representation without
   * the owner (a direct `_entities` call) falls back to a single read by id.
   */
  @FieldResolver(() => WorkContract, { nullable: true, description: "The legacy work contract of this employment (same id)." })
  @Directive('@requires(fields: "employee { id }")')
  async workContract(@Root() employment: EmploymentRef, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    const ownerId = employment.employee?.id;
    if (!ownerId) return readWorkContract(ctx, employment.id);
    if (!isLegacyId(employment.id)) return null;
    const contracts = await loadIfVisible(ctx, ownerId, () => workContractsByOwnerLoader(ctx).load(ownerId));
    return contracts.find((c) => String(c.id) === employment.id) ?? null;
  }
}
