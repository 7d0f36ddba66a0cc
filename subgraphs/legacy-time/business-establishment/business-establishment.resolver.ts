import type { GraphQLResolveInfo } from "graphql";
import { Args, ArgsType, Ctx, Field, FieldResolver, Info, Query, Resolver, Root } from "type-graphql";
import { PageArgs, RestFilter, connectionType, cursorScope, pageSize, ref, selects, type ConnectionResult } from "../../shared/graphql/index.js";
import { isLegacyId, type QueryParams } from "../../shared/upstream/index.js";
import { checkFieldRules } from "../../../platform/field-rules.js";
import { legacyTimeFieldRules } from "../field-rules.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { LegalEntity } from "../legal-entity/legal-entity.js";
import { legacyEstablishmentsConnection, legacyConnection, legacyStart, workContractsOfEstablishmentLoader } from "../connections.js";
import { ESTABLISHMENTS_PATH, WORK_CONTRACTS_PATH, legacyEstablishmentLoader } from "../loaders.js";
import { assertCaller } from "../visibility.js";
import type { RestLegacyEstablishment, RestWorkContract } from "../rest.js";
import { WorkContractConnection, WorkContractsArgs, workContractQuery } from "../work-contract/work-contract.resolver.js";
import { BusinessEstablishment, LegacyEstablishment, LegacyEstablishmentAddress, LegacyEstablishmentFilter } from "./business-establishment.js";

export const LegacyEstablishmentConnection = connectionType("LegacyEstablishment", LegacyEstablishment);

@ArgsType()
class LegacyEstablishmentsArgs extends PageArgs {
  @Field(() => LegacyEstablishmentFilter, { nullable: true })
  filter?: LegacyEstablishmentFilter | null;
}

/**
 * The REST query of an establishment filter (docs/interface.md#legacy-establishment), checked
 * before any call; null when it matches nothing. The list leaves archived establishments out
 * unless asked: `isArchived` false (the default) sends nothing, true `true`, null both.
 */
function establishmentQuery(filter: LegacyEstablishmentFilter | null | undefined): QueryParams | null {
  const f = filter ?? { isArchived: false };
  const rest = new RestFilter()
    .strings("id", "ids", f.ids, { allowEmpty: true, keep: isLegacyId })
    .strings("legalUnitId", "legalUnitIds", f.legalUnitIds, { allowEmpty: true, keep: isLegacyId })
    .search("search", "search", f.search, { maxLength: 255 })
    .value("isArchived", f.isArchived === true ? "true" : f.isArchived === null ? "true,false" : null);
  return rest.matchesNothing ? null : rest.query;
}

@Resolver(() => BusinessEstablishment)
export class BusinessEstablishmentResolver {
  @FieldResolver(() => LegacyEstablishment, { nullable: true, description: "The legacy API's view of the establishment; null when it has none." })
  async legacy(@Root() establishment: { id: string }, @Ctx() ctx: SubgraphContext): Promise<RestLegacyEstablishment | null> {
    if (!isLegacyId(establishment.id)) return null;
    const [, found] = await Promise.all([assertCaller(ctx), legacyEstablishmentLoader(ctx).load(establishment.id)]);
    return found;
  }

  @FieldResolver(() => WorkContractConnection, {
    nullable: true,
    description:
      "The legacy work contracts attached to the establishment (that of the employment's first job position), in the directory's order, " +
      "with the other filters. A page of establishments shares its calls (one per 100 establishments); with `after`, one call per page.",
  })
  async workContracts(
    @Root() establishment: { id: string },
    @Args(() => WorkContractsArgs) args: WorkContractsArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionResult<RestWorkContract>> {
    const first = pageSize(args.first);
    // also refused on the whole operation (field-rules.ts); here for a caller that skips the checks
    checkFieldRules(legacyTimeFieldRules["BusinessEstablishment.workContracts"], args);
    const query = workContractQuery(args.filter);
    if (query === null) {
      const binding = { signer: ctx.upstream.cursors, scope: cursorScope(WORK_CONTRACTS_PATH, { establishmentId: "" }) };
      return legacyConnection<RestWorkContract>([], legacyStart(args.after, binding), binding, { hasNextPage: false, totalCount: 0 });
    }
    return workContractsOfEstablishmentLoader(ctx, query).load({
      parentId: establishment.id,
      first,
      after: args.after ?? null,
      totalCount: selects(info, "totalCount"),
    });
  }
}

@Resolver(() => LegacyEstablishment)
export class LegacyEstablishmentResolver {
  @Query(() => LegacyEstablishmentConnection, {
    nullable: true,
    description:
      "The legacy API's establishments, by id, with the filters; archived ones only when asked (filter.isArchived). One call per page.",
  })
  async legacyEstablishments(
    @Args(() => LegacyEstablishmentsArgs) args: LegacyEstablishmentsArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<ConnectionResult<RestLegacyEstablishment>> {
    const query = establishmentQuery(args.filter);
    const binding = { signer: ctx.upstream.cursors, scope: cursorScope(ESTABLISHMENTS_PATH, query ?? { id: "" }) };
    if (query === null) {
      pageSize(args.first);
      return legacyConnection<RestLegacyEstablishment>([], legacyStart(args.after, binding), binding, { hasNextPage: false, totalCount: 0 });
    }
    return legacyEstablishmentsConnection(ctx, query, args, binding);
  }

  @FieldResolver(() => BusinessEstablishment, { nullable: true, description: "The business establishment this is the legacy view of (same id)." })
  establishment(@Root() establishment: RestLegacyEstablishment): { id: string } | null {
    return ref(establishment.id);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "Who created the establishment." })
  author(@Root() establishment: RestLegacyEstablishment): EmployeeRef | null {
    return ref(establishment.author?.id);
  }

  // the legal unit the legacy establishment names by id: a key-only reference the organisation
  // subgraph resolves, one call for every establishment of the operation (its loader)
  @FieldResolver(() => LegalEntity, { nullable: true, description: "The legal entity (legacy legal unit) the establishment belongs to." })
  legalEntity(@Root() establishment: RestLegacyEstablishment): { id: string } | null {
    return ref(establishment.legalUnitId);
  }
}

/** The legacy address under the names `PostalAddress` gives the same parts (the legacy ones stay, deprecated). */
@Resolver(() => LegacyEstablishmentAddress)
export class LegacyEstablishmentAddressResolver {
  @FieldResolver(() => String, { nullable: true, description: "Postal code; null when not recorded." })
  postalCode(@Root() address: LegacyEstablishmentAddress): string | null {
    return address.zipCode ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: "City or town; null when not recorded." })
  locality(@Root() address: LegacyEstablishmentAddress): string | null {
    return address.city ?? null;
  }
}
