import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { connectionType } from "../../shared/graphql/index.js";

@ObjectType("Department", { description: "A node of the department tree (up to 9 levels, up to 99 children per parent)." })
@Directive('@key(fields: "id")')
export class Department {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true, description: "Identifier in a third-party system." })
  remoteId!: string | null;

  @Field(() => Boolean)
  isArchived!: boolean;

  @Field(() => Int, { description: "Depth in the tree: 1 for a root department." })
  level!: number;

  @Field(() => String, { description: "The application that owns this department's data." })
  owningApplication!: string;
}

export const DepartmentConnection = connectionType("Department", Department);

@InputType("DepartmentFilter", { description: "Filters of the department list; all given filters apply together." })
export class DepartmentFilter {
  @Field(() => String, { nullable: true, description: "Name search: every word must start a word of the name." })
  search?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both." })
  isArchived?: boolean | null;
}
