import { Directive, Field, ObjectType } from "type-graphql";

/** `{format, value}` identifiers of the REST interface (insurance numbers, tax ids, industry codes). */
@ObjectType({ description: "An identifier whose validation depends on its format (e.g. frenchSSN, franceSIREN)." })
@Directive("@shareable")
export class FormattedIdentifier {
  @Field(() => String)
  format!: string;

  @Field(() => String)
  value!: string;
}
