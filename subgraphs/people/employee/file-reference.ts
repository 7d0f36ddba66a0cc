import { Ctx, Field, FieldResolver, ID, ObjectType, Resolver, Root } from "type-graphql";
import { URLScalar, type SubgraphContext } from "../../shared/graphql/index.js";
import type { RestRef } from "../rest.js";

/**
 * A file of the directory (a portrait, an employment's or a job position's document). Files have
 * no read operation in the interface, so they stay a value: the reference's id, and a file link of
 * the facade (docs/security.md#file-links), never the directory's own address.
 */
@ObjectType({ description: "A file held by the directory service (portrait or document)." })
export class FileReference {
  @Field(() => ID)
  id!: string;
}

export function fileReference(ref: RestRef | null | undefined): FileReference | null {
  return ref ? { id: ref.id } : null;
}

@Resolver(() => FileReference)
export class FileReferenceResolver {
  @FieldResolver(() => URLScalar, {
    nullable: true,
    description:
      "A short-lived link to the file through this service (it expires within minutes: read the field again rather than storing it). " +
      "Fetched with the caller's rights: in forward mode, send the caller's bearer token with it.",
  })
  downloadUrl(@Root() file: FileReference, @Ctx() ctx: SubgraphContext): string | null {
    return ctx.files?.link({ kind: "current", id: file.id }) ?? null;
  }

  @FieldResolver(() => String, {
    description: "The same link as downloadUrl, as a String.",
    deprecationReason: "Use `downloadUrl` (typed URL). This field no longer answers the directory's own address.",
  })
  url(@Root() file: FileReference, @Ctx() ctx: SubgraphContext): string {
    const link = this.downloadUrl(file, ctx);
    if (link === null) throw new Error("no file link outside a server");
    return link;
  }
}
