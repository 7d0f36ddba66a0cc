import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { ref } from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { legacyEstablishmentLoader, assertCaller } from "../loaders.js";
import type { RestLegacyEstablishment } from "../rest.js";
import { BusinessEstablishment, LegacyEstablishment } from "./business-establishment.js";

@Resolver(() => BusinessEstablishment)
export class BusinessEstablishmentResolver {
  @FieldResolver(() => LegacyEstablishment, { nullable: true, description: "The legacy API's view of the establishment; null when it has none." })
  async legacy(@Root() establishment: { id: string }, @Ctx() ctx: SubgraphContext): Promise<RestLegacyEstablishment | null> {
    if (!isLegacyId(establishment.id)) return null;
    const [, found] = await Promise.all([assertCaller(ctx), legacyEstablishmentLoader(ctx).load(establishment.id)]);
    return found;
  }
}

@Resolver(() => LegacyEstablishment)
export class LegacyEstablishmentResolver {
  @FieldResolver(() => Employee, { nullable: true, description: "Who created the establishment." })
  author(@Root() establishment: RestLegacyEstablishment): EmployeeRef | null {
    return ref(establishment.author?.id);
  }
}
