import { Directive, Field, ID, Int, ObjectType } from "type-graphql";

/** A department (owned by the organisation subgraph); legacy-time contributes its legacy fields. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Department {
  @Field(() => ID)
  id!: string;
}

/**
 * The legacy API's view of a department (`/api/v3/departments/{id}`), grouped under
 * `Department.legacy` so that none of its names can clash with the organisation subgraph's
 * department fields. References are field resolvers (department.resolver.ts).
 */
@ObjectType({ description: "A department as the legacy API sees it." })
export class LegacyDepartment {
  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  code!: string | null;

  @Field(() => String, { description: "The path of department ids from the root, e.g. /1/4/9/." })
  hierarchy!: string;

  @Field(() => Int, { description: "1 for a root department." })
  level!: number;

  @Field(() => Boolean)
  isActive!: boolean;
}
