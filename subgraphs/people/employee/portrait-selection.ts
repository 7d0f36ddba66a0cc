import type { GraphQLResolveInfo, SelectionNode } from "graphql";
import { someField } from "../../shared/graphql/index.js";

/** the portrait's fields that answer its link, read from the employee's links (`url` is the deprecated alias) */
const ADDRESS_FIELDS = new Set(["downloadUrl", "url"]);

/**
 * Whether the operation reads a portrait's download address anywhere below the current field
 * (`employee(id) { portrait { downloadUrl } }`, `employees { nodes { portrait { downloadUrl } } }`),
 * through fragments too: then the employees are read with their links (`include=links`, see
 * `employeeLoaderFor` in loaders.ts and portrait.ts).
 */
export function readsPortraitAddress(info: GraphQLResolveInfo): boolean {
  // asked for every reference of a list: graphql-js hands each item the same fieldNodes array
  const known = readsAddressBelow.get(info.fieldNodes);
  if (known !== undefined) return known;
  const below = (selections: readonly SelectionNode[]): boolean =>
    someField(selections, info, (field) =>
      field.name.value === "portrait"
        ? someField(field.selectionSet?.selections ?? [], info, (inner) => ADDRESS_FIELDS.has(inner.name.value))
        : below(field.selectionSet?.selections ?? []),
    );
  const reads = info.fieldNodes.some((node) => below(node.selectionSet?.selections ?? []));
  readsAddressBelow.set(info.fieldNodes, reads);
  return reads;
}

const readsAddressBelow = new WeakMap<GraphQLResolveInfo["fieldNodes"], boolean>();

/** The `include` members of an employee read for this operation: `links` when it reads a portrait address. */
export function employeeIncludes(info: GraphQLResolveInfo): string[] {
  return readsPortraitAddress(info) ? ["links"] : [];
}
