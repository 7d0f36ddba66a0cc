import { Directive, Field, ID, ObjectType } from "type-graphql";

/**
 * A person of the directory, owned by the people subgraph. legacy-time contributes what only the
 * legacy API knows about the person: legacy user, work contracts and time entries
 * (employee.resolver.ts). The legacy user of the same id is the same person.
 */
@ObjectType()
@Directive('@key(fields: "id")')
export class Employee {
  @Field(() => ID)
  id!: string;
}

/** What this subgraph holds of an employee: its key. */
export interface EmployeeRef {
  id: string;
}
