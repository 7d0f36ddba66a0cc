import DataLoader from "dataloader";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, ArgsType, Ctx, Directive, Field, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { DateScalar, LocalDateTimeScalar, PageArgs, RestFilter, connectionType, renamedFrom, replacedByEdge, cursorScope, ref, selects, type ConnectionResult } from "../../shared/graphql/index.js";
import { asError, isLegacyId, loadEvery, type QueryParams } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { EmploymentTemplate } from "../employment-template/employment-template.js";
import { OccupationCategory } from "../occupation-category/occupation-category.js";
import { legacyConnection, legacyListConnection, legacyStart } from "../connections.js";
import { WORK_CONTRACTS_PATH, archivedWorkContractsByOwnerLoader, employmentOwnerLoader, workContractLoader, workContractReference } from "../loaders.js";
import { contractOfEmployment } from "../../shared/legacy/work-contracts.js";
import { LegacyReference } from "../legacy-user/legacy-reference.js";
import { loadIfVisible } from "../visibility.js";
import type { RestCurrentEmployment, RestWorkContract } from "../rest.js";
import { WorkContract, WorkContractFilter } from "./work-contract.js";

export const WorkContractConnection = connectionType("WorkContract", WorkContract);

@ArgsType()
export class WorkContractsArgs extends PageArgs {
  @Field(() => WorkContractFilter, { nullable: true })
  filter?: WorkContractFilter | null;
}

/**
 * The REST query of a work-contract filter (docs/interface.md#legacy-work-contract), checked
 * before any upstream call; null when it matches nothing (an empty id list). `isArchived` left
 * out asks for both, as the list does.
 */
export function workContractQuery(filter: WorkContractFilter | null | undefined): QueryParams | null {
  const f = filter ?? {};
  const rest = new RestFilter()
    .strings("ownerId", "ownerIds", f.ownerIds, { allowEmpty: true, keep: isLegacyId })
    .strings("typeId", "typeIds", f.typeIds, { allowEmpty: true, keep: isLegacyId })
    .strings("establishmentId", "establishmentIds", f.establishmentIds, { allowEmpty: true, keep: isLegacyId })
    .boolean("isApplicable", f.isApplicable)
    .boolean("isArchived", f.isArchived);
  return rest.matchesNothing ? null : rest.query;
}

@Resolver(() => WorkContract)
export class WorkContractResolver {
  @Query(() => WorkContract, { nullable: true, description: "A legacy work contract by id (the employment's id); null when there is none." })
  workContract(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    return readWorkContract(ctx, id);
  }

  @Query(() => WorkContractConnection, {
    nullable: true,
    description:
      "The legacy work contracts with the filters, in the directory's order. In forward mode, only the contracts of employees the caller can read. One call per page (at times two).",
  })
  async workContracts(
    @Args(() => WorkContractsArgs) args: WorkContractsArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionResult<RestWorkContract>> {
    const query = workContractQuery(args.filter);
    // a filter that matches nothing binds its cursors to no list: only a cursor of this filter resumes it
    const binding = { signer: ctx.upstream.cursors, scope: cursorScope(WORK_CONTRACTS_PATH, query ?? { ownerId: "" }) };
    if (query === null) return legacyConnection<RestWorkContract>([], legacyStart(args.after, binding), binding, { hasNextPage: false, totalCount: 0 });
    return legacyListConnection<RestWorkContract>(ctx, WORK_CONTRACTS_PATH, query, args, { binding, withCount: selects(info, "totalCount") });
  }

  // the names before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md);
  // the methods have other names than the fields: WorkContract's properties already have the old ones
  @FieldResolver(() => DateScalar, { name: "trialPeriodEndDate", nullable: true, ...renamedFrom("trialPeriodEndsOn", "as every date is `…On`.") })
  trialPeriodEndDateAlias(@Root() contract: RestWorkContract): string | null {
    return contract.trialPeriodEndDate;
  }

  @FieldResolver(() => DateScalar, { name: "trialPeriodEndDate2", nullable: true, ...renamedFrom("renewedTrialPeriodEndsOn", 'as every date is `…On` and "2" said nothing.') })
  trialPeriodEndDate2Alias(@Root() contract: RestWorkContract): string | null {
    return contract.trialPeriodEndDate2;
  }

  @FieldResolver(() => Employee, { nullable: true })
  owner(@Root() contract: RestWorkContract): EmployeeRef {
    return ref(contract.ownerId)!;
  }

  @FieldResolver(() => Employment, { nullable: true, description: "The employment this contract is the legacy view of." })
  employment(@Root() contract: RestWorkContract): { id: string } {
    return ref(contract.id)!;
  }

  @FieldResolver(() => BusinessEstablishment, { nullable: true })
  establishment(@Root() contract: RestWorkContract): { id: string } | null {
    return ref(contract.establishmentId);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description:
      "Whether the contract is archived: ended, of an employee with no employment today or to come. One call per 100 owners of the operation's contracts.",
  })
  async isArchived(@Root() contract: RestWorkContract, @Ctx() ctx: SubgraphContext): Promise<boolean> {
    const archived = await archivedWorkContractsByOwnerLoader(ctx).load(String(contract.ownerId));
    return archived.some((c) => c.id === contract.id);
  }

