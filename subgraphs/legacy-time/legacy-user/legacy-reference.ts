import { Field, Int, ObjectType } from "type-graphql";
import type { LegacyRef } from "../rest.js";

/**
 * A legacy reference to something the graph has no entity for (a role, a calendar, a leave
 * profile): the legacy `{id, name}` without its legacy API address.
 */
@ObjectType({ description: "A named item of the legacy API that the graph has no entity for (role, calendar, leave profile, hiring type...)." })
export class LegacyReference {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  name!: string;
}

export function legacyReference(ref: LegacyRef | null | undefined): LegacyReference | null {
  return ref ? { id: ref.id, name: ref.name } : null;
}
