import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * A person of the directory, owned by the people subgraph. legacy-time contributes what only the
 * legacy API knows about the person: legacy user, work contracts and time entries
 * (employee.resolver.ts). The legacy user of the same id is the same person.
 *
 * It also shares people's `employee(id:)`, which provides the employee's names (people's fields,
 * `@external` here): an operation that reads of one employee only its id, its names and legacy
 * data is one fetch of this subgraph under any Federation 2 router
 * (docs/performance.md#what-a-company-router-gets). Only that root provides them: a router still asks
 * people for the names of an employee any other field returns, with the others of its fetch.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Employee {
  @Field(() => ID)
  id!: string;

  // people's field, provided by `employee(id:)` (employee.resolver.ts) from the current API's employee
  @Directive("@external")
  @Field(() => String)
  givenName!: string;

  @Directive("@external")
  @Field(() => String)
  familyName!: string;
}

/** What this subgraph holds of an employee: its key. */
export interface EmployeeRef {
  id: string;
}
