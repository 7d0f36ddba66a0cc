import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Resolver, Root } from "type-graphql";
import type { SubgraphContext } from "../../shared/graphql/index.js";
import { EmployeeConnection, EmployeeFilter, EmployeeSort } from "../employee/employee.js";
import { employeesOf } from "../employee/employee.resolver.js";
import { BusinessEstablishment } from "./business-establishment.js";

@Resolver(() => BusinessEstablishment)
export class BusinessEstablishmentResolver {
  @FieldResolver(() => EmployeeConnection, { description: "Employees whose applicable job position is in this establishment." })
  employees(
    @Root() establishment: BusinessEstablishment,
    @Arg("first", () => Int, { nullable: true }) first: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Arg("filter", () => EmployeeFilter, { nullable: true }) filter: EmployeeFilter | null,
    @Arg("sort", () => [EmployeeSort], { nullable: true }) sort: EmployeeSort[] | null,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return employeesOf(
      ctx,
      info,
      {
        id: establishment.id,
        filter: "applicableJobPosition.businessEstablishment.id",
        filterField: "businessEstablishmentIds",
        parentOf: (p) => p.businessEstablishment?.id,
      },
      { first, after, filter, sort },
    );
  }
}
