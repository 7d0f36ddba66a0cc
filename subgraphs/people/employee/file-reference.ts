import { Field, ID, ObjectType } from "type-graphql";
import type { RestRef } from "../rest.js";

/**
 * A file of the directory (a portrait, an employment's or a job position's document). Files have
 * no read operation in the interface, so they stay a value: the reference's id and address.
 */
@ObjectType({ description: "A file held by the directory service (portrait or document)." })
export class FileReference {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The file's address in the directory service." })
  url!: string;
}

export function fileReference(ref: RestRef | null | undefined): FileReference | null {
  return ref ? { id: ref.id, url: ref.url } : null;
}
