import type { GraphQLResolveInfo } from "graphql";
import { someField, readsBeyondKey } from "../../shared/graphql/index.js";

/**
 * Whether the operation reads more of an attribute's `definition` than its id, or its
 * `taxonomyLabels`, below the current field (through fragments, and through `_entities`' inline
 * fragments). Definitions and the labels a value names exist only embedded in attribute lists
 * (docs/interface.md#employee-attribute-definition), so only then is `include=embedded` asked for.
 */
export function readsDefinitionDetails(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) =>
    someField(
      node.selectionSet?.selections ?? [],
      info,
      (field) =>
        field.name.value === "taxonomyLabels" || (field.name.value === "definition" && readsBeyondKey(field.selectionSet?.selections ?? [], info)),
    ),
  );
}
