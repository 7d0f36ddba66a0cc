import { Directive, Field, ID, InputType, ObjectType, registerEnumType } from "type-graphql";
import { badUserInput, connectionType, DateScalar, DateTimeScalar, JSONScalar } from "../../shared/graphql/index.js";
import { DateRange, RestFilter } from "../../shared/graphql/index.js";
import { listArgs, type ListArgs } from "../../shared/graphql/index.js";

/**
 * The definition of an employee attribute. The interface has no read of definitions: they exist
 * only embedded in attribute lists, so this is a value of the attribute, not an entity.
 */
@ObjectType({ description: "The definition of an employee attribute: its name and the JSON Schema of its values." })
export class EmployeeAttributeDefinition {
  @Field(() => ID, { description: "A string such as a dotted name." })
  id!: string;

  @Field(() => String, { nullable: true })
  multipleValueHandling!: string | null;

  @Field(() => JSONScalar, { description: "JSON Schema 2020-12 document describing the value." })
  schema!: unknown;

  @Field(() => JSONScalar)
  propertyDescriptions!: unknown;

  @Field(() => Boolean)
  isArchived!: boolean;

  @Field(() => DateTimeScalar, { nullable: true })
  lastArchivedAt!: string | null;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

@ObjectType({ description: "The time window in which a value applies; a null bound is open." })
export class EmployeeAttributeApplicability {
  @Field(() => DateScalar, { nullable: true, description: "null: since the beginning of time." })
  start!: string | null;

  @Field(() => DateScalar, { nullable: true, description: "null: until the end of time." })
  end!: string | null;
}

/** One value of an extensible employee attribute (REST `employee-attribute`). */
@ObjectType({ description: "One value of an extensible employee attribute." })
@Directive('@key(fields: "id")')
export class EmployeeAttribute {
  @Field(() => ID)
  id!: string;

  @Field(() => EmployeeAttributeApplicability, {
    nullable: true,
    description: "Both bounds null (or no window): the value applies indefinitely.",
  })
  applicability!: EmployeeAttributeApplicability | null;

  @Field(() => JSONScalar, { nullable: true })
  value!: unknown;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const EmployeeAttributeConnection = connectionType("EmployeeAttribute", EmployeeAttribute);

export enum EmployeeAttributeSort {
  ID_ASC = "id",
  ID_DESC = "-id",
  CREATED_AT_ASC = "createdAt",
  CREATED_AT_DESC = "-createdAt",
  VALUE_ASC = "value",
  VALUE_DESC = "-value",
  DEFINITION_ID_ASC = "definition.id",
  DEFINITION_ID_DESC = "-definition.id",
}
registerEnumType(EmployeeAttributeSort, { name: "EmployeeAttributeSort" });

@InputType({ description: "A condition on one property of object values." })
export class EmployeeAttributeValuePropertyFilter {
  @Field(() => String, { description: "The property name, e.g. size for value.size." })
  property!: string;

  @Field(() => JSONScalar, { nullable: true, description: "The property equals this value." })
  equals?: unknown;

  @Field(() => JSONScalar, { nullable: true, description: "The property differs from this value." })
  notEquals?: unknown;
}

@InputType({ description: "Filters of the employee-attribute list; all given filters must match." })
export class EmployeeAttributeFilter {
  @Field(() => [ID], { nullable: true })
  ids?: string[] | null;

  @Field(() => [ID], { nullable: true })
  definitionIds?: string[] | null;

  @Field(() => [ID], { nullable: true })
  employeeIds?: string[] | null;

  @Field(() => DateScalar, { nullable: true, description: "Attributes applicable on this date (null window bounds are open)." })
  asOf?: string | null;

  @Field(() => JSONScalar, { nullable: true, description: "The value equals this one." })
  value?: unknown;

  @Field(() => JSONScalar, { nullable: true, description: "The value differs from this one." })
  valueNot?: unknown;

  @Field(() => [EmployeeAttributeValuePropertyFilter], { nullable: true })
  valueProperties?: EmployeeAttributeValuePropertyFilter[] | null;

  @Field(() => DateRange, { nullable: true })
  lastUpdatedAtBetween?: DateRange | null;
}

/** The arguments of the lists of attribute values: `employeeAttributes`. */
export const EmployeeAttributeListArgs = listArgs(EmployeeAttributeFilter, EmployeeAttributeSort);
export type EmployeeAttributeListArgs = ListArgs<EmployeeAttributeFilter, EmployeeAttributeSort>;

/**
 * The REST filters of `/employee-attributes` (docs/interface.md#employee-attribute) for a filter input. Values are sent
 * as JSON, which the directory reads as JSON first (`"42"` is the text, `42` the number).
 */
export function employeeAttributeQuery(filter: EmployeeAttributeFilter | null | undefined, argument = "filter"): Record<string, string> {
  const f = filter ?? {};
  const builder = new RestFilter(argument)
    .strings("id", "ids", f.ids)
    .strings("definition.id", "definitionIds", f.definitionIds)
    .strings("employee.id", "employeeIds", f.employeeIds)
    .value("applicability.asOf", f.asOf)
    .range("lastUpdatedAt.between", "lastUpdatedAtBetween", f.lastUpdatedAtBetween);
  const query = builder.query;
  // an explicit null is a value to compare with; an absent field does not filter
  if (f.value !== undefined) query.value = JSON.stringify(f.value);
  if (f.valueNot !== undefined) query["-value"] = JSON.stringify(f.valueNot);
  const seen = new Set<string>();
  for (const [index, condition] of (f.valueProperties ?? []).entries()) {
    const field = `${argument}.valueProperties[${index}]`;
    const path = condition.property.split(".");
    if (path.some((segment) => segment.trim() === "")) {
      throw badUserInput(`${field}.property must be a property name or a dotted path, got "${condition.property.slice(0, 40)}"`, field);
    }
    if (seen.has(condition.property)) throw badUserInput(`${field}.property "${condition.property}" is given twice`, field);
    seen.add(condition.property);
    if (condition.equals === undefined && condition.notEquals === undefined) {
      throw badUserInput(`${field} needs equals or notEquals`, field);
    }
    if (condition.equals !== undefined) query[`value.${condition.property}`] = JSON.stringify(condition.equals);
    if (condition.notEquals !== undefined) query[`-value.${condition.property}`] = JSON.stringify(condition.notEquals);
  }
  return query;
}
