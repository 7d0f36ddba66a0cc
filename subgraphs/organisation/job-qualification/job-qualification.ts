import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { connectionType, DateTimeScalar } from "../../shared/graphql/index.js";

@ObjectType("JobQualification", { description: "A qualification level within a profession." })
@Directive('@key(fields: "id")')
export class JobQualification {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Int, { description: "Rank within the profession, >= 0." })
  rank!: number;

  @Field(() => DateTimeScalar)
  createdAt!: string;

  @Field(() => DateTimeScalar)
  lastUpdatedAt!: string;
}

export const JobQualificationConnection = connectionType("JobQualification", JobQualification);

@InputType("JobQualificationFilter", { description: "Filters of the job-qualification list; all given filters apply together." })
export class JobQualificationFilter {
  @Field(() => [Int], { nullable: true, description: "Ranks (at most 100, each >= 0): `rank`." })
  ranks?: number[] | null;

  @Field(() => [ID], { nullable: true, description: "Profession ids (at most 100): `profession.id`." })
  professionIds?: string[] | null;
}
