import { Args, ArgsType, Ctx, Field, FieldResolver, ID, InputType, Query, Resolver, Root } from "type-graphql";
import { isLegacyId } from "../../shared/upstream/index.js";
import {
  DateRange,
  LocalDateTimeScalar,
  PageArgs,
  RestFilter,
  connectionType,
  cursorScope,
  offsetAfter,
  offsetConnection,
  pageSize,
  type ConnectionResult,
  type SubgraphContext,
  formerName,
  readRenamedFilter,
  ref,
} from "../../shared/graphql/index.js";
import type { QueryParams } from "../../shared/upstream/index.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { USERS_PATH, legacyUsersPage } from "../loaders.js";
import { assertCaller, visibleIds } from "../visibility.js";
import { USER_FIELDS, type RestLegacyUser } from "../rest.js";
import { LegacyUser } from "./legacy-user.js";

/**
 * The legacy API's list of users (`GET /api/v3/users`) as a root connection, with the list's own
 * filters. Former employees (contract ended before today) are left out unless asked for, as the
 * legacy API does. One upstream call per page (`legacyUsersPage` in loaders.ts); each user also
 * primes the per-request user loader, so `Employee.legacyUser` of a listed person costs nothing
 * more. Cursors are offsets, signed and bound to the filter like every cursor of the graph.
 */

@InputType({ description: "Filters of the legacy users list; all given filters apply together." })
export class LegacyUserFilter {
  @Field(() => [ID], { nullable: true, description: "Employee (user) ids, at most 100." })
  ids?: string[] | null;

  @Field(() => Boolean, { defaultValue: false, description: "Also the people whose contract ended before today (left out by default)." })
  includeFormerEmployees!: boolean;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "Users whose attributes changed (`lastUpdatedAt`) at or after this local date-time." })
  lastUpdatedSince?: string | null;

  @Field(() => DateRange, { nullable: true, description: "On the start of the contract (legacy dtContractStart)." })
  contractStart?: DateRange | null;

  @Field(() => DateRange, { nullable: true, description: "On the end of the contract (legacy dtContractEnd); users without an end do not match." })
  contractEnd?: DateRange | null;

  @Field(() => String, { nullable: true, description: "The work email address, exactly." })
  email?: string | null;

  @Field(() => String, { nullable: true, description: "Part of the work email address, whatever its case." })
  emailContains?: string | null;

  @Field(() => String, { nullable: true, description: "The login, exactly." })
  login?: string | null;

  // the names before issue 35, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedSince", "it filters on `lastUpdatedAt`; giving both is refused.") })
  modifiedSince?: string | null;

  @Field(() => String, { nullable: true, ...formerName("email", "as `LegacyUser.email`; giving both is refused.") })
  mail?: string | null;

  @Field(() => String, { nullable: true, ...formerName("emailContains", "as `LegacyUser.email`; giving both is refused.") })
  mailContains?: string | null;
}

/** The filter's deprecated names (before issue 35) and the ones they became. */
const RENAMED_FILTERS = [
  ["modifiedSince", "lastUpdatedSince"],
  ["mail", "email"],
  ["mailContains", "emailContains"],
] as const;

@ArgsType()
class LegacyUsersArgs extends PageArgs {
  @Field(() => LegacyUserFilter, { nullable: true })
  filter?: LegacyUserFilter | null;
}

export const LegacyUserConnection = connectionType("LegacyUser", LegacyUser);

/** The REST query of a filter, checked before any upstream call; null when it can match nothing. */
function restQuery(filter: LegacyUserFilter | null | undefined): QueryParams | null {
  const f = readRenamedFilter(filter ?? ({ includeFormerEmployees: false } as LegacyUserFilter), RENAMED_FILTERS);
  const rest = new RestFilter()
    .strings("id", "ids", f.ids, { allowEmpty: true, keep: isLegacyId })
    .value("formerEmployees", f.includeFormerEmployees ? "true" : null)
    .legacyRange("modifiedAt", "lastUpdatedSince", { from: f.lastUpdatedSince })
    .legacyRange("dtContractStart", "contractStart", f.contractStart)
    .legacyRange("dtContractEnd", "contractEnd", f.contractEnd)
    .atMostOne({ email: f.email, emailContains: f.emailContains })
    .text("mail", "email", f.email, { partialWith: "emailContains" })
    .like("mail", "emailContains", f.emailContains)
    .text("login", "login", f.login);
  return rest.matchesNothing ? null : { fields: USER_FIELDS, ...rest.query };
}

@Resolver(() => LegacyUser)
export class LegacyUsersResolver {
  @Query(() => LegacyUserConnection, {
    description:
      "The legacy API's users, by id, with its filters; former employees only when asked. In forward mode, only the people the caller can read.",
  })
  async legacyUsers(@Args(() => LegacyUsersArgs) args: LegacyUsersArgs, @Ctx() ctx: SubgraphContext): Promise<ConnectionResult<RestLegacyUser>> {
    const first = pageSize(args.first);
    const query = restQuery(args.filter);
    // a filter that matches nothing binds its cursors to no list: only a cursor of this filter resumes it
    const binding = { signer: ctx.upstream.cursors, scope: cursorScope(USERS_PATH, query ?? { id: "" }) };
    const start = offsetAfter(args.after, binding);
    if (query === null || first === 0) return offsetConnection<RestLegacyUser>([], start, binding, { hasNextPage: false });
    await assertCaller(ctx);
    const { page, hasNextPage } = await legacyUsersPage(ctx, query, start, first);
    const visible = await visibleIds(ctx, page.map((u) => String(u.id)));
    return offsetConnection(page, start, binding, { hasNextPage, keep: (user) => visible.has(String(user.id)) });
  }

  @FieldResolver(() => Employee, { nullable: true, description: "The employee this user is (same id)." })
  employee(@Root() user: RestLegacyUser): EmployeeRef | null {
    return ref(user.id);
  }

  @FieldResolver(() => ID, { nullable: true, description: "The user's id: the employee's id." })
  id(@Root() user: RestLegacyUser): string | null {
    return user.id === undefined ? null : String(user.id);
  }
}
