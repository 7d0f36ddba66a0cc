import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Field, FieldResolver, ID, Info, ObjectType, Query, Resolver, Root } from "type-graphql";
import { DateTimeScalar, referenceTo, requiredId, URLScalar, type SubgraphContext } from "../../shared/graphql/index.js";
import { employeeLoaderFor, employeeWithLinksLoader, portraitLoader } from "../loaders.js";
import type { RestEmployee, RestPortrait } from "../rest.js";
import { Employee } from "./employee.js";

/**
 * An employee's portrait (docs/interface.md#employee): the `portrait` reference of the employee's
 * representation, and the file address of its `links.portrait`, which carries a `token` query
 * parameter so that a browser can show it (`<img src>`) without the bearer token. That address
 * never reaches a client: `downloadUrl` (and the deprecated `url`) answer a file link of the
 * facade sealing it (docs/security.md#file-links), which the gateway's `/files/` route serves.
 *
 * Where the address comes from, cheapest first:
 * - the employee was read with its links (`employee(id)`, `_entities`, the `employees` list ask
 *   `include=links` when the operation selects `downloadUrl`): no call at all;
 * - otherwise (an employee reached through an edge): the employees of the operation are read again
 *   with their links, one `/employees?id=` call per 100 employees.
 *
 * The metadata (`fileName`, `contentType`, `createdAt`) is the portrait's own read,
 * `GET /portraits[/{id}]`, made only when the operation selects one of them, through the request's
 * `portraitLoader`. The list has no `id` filter, so the loader adapts (docs/performance.md#batching-rules):
 * one portrait is one single read; more are the first list page, then the cheaper of single reads
 * (at most DIRECTORY_CONCURRENCY at once) for those still missing or the remaining pages. One
 * single read per portrait would pass the request's call budget at 100 employees.
 * `id`, `url` and `downloadUrl` never read the portrait.
 */
@ObjectType({ description: "An employee's portrait picture." })
export class Portrait {
  @Field(() => ID, { description: "Identifier of the portrait at the directory service." })
  id!: string;
}

/**
 * The portrait reference with the employee it belongs to, to find the file address: the employee
 * as read when the portrait is reached from it, only its id when the portrait was read itself
 * (`portrait(id)`, which then holds the read in `details`).
 */
export interface PortraitNode {
  id: string;
  url: string;
  employee: Pick<RestEmployee, "id" | "links">;
  /** whether `employee` is the whole employee (reached from it), not only its reference */
  employeeRead?: boolean;
  details?: RestPortrait;
}

export function portraitOf(employee: RestEmployee): PortraitNode | null {
  return employee.portrait ? { id: employee.portrait.id, url: employee.portrait.url, employee, employeeRead: true } : null;
}

/** A portrait read by its own id (`portrait(id)`). */
function portraitNode(details: RestPortrait | null): PortraitNode | null {
  return details ? { id: details.id, url: details.url, employee: { id: details.employee.id }, details } : null;
}

// what the metadata costs a client; how it is read is docs/performance.md#batching-rules
const METADATA_COST =
  "Null when the portrait's details cannot be read. fileName, contentType and createdAt are read together, only when one is selected: " +
  "one call for one portrait, a few for a page of them (never more calls than portraits plus one).";

@Resolver(() => Portrait)
export class PortraitResolver {
  @Query(() => Portrait, {
    nullable: true,
    description:
      "One portrait by id (scope employees); null when it does not exist or its employee is not visible. One call.",
  })
  async portrait(@Arg("id", () => ID, { description: "Identifier of the portrait." }) id: string, @Ctx() ctx: SubgraphContext): Promise<PortraitNode | null> {
    return portraitNode(await portraitLoader(ctx).load(requiredId(id)));
  }

  @FieldResolver(() => String, { nullable: true, description: `The image's file name, e.g. portrait-7.png. ${METADATA_COST}` })
  async fileName(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    return (await detailsOf(portrait, ctx))?.fileName ?? null;
  }

  @FieldResolver(() => String, { nullable: true, description: `The image's media type, e.g. image/png. ${METADATA_COST}` })
  async contentType(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    return (await detailsOf(portrait, ctx))?.contentType ?? null;
  }

  @FieldResolver(() => DateTimeScalar, { nullable: true, description: `When the portrait was stored. ${METADATA_COST}` })
  async createdAt(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    return (await detailsOf(portrait, ctx))?.createdAt ?? null;
  }

  @FieldResolver(() => Employee, {
    nullable: true,
    description:
      "The employee the portrait shows; null when not visible. No call when reached from that employee or when only its id is selected; " +
      "otherwise one call per 100 employees of the operation.",
  })
  employee(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext, @Info() info: GraphQLResolveInfo): Promise<RestEmployee | null> | RestEmployee | { id: string } | null {
    if (portrait.employeeRead) return portrait.employee as RestEmployee;
    // read with its links when the operation reads a portrait address below: the same one call
    return referenceTo(portrait.employee, info, (id) => employeeLoaderFor(ctx, info).load(id));
  }

  @FieldResolver(() => URLScalar, {
    nullable: true,
    description:
      "A short-lived link to the image (a PNG in the demo service) through this service, usable without credentials, e.g. as an <img src>. It expires within minutes (FILE_LINK_TTL_S): read the field again rather than storing it. Null when the directory gives no image.",
  })
  async downloadUrl(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string | null> {
    const links = portrait.employee.links ?? (await employeeWithLinksLoader(ctx).load(portrait.employee.id))?.links;
    const href = links?.portrait?.href;
    return href ? (ctx.files?.tokened(href) ?? null) : null;
  }

  @FieldResolver(() => String, {
    description: "The same link as downloadUrl, as a String.",
    deprecationReason: "Use `downloadUrl`: typed URL, and null rather than an error when there is no image. This field no longer answers the directory's own address.",
  })
  async url(@Root() portrait: PortraitNode, @Ctx() ctx: SubgraphContext): Promise<string> {
    const link = await this.downloadUrl(portrait, ctx);
    if (link === null) throw new Error(`portrait ${portrait.id}: the directory gives no image address`);
    return link;
  }
}

/** The portrait's own read: the one `portrait(id)` made, else the request's portrait loader. */
async function detailsOf(portrait: PortraitNode, ctx: SubgraphContext): Promise<RestPortrait | null> {
  return portrait.details ?? (await portraitLoader(ctx).load(portrait.id));
}
