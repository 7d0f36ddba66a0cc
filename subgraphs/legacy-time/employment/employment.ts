import { Directive, Field, ID, ObjectType } from "type-graphql";
import { Employee, type EmployeeRef } from "../employee/employee.js";

/**
 * An employment (owned by the people subgraph). Its legacy work contract carries the same id,
 * but the work-contract list can only be filtered by owner: `employee` is declared `@external`
 * so that `workContract` can `@require` the owner's id from the people subgraph and batch by
 * owner (employment.resolver.ts).
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Employment {
  @Field(() => ID)
  id!: string;

  @Field(() => Employee, { nullable: true })
  @Directive("@external")
  employee?: EmployeeRef | null;
}

/** An employment as the gateway sends it: its key, and the owner when `workContract` is asked for. */
export interface EmploymentRef {
  id: string;
  employee?: EmployeeRef | null;
}
