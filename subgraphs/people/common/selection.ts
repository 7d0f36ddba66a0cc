import type { GraphQLResolveInfo, SelectionNode } from "graphql";
import { someField } from "../../shared/graphql/index.js";

/**
 * Whether the operation reads anything of the current field's object besides its key (`id`,
 * `__typename`), through fragments too (a field under `@skip` counts as read, which only costs the
 * read it would have saved).
 */
export function selectsBeyondKey(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => readsBeyondKey(node.selectionSet?.selections ?? [], info));
}

/** The same for a selection set in hand (e.g. the selections of a field below the current one). */
export function readsBeyondKey(selections: readonly SelectionNode[], info: GraphQLResolveInfo): boolean {
  return someField(selections, info, (field) => field.name.value !== "id" && field.name.value !== "__typename");
}

/**
 * A reference field to an entity of this subgraph (`Employment.employee`, `JobPosition.manager`).
 * When the operation reads only the key — the gateway asks `employee { id }` to satisfy
 * `Employment.workContract @requires(fields: "employee { id }")` or to jump to another subgraph —
 * the REST reference already holds it, and the entity is not read. Otherwise the entity comes
 * through its loader: null when the directory does not know it or the caller may not see it.
 * (The id is in the REST payload the caller could read, so answering it reveals nothing more.)
 */
export function referenceTo<T>(
  ref: { id: string } | null | undefined,
  info: GraphQLResolveInfo,
  load: (id: string) => Promise<T | null>,
): Promise<T | null> | { id: string } | null {
  if (!ref) return null;
  return selectsBeyondKey(info) ? load(ref.id) : { id: ref.id };
}
