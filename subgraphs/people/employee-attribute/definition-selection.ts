import type { GraphQLResolveInfo } from "graphql";
import { someField, readsBeyondKey } from "../../shared/graphql/index.js";

/**
 * Whether the operation reads more of an attribute's `definition` than its id below the current
 * field (through fragments, and through `_entities`' inline fragments). Definitions exist only
 * embedded in attribute lists (docs/interface.md#employee-attribute-definition), so only then is `include=embedded` asked for.
 */
export function readsDefinitionDetails(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) =>
    someField(
      node.selectionSet?.selections ?? [],
      info,
      (field) => field.name.value === "definition" && readsBeyondKey(field.selectionSet?.selections ?? [], info),
    ),
  );
}
