import { Ctx, FieldResolver, Int, Resolver, Root } from "type-graphql";
import { formerName, ref } from "../../shared/graphql/index.js";
import { isLegacyId } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { legacyDepartmentLoader, legacyDepartmentTreeRanks } from "../loaders.js";
import { assertCaller, visibleIds } from "../visibility.js";
import { parentDepartmentId, type LegacyRef, type RestLegacyDepartment } from "../rest.js";
import { Department, LegacyDepartment } from "./department.js";

@Resolver(() => Department)
export class DepartmentResolver {
  @FieldResolver(() => LegacyDepartment, { nullable: true, description: "The legacy API's view of the department; null when it has none." })
  async legacy(@Root() department: { id: string }, @Ctx() ctx: SubgraphContext): Promise<RestLegacyDepartment | null> {
    if (!isLegacyId(department.id)) return null;
    const [, found] = await Promise.all([assertCaller(ctx), legacyDepartmentLoader(ctx).load(department.id)]);
    return found;
  }
}

@Resolver(() => LegacyDepartment)
export class LegacyDepartmentResolver {
  @FieldResolver(() => Department, { nullable: true })
  parent(@Root() department: RestLegacyDepartment): { id: string } | null {
    return ref(parentDepartmentId(department.parentId));
  }

  @FieldResolver(() => Int, { name: "position", description: "1-based rank among its siblings (the legacy `sortOrder`)." })
  siblingRank(@Root() department: RestLegacyDepartment): number {
    return department.sortOrder;
  }

  @FieldResolver(() => Int, {
    name: "sortOrder",
    description:
      "1-based rank in a depth-first walk of the whole tree (the rank of the legacy `position`, the department's general position); one call for every department of the operation.",
  })
  async treeRank(@Root() department: RestLegacyDepartment, @Ctx() ctx: SubgraphContext): Promise<number> {
    return (await legacyDepartmentTreeRanks(ctx)).get(department.id)!;
  }

  @FieldResolver(() => Employee, { nullable: true, ...formerName("manager", "as `Department.manager`, the same person.") })
  head(@Root() department: RestLegacyDepartment): EmployeeRef | null {
    return ref(department.headID ?? department.head?.id);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The head of the department; null when it has none." })
  manager(@Root() department: RestLegacyDepartment): EmployeeRef | null {
    return ref(department.headID ?? department.head?.id);
  }

  @FieldResolver(() => [Employee], {
    nullable: true,
    description: "The people whose applicable job position is in the department, whatever their status (in forward mode: those the caller can read).",
  })
  users(@Root() department: RestLegacyDepartment, @Ctx() ctx: SubgraphContext): Promise<EmployeeRef[]> {
    return visibleMembers(ctx, department.users);
  }

  @FieldResolver(() => [Employee], { nullable: true, description: "The users active today (in forward mode: those the caller can read)." })
  currentUsers(@Root() department: RestLegacyDepartment, @Ctx() ctx: SubgraphContext): Promise<EmployeeRef[]> {
    return visibleMembers(ctx, department.currentUsers);
  }
}

/** Member lists name employees: in forward mode only the ones the caller can read are listed. */
async function visibleMembers(ctx: SubgraphContext, members: readonly LegacyRef[] | null | undefined): Promise<EmployeeRef[]> {
  const ids = (members ?? []).map((m) => String(m.id));
  const visible = await visibleIds(ctx, ids);
  return ids.filter((id) => visible.has(id)).map((id) => ({ id }));
}
