import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * A person of the directory, owned by the people subgraph. legacy-time contributes what only the
 * legacy API knows about the person: legacy user, work contracts and time entries
 * (employee.resolver.ts). The legacy user of the same id is the same person.
 *
 * It also serves the employee's names, shared with people (`@shareable`), and `employee(id:)`:
 * an operation that reads of one employee only its id, its names and legacy data is one fetch of
 * this subgraph under any Federation 2 router (docs/graph.md#what-a-company-router-gets).
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Employee {
  @Field(() => ID)
  id!: string;

  // the same field as people's, answered from the current API's employee (employee.resolver.ts)
  @Directive("@shareable")
  @Field(() => String)
  givenName!: string;

  @Directive("@shareable")
  @Field(() => String)
  familyName!: string;
}

/** What this subgraph holds of an employee: its key, and its names when it read the employee. */
export interface EmployeeRef {
  id: string;
  givenName?: string;
  familyName?: string;
}
