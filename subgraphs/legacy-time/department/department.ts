import { Directive, Field, ID, ObjectType } from "type-graphql";

/** A department (owned by the organisation subgraph); legacy-time contributes its legacy fields. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Department {
  @Field(() => ID)
  id!: string;
}

/**
 * The legacy API's view of a department, grouped under `Department.legacy` so that none of its
 * names can clash with the organisation subgraph's department fields. The legacy
 * `/api/v3/departments` stopped answering in September 2026: every field is now derived from the
 * current API's department (`/departments`, the object this type resolves from), its tree and its
 * employees (department.resolver.ts; docs/interface.md#legacy-department).
 */
@ObjectType({ description: "A department as the legacy API saw it, now derived from the current API's department." })
export class LegacyDepartment {
  @Field(() => String)
  name!: string;
  // the other fields are field resolvers (department.resolver.ts), in the order the legacy API wrote them
}