  @FieldResolver(() => Int, { nullable: true, ...replacedByEdge("occupationCategory") })
  socioProfessionalCategoryId(@Root() contract: RestWorkContract): number | null {
    return contract.spcId ?? null;
  }

  // the edges of the ids the contract carries: key-only references the organisation subgraph
  // resolves, one call per list for every contract of the operation (its loaders)
  @FieldResolver(() => EmploymentTemplate, {
    nullable: true,
    description: "The employment template of the contract: it decides which optional properties are required (legacy `typeId`).",
  })
  template(@Root() contract: RestWorkContract): { id: string } | null {
    return ref(contract.typeId);
  }

  @FieldResolver(() => OccupationCategory, {
    nullable: true,
    description: "The socio-professional category of the job position in force (legacy `spcId`); null when none is recorded.",
  })
  occupationCategory(@Root() contract: RestWorkContract): { id: string } | null {
    return ref(contract.spcId);
  }

  // the entries of the legacy reference lists the contract names by id: each list read whole,
  // once per request (loaders.ts), whatever the number of contracts
  @FieldResolver(() => LegacyReference, { nullable: true, description: "How the person was hired (new hire, rehire, transfer...); null when not recorded. One call per operation." })
  hiringType(@Root() contract: RestWorkContract, @Ctx() ctx: SubgraphContext): Promise<LegacyReference | null> {
    return workContractReference(ctx, "hiringTypeId", contract.hiringTypeId);
  }

  @FieldResolver(() => LegacyReference, { nullable: true, description: "Why the contract ended (resignation, dismissal...); null while it runs or when not recorded. One call per operation." })
  terminationReason(@Root() contract: RestWorkContract, @Ctx() ctx: SubgraphContext): Promise<LegacyReference | null> {
    return workContractReference(ctx, "terminationReasonId", contract.terminationReasonId);
  }

  @FieldResolver(() => LegacyReference, {
    nullable: true,
    description: "The legal ground of a fixed-term contract (replacement, seasonal work...); null for other contracts. One call per operation.",
  })
  temporaryContractGround(@Root() contract: RestWorkContract, @Ctx() ctx: SubgraphContext): Promise<LegacyReference | null> {
    return workContractReference(ctx, "temporaryContractGroundId", contract.temporaryContractGroundId);
  }

  @FieldResolver(() => LocalDateTimeScalar)
  @Directive("@shareable")
  lastUpdatedAt(@Root() contract: RestWorkContract): string {
    return contract.lastModifiedAt;
  }

  @FieldResolver(() => Employee, { nullable: true })
  internshipSupervisor(@Root() contract: RestWorkContract): EmployeeRef | null {
    return ref(contract.internshipSupervisorId);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "Who created the contract." })
  author(@Root() contract: RestWorkContract): EmployeeRef {
    return ref(contract.authorId)!;
  }

  @FieldResolver(() => Employee, { nullable: true, description: "Who last changed the contract." })
  lastModifier(@Root() contract: RestWorkContract): EmployeeRef {
    return ref(contract.lastModifierId)!;
  }
}

/**
 * One work contract by id: a single read (the list has no id filter), served only when the
 * caller may see its owner. The owner is known only once the contract is read, so in forward
 * mode the check follows the read.
 */
export async function readWorkContract(ctx: SubgraphContext, id: string): Promise<RestWorkContract | null> {
  if (!isLegacyId(id)) return null;
  const contract = await workContractLoader(ctx).load(id);
  if (!contract) return null;
  return loadIfVisible(ctx, String(contract.ownerId), async () => contract);
}

/**
 * Work contracts by id for `_entities` (a router that reads, from legacy-time, a field of the
 * contract people's `Employment.workContract` does not provide; `nodes`): one alone is
 * `readWorkContract`; several are found through their employments, which carry the same ids:
 * the current API's employments by id with the caller's credentials (one call per 100), then
 * their owners' contracts (one list call per 100 owners), two calls however many. An id that no
 * employment the caller can read carries is read alone, as `readWorkContract` does.
 */
export const workContractByReferenceLoader = (ctx: SubgraphContext) =>
  ctx.loaders.get(
    "workContractByReference",
    () =>
      new DataLoader<string, RestWorkContract | null>(async (keys) => {
        const ids = keys.filter(isLegacyId);
        // each id read alone keeps its own outcome: one the caller may not see fails alone
        const alone = (id: string) => readWorkContract(ctx, id).catch(asError);
        if (ids.length <= 1) return Promise.all(keys.map((id) => (isLegacyId(id) ? alone(id) : null)));
        let employments: Map<string, RestCurrentEmployment>;
        try {
          const read = await loadEvery(employmentOwnerLoader(ctx), ids);
          employments = new Map(read.flatMap((employment, i) => (employment?.employee?.id ? [[ids[i]!, employment] as const] : [])));
        } catch (err) {
          return keys.map(() => asError(err));
        }
        // the owners' contracts, one list call per 100 owners (the loader batches them)
        return Promise.all(
          keys.map((id) => {
            if (!isLegacyId(id)) return null;
            const employment = employments.get(id);
            return employment ? contractOfEmployment(ctx, employment).catch(asError) : alone(id);
          }),
        );
      }),
  );
