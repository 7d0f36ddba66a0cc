import type { GraphQLResolveInfo, SelectionNode } from "graphql";
import { Ctx, Field, FieldResolver, ID, ObjectType, Resolver, Root } from "type-graphql";
import { someField, URLScalar, type SubgraphContext } from "../../shared/graphql/index.js";
import { employeeWithLinksLoader } from "../loaders.js";
import type { RestEmployee } from "../rest.js";

/**
 * An employee's portrait (docs/interface.md#employee): the `portrait` reference of the employee's
 * representation, and the file address of its `links.portrait`, which carries a `token` query
 * parameter so that a browser can show it (`<img src>`) without the bearer token.
 *
 * Where the address comes from, cheapest first:
 * - the employee was read with its links (`employee(id)`, `_entities`, the `employees` list ask
 *   `include=links` when the operation selects `downloadUrl`): no call at all;
 * - otherwise (an employee reached through an edge): the employees of the operation are read again
 *   with their links, one `/employees?id=` call per 100 employees.
 * The interface gives the address only: a content type or a file name would take a read of each
 * portrait (the interface has no list of them by id), so the graph offers neither.
 */
@ObjectType({ description: "An employee's portrait picture." })
export class Portrait {
  @Field(() => ID, { description: "Identifier of the portrait at the directory service." })
  id!: string;

  @Field(() => String, { description: "The portrait's own address at the directory service (its REST reference): it needs the bearer token." })
  url!: string;
}

/** The portrait reference with the employee it belongs to, to find the file address. */
export interface PortraitNode {
  id: string;
  url: string;
  employee: RestEmployee;
}

export function portraitOf(employee: RestEmployee): PortraitNode | null {
  return employee.portrait ? { id: employee.portrait.id, url: employee.portrait.url, employee } : null;
}

const ADDRESS_FIELD = "downloadUrl";

/**
 * Whether the operation reads a portrait's download address anywhere below the current field
 * (`employee(id) { portrait { downloadUrl } }`, `employees { nodes { portrait { downloadUrl } } }`),
 * through fragments too: then the employees are read with their links (`include=links`).
 */
export function readsPortraitAddress(info: GraphQLResolveInfo): boolean {
  const below = (selections: readonly SelectionNode[]): boolean =>
    someField(selections, info, (field) =>
      field.name.value === "portrait"
        ? someField(field.selectionSet?.selections ?? [], info, (inner) => inner.name.value === ADDRESS_FIELD)
        : below(field.selectionSet?.selections ?? []),
    );
  return info.fieldNodes.some((node) => below(node.selectionSet?.selections ?? []));
}

/** The `include` members of an employee read for this operation: `links` when it reads a portrait address. */
export function employeeIncludes(info: GraphQLResolveInfo): string[] {
  return readsPortraitAddress(info) ? ["links"] : [];
}

@Resolver(() => Portrait)
export class PortraitResolver {
  @FieldResolver(() => URLScalar, {
    nullable: true,
    description:
      "The image's address (a PNG in the demo service), usable without the bearer token, e.g. as an <img src>: it carries its own access token. The interface states no expiry for it: read it again rather than storing it. Null when the directory gives none.",
  })
  async downloadUrl(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    const links = portrait.employee.links ?? (await employeeWithLinksLoader(ctx).load(portrait.employee.id))?.links;
    const href = links?.portrait?.href;
    if (!href) return null;
    // a relative link resolves against the configured upstream, as the facade's own calls do
    return ctx.upstreamBaseUrl ? new URL(href, `${ctx.upstreamBaseUrl}/`).toString() : href;
  }
}
