import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { LocalDateTimeScalar, renamedFrom, formerName } from "../../shared/graphql/index.js";

/**
 * A legacy axis section (`/api/v3/axisSections`): an analytical item attached to time entries,
 * such as a cost centre, a project or a task. Sections of an axis hang under sections of its
 * parent axis. Fields read as the REST payload names them; the translated name, the owner and the
 * parent/children edges are field resolvers (axis-section.resolver.ts).
 */
@ObjectType({ description: "An analytical item attached to time entries (cost centre, project, task...)." })
@Directive('@key(fields: "id")')
export class AxisSection {
  @Field(() => ID)
  id!: number;

  @Field(() => String)
  code!: string;

  @Field(() => Int, { description: "Id of the analytical axis the section belongs to (axes are no nodes of the graph); the sections of one axis share it." })
  axisId!: number;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => LocalDateTimeScalar, { name: "endsAt", nullable: true, description: "When the section closes; null when it does not (legacy `endOn`)." })
  endOn!: string | null;

  @Field(() => Boolean, formerName("isActive", "every boolean of the graph reads `is…` (`isPublic`, `LegacyDepartment.isActive`)."))
  active!: boolean;

  @Field(() => Boolean)
  isPublic!: boolean;
}

@InputType({ description: "Filters of the axis-section list; all given filters must match." })
export class AxisSectionFilter {
  @Field(() => [ID], { nullable: true, description: "At most 100." })
  ids?: string[] | null;

  @Field(() => [Int], { nullable: true, description: "At most 100." })
  axisIds?: number[] | null;
}

@InputType({ description: "The name of an axis section in one language." })
export class AxisSectionNameInput {
  @Field(() => String, { description: "A language tag such as en-US." })
  language!: string;

  @Field(() => String, { description: "Avoid [, ], |, / and \\." })
  text!: string;
}

/** A partial change of an axis section: fields left out keep their value. */
@InputType({ description: "The fields of an axis section to change; the others keep their value." })
export class AxisSectionInput {
  @Field(() => String, { nullable: true })
  code?: string | null;

  @Field(() => [AxisSectionNameInput], { nullable: true, description: "Replaces every translation of the name." })
  names?: AxisSectionNameInput[] | null;

  @Field(() => Int, { nullable: true })
  axisId?: number | null;

  @Field(() => String, { nullable: true, description: "null removes the description." })
  description?: string | null;

  @Field(() => ID, { nullable: true, description: "The owning employee; null for none." })
  ownerId?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "When the section closes; null: it does not close (legacy `endOn`)." })
  endsAt?: string | null;

  // the name before 0.1.0's renames, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => LocalDateTimeScalar, { nullable: true, ...renamedFrom("endsAt", "as every date-time is `…At`; giving both is refused.") })
  endOn?: string | null;

  @Field(() => Boolean, { nullable: true, description: "false closes the section to new time entries (rule 6)." })
  isActive?: boolean | null;

  @Field(() => Boolean, { nullable: true, ...formerName("isActive", "as `AxisSection.isActive`; giving both is refused.") })
  active?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isPublic?: boolean | null;

  @Field(() => ID, { nullable: true, description: "The parent section (in the parent axis); null for a section of a root axis." })
  parentId?: string | null;
}
