import { Directive, Field, InputType, ObjectType } from "type-graphql";
import { DateScalar } from "./scalars.js";

/** The date-range filter input of every subgraph (people's lists, legacy-time's users). */
@InputType({ description: "A range of dates, both bounds inclusive; a missing bound is open, and a range with neither bound does not filter." })
export class DateRange {
  @Field(() => DateScalar, { nullable: true })
  from?: string | null;

  @Field(() => DateScalar, { nullable: true })
  to?: string | null;
}

/** `{format, value}` identifiers of the REST interface (insurance numbers, tax ids, industry codes). */
@ObjectType({ description: "An identifier whose validation depends on its format (e.g. frenchSSN, franceSIREN)." })
@Directive("@shareable")
export class FormattedIdentifier {
  @Field(() => String)
  format!: string;

  @Field(() => String)
  value!: string;
}
