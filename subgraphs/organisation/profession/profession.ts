import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { connectionType } from "../../shared/graphql/index.js";

@ObjectType("Profession", { description: "A profession: what the qualification levels of job positions rank within." })
@Directive('@key(fields: "id")')
export class Profession {
  @Field(() => ID)
  id!: string;

  @Field(() => Boolean, { description: "Whether the profession is archived (kept for past job positions, not offered for new ones)." })
  isArchived!: boolean;
}

export const ProfessionConnection = connectionType("Profession", Profession);

@InputType("ProfessionFilter", { description: "Filters of the profession list; all given filters apply together." })
export class ProfessionFilter {
  @Field(() => Boolean, { nullable: true, description: "true: archived only; false: non-archived only; omitted: both (`isArchived`)." })
  isArchived?: boolean | null;
}
