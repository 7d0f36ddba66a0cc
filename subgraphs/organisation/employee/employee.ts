import { Directive, Field, ID, ObjectType } from "type-graphql";

/** Owned by the people subgraph; this subgraph only points at it (`Department.manager`). */
@ObjectType("Employee")
@Directive('@key(fields: "id", resolvable: false)')
export class Employee {
  @Field(() => ID)
  id!: string;
}
