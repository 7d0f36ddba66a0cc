import type { GraphQLResolveInfo, SelectionNode } from "graphql";
import { readsBeyondKey } from "../common/selection.js";

/**
 * Whether the operation reads more of an attribute's `definition` than its id below the current
 * field (through fragments, and through `_entities`' inline fragments). Definitions exist only
 * embedded in attribute lists (INTERFACE.md), so only then is `include=embedded` asked for.
 */
export function readsDefinitionDetails(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => definitionSelections(node.selectionSet?.selections ?? [], info).some((sel) => readsBeyondKey(sel, info)));
}

function definitionSelections(selections: readonly SelectionNode[], info: GraphQLResolveInfo): SelectionNode[][] {
  const found: SelectionNode[][] = [];
  for (const sel of selections) {
    if (sel.kind === "Field") {
      if (sel.name.value === "definition") found.push([...(sel.selectionSet?.selections ?? [])]);
    } else if (sel.kind === "InlineFragment") {
      found.push(...definitionSelections(sel.selectionSet.selections, info));
    } else {
      const fragment = info.fragments[sel.name.value];
      if (fragment) found.push(...definitionSelections(fragment.selectionSet.selections, info));
    }
  }
  return found;
}
