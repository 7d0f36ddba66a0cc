import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from "type-graphql";
import { ref } from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { BusinessEstablishment } from "../business-establishment/business-establishment.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { Employment } from "../employment/employment.js";
import { workContractLoader, guarded } from "../loaders.js";
import type { RestWorkContract } from "../rest.js";
import { WorkContract } from "./work-contract.js";

@Resolver(() => WorkContract)
export class WorkContractResolver {
  @Query(() => WorkContract, { nullable: true, description: "A legacy work contract by id (the employment's id); null when there is none." })
  workContract(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestWorkContract | null> {
    return readWorkContract(ctx, id);
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

  @FieldResolver(() => Int, { nullable: true, description: "The socio-professional category (legacy `spcId`)." })
  socioProfessionalCategoryId(@Root() contract: RestWorkContract): number | null {
    return contract.spcId ?? null;
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
  return guarded(ctx, String(contract.ownerId), async () => contract);
}
