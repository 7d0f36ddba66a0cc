import { getArgumentValues, getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo, type SelectionNode } from "graphql";

/**
 * What a root field's prefetch (people's and legacy-time's `employee(id:)`, docs/performance.md#batching-rules)
 * works from: the fields the operation selects of the object the root returns, each field's
 * arguments as its resolver gets them, and how a read is started for a field that will ask for
 * it. Null when the root returns no object type.
 */
export interface PrefetchScope {
  /** the fields selected of the returned object, by name (a field under two aliases has two nodes) */
  fields: Map<string, FieldNode[]>;
  /** a selected field's arguments, with their defaults, as its resolver gets them */
  args(node: FieldNode): Record<string, any>;
  /** the resolve info of a selected field, for what reads the field's own selection */
  childInfo(node: FieldNode): GraphQLResolveInfo;
  /**
   * starts a read, reporting nothing: a prefetch's failure is not its own, the field that reads
   * the same loader reports it (and a field whose arguments are refused says so itself)
   */
  start(read: () => Promise<unknown>): void;
}

export function prefetchScope(info: GraphQLResolveInfo): PrefetchScope | null {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return null;
  return {
    fields: selectedFields(info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []), info),
    args(node) {
      const def = type.getFields()[node.name.value];
      return def ? getArgumentValues(def, node, info.variableValues) : {};
    },
    childInfo: (node) => ({ ...info, fieldNodes: [node] }),
    start(read) {
      try {
        void read().catch(() => undefined);
      } catch {
        // refused arguments: the field says so
      }
    },
  };
}

/** The fields selected at this level of a selection set, by name, through inline fragments and fragment spreads. */
function selectedFields(selections: readonly SelectionNode[], info: GraphQLResolveInfo, into = new Map<string, FieldNode[]>()): Map<string, FieldNode[]> {
  for (const sel of selections) {
    if (sel.kind === "Field") into.set(sel.name.value, [...(into.get(sel.name.value) ?? []), sel]);
    else if (sel.kind === "InlineFragment") selectedFields(sel.selectionSet.selections, info, into);
    else {
      const fragment = info.fragments[sel.name.value];
      if (fragment) selectedFields(fragment.selectionSet.selections, info, into);
    }
  }
  return into;
}
