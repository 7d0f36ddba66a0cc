import { Directive, Field, ID, ObjectType, registerEnumType } from "type-graphql";
import { connectionType, DateTimeScalar } from "../../shared/graphql/index.js";

/** REST `term`; the values are the REST values, so payloads resolve without mapping. */
export enum EmploymentTerm {
  PERMANENT = "permanent",
  FIXED = "fixed",
}
registerEnumType(EmploymentTerm, { name: "EmploymentTerm", description: "Whether an employment is open-ended or fixed-term." });

@ObjectType("EmploymentTemplate", { description: "A kind of employment (work contract, internship, contractor agreement...)." })
@Directive('@key(fields: "id")')
export class EmploymentTemplate {
  @Field(() => ID)
  id!: string;

  @Field(() => EmploymentTerm)
  term!: EmploymentTerm;

  @Field(() => String, { description: "Who the template is meant for; its values are not fixed by the interface." })
  audience!: string;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const EmploymentTemplateConnection = connectionType("EmploymentTemplate", EmploymentTemplate);
