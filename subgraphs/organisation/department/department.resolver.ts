import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Query, Resolver, Root } from "type-graphql";
import { filterArgs, type FilterArgs, RestFilter, listConnection, readsBeyondKey, requiredId, selects, someField, type SubgraphContext } from "../../shared/graphql/index.js";
import { Employee } from "../employee/employee.js";
import { departmentLoader } from "../loaders.js";
import type { RestDepartment } from "../rest.js";
import { Department, DepartmentConnection, DepartmentFilter } from "./department.js";

/**
 * The tree edges. `/departments` has no `parent.id` filter, so `children` reads the whole
 * collection (once per request, shared by every department of the request); `parent` is a
 * reference through the loader. `ancestors` needs (level - 1) parents: up to one read goes
 * through the loader, deeper chains read the whole collection once instead of climbing one
 * round trip per level.
 */
const DepartmentListArgs = filterArgs(DepartmentFilter);

@Resolver(() => Department)
export class DepartmentResolver {
  @Query(() => Department, { nullable: true, description: "One department; null when it does not exist." })
  department(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<RestDepartment | null> {
    const loader = departmentLoader(ctx);
    // the department and the ones its parent, children or ancestors name, from one page of the
    // collection read at once (one call and one round while it fits a page, instead of two of each)
    if (selects(info, "children") || selects(info, "ancestors") || someField(info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []), info, (f) => f.name.value === "parent" && readsBeyondKey(f.selectionSet?.selections ?? [], info))) {
      loader.warm();
    }
    return loader.load(requiredId(id));
  }

  @Query(() => DepartmentConnection, { nullable: true, description: "Departments, ordered by id." })
  departments(
    @Args(() => DepartmentListArgs) { filter, first, after }: FilterArgs<DepartmentFilter>,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    const query = new RestFilter().search("search", "search", filter?.search, { trim: true }).boolean("isArchived", filter?.isArchived).query;
    return listConnection(ctx, info, "/departments", query, { first, after }, departmentLoader(ctx));
  }

  @FieldResolver(() => Department, { nullable: true, description: "The department above this one; null for a root." })
  parent(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<RestDepartment | null> | null {
    const id = department.parent?.id;
    return id ? departmentLoader(ctx).load(id) : null;
  }

  @FieldResolver(() => [Department], { nullable: true, description: "The departments directly below this one, ordered by id." })
  async children(
    @Root() department: RestDepartment,
    @Arg("isArchived", () => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
    isArchived: boolean | null,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestDepartment[]> {
    const all = await departmentLoader(ctx).all();
    return all.filter((d) => d.parent?.id === department.id && (isArchived === null || isArchived === undefined || d.isArchived === isArchived));
  }

  @FieldResolver(() => [Department], { nullable: true, description: "The departments above this one, the root first; [] for a root." })
  async ancestors(@Root() department: RestDepartment, @Ctx() ctx: SubgraphContext): Promise<RestDepartment[]> {
    const loader = departmentLoader(ctx);
    if (!department.parent?.id) return [];
    // once the collection is read, every load below is answered from it without a call
    if (department.level > 2) await loader.all();
    const chain: RestDepartment[] = [];
    const seen = new Set([department.id]);
    for (let id: string | undefined = department.parent.id; id && !seen.has(id); ) {
      seen.add(id);
      const parent: RestDepartment | null = await loader.load(id);
      if (!parent) break;
      chain.push(parent);
      id = parent.parent?.id;
    }
    return chain.reverse();
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The head of the department; null when it has none or the caller may not read them." })
  manager(@Root() department: RestDepartment): Employee | null {
    return department.manager?.id ? { id: department.manager.id } : null;
  }
}
