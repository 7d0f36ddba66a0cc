import { Ctx, FieldResolver, Int, Resolver, Root } from "type-graphql";
import { formerName } from "../../shared/graphql/index.js";
import { compareText, isLegacyId, loadEvery } from "../../shared/upstream/index.js";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import type { RestDepartment } from "../../shared/organisation/departments.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { departmentLoader, departmentMembersLoader, departmentPlaces, type DepartmentMember } from "../loaders.js";
import { Department, LegacyDepartment } from "./department.js";

/** Why a field kept from the legacy department has no faithful source any more. */
const LEGACY_SOURCE_GONE = "the legacy `/api/v3/departments` stopped answering in September 2026 and the current API has no `code`";

@Resolver(() => Department)
export class DepartmentResolver {
  @FieldResolver(() => LegacyDepartment, {
    nullable: true,
    description: "The legacy API's view of the department, derived from the current API's department; null when it has none.",
  })
  async legacy(@Root() department: { id: string }, @Ctx() ctx: SubgraphContext): Promise<RestDepartment | null> {
    // the legacy view is of integer ids only, as the legacy API's were
    if (!isLegacyId(department.id)) return null;
    // in forward mode the caller's own token reads the department: no separate check of the caller
    return departmentLoader(ctx).load(department.id);
  }
}

@Resolver(() => LegacyDepartment)
export class LegacyDepartmentResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: "The department's legacy code; now the current API's `remoteId`, the closest source.",
    deprecationReason: `Use \`remoteId\`: ${LEGACY_SOURCE_GONE}; production does not document the legacy code as \`remoteId\`, the closest one, which this answers.`,
  })
  code(@Root() department: RestDepartment): string | null {
    return department.remoteId;
  }

  @FieldResolver(() => String, { nullable: true, description: "Identifier in a third-party system (the current API's `remoteId`, as `Department.remoteId`)." })
  remoteId(@Root() department: RestDepartment): string | null {
    return department.remoteId;
  }

  @FieldResolver(() => String, {
    description: "The path of department ids from the root, e.g. /1/4/9/, from the current API's parents (the whole tree, once per operation).",
  })
  async hierarchy(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<string> {
    return (await departmentPlaces(ctx)).get(department.id)?.hierarchy ?? `/${department.id}/`;
  }

  @FieldResolver(() => Int, { description: "1 for a root department (the current API's `level`)." })
  level(@Root() department: RestDepartment): number {
    return department.level;
  }

  @FieldResolver(() => Boolean, { description: "Whether the department is not archived (the current API's `isArchived`, negated)." })
  isActive(@Root() department: RestDepartment): boolean {
    return !department.isArchived;
  }

  @FieldResolver(() => Department, { nullable: true })
  parent(@Root() department: RestDepartment): { id: string } | null {
    return idRef(department.parent?.id);
  }

  @FieldResolver(() => Int, { name: "position", description: "1-based rank among its siblings (the legacy `sortOrder`: the current API's 0-based `sortOrder` plus one)." })
  siblingRank(@Root() department: RestDepartment): number {
    return department.sortOrder + 1;
  }

  @FieldResolver(() => Int, {
    name: "sortOrder",
    description:
      "1-based rank in a depth-first walk of the whole tree, siblings by their rank (the rank of the legacy `position`, the department's general position); the current API's whole collection, once per operation.",
  })
  async treeRank(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<number> {
    return (await departmentPlaces(ctx)).get(department.id)!.treeRank;
  }

  @FieldResolver(() => Employee, { nullable: true, ...formerName("manager", "as `Department.manager`, the same person.") })
  head(@Root() department: RestDepartment): EmployeeRef | null {
    return idRef(department.manager?.id);
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The head of the department; null when it has none." })
  manager(@Root() department: RestDepartment): EmployeeRef | null {
    return idRef(department.manager?.id);
  }

  @FieldResolver(() => [Employee], {
    nullable: true,
    description:
      "The people whose applicable job position is in the department, whatever their status, ordered by id (in forward mode: those the caller can read). One call per 100 departments of the operation.",
  })
  async users(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<EmployeeRef[]> {
    return members(await membersOf(ctx, department));
  }

  @FieldResolver(() => [Employee], { nullable: true, description: "The users active today (in forward mode: those the caller can read); the same read as `users`." })
  async currentUsers(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<EmployeeRef[]> {
    return members((await membersOf(ctx, department)).filter((m) => m.status === "active"));
  }
}

async function membersOf(ctx: SubgraphContext, department: RestDepartment): Promise<readonly DepartmentMember[]> {
  const [found] = await loadEvery(departmentMembersLoader(ctx), [department.id]);
  return found ?? [];
}

function members(list: readonly DepartmentMember[]): EmployeeRef[] {
  return [...list].sort((a, b) => Number(a.id) - Number(b.id) || compareText(a.id, b.id)).map((m) => ({ id: m.id }));
}

/** A reference from a current API reference's id; null for none. */
function idRef(id: string | null | undefined): { id: string } | null {
  return id ? { id } : null;
}
