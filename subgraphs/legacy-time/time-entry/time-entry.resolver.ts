import type { GraphQLResolveInfo } from "graphql";
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root, createUnionType } from "type-graphql";
import {
  PageArgs,
  RestFilter,
  audited,
  badUserInput,
  connectionType,
  cursorScope,
  givenFields,
  isIsoDate,
  selects,
  type ConnectionResult,
  type SubgraphContext,
  ref,
  InvalidInputError,
  invalidInput,
  LocalDateTimeScalar,
  formerName,
  readRenamedFilter,
  WRITE_REFUSALS,
  mutationResultType,
  type WriteRefusal,
} from "../../shared/graphql/index.js";
import { checkFieldRules } from "../../../platform/field-rules.js";
import { legacyTimeFieldRules } from "../field-rules.js";
import { isLocalDateTime } from "../../../platform/input-checks.js";
import { loadEvery, isLegacyId } from "../../shared/upstream/index.js";
import { AxisSection } from "../axis-section/axis-section.js";
import { Employee, type EmployeeRef } from "../employee/employee.js";
import { putTimeEntry, fieldsNamedIn, notFound, serialisedWrite, writeLegacy } from "../writes.js";
import { legacyListConnection, forgetTimeEntryLists } from "../connections.js";
import { TIME_ENTRIES_PATH, axisSectionLoader, timeEntryLoader, timesheetLoader, type TimeEntryQuery } from "../loaders.js";
import { assertLegacyWriteAllowed, visibleIds } from "../visibility.js";
import type { RestAxisSection, RestTimeEntry } from "../rest.js";
import { durationSeconds, normaliseDuration } from "./duration.js";
import { EmployeeTimeEntryFilter, TimeEntry, TimeEntryFilter, TimeEntryInput, Timesheet, TimesheetMode, TimeEntryValidationError } from "./time-entry.js";

export const TimeEntryConnection = connectionType("TimeEntry", TimeEntry);

/** the owners of the list: legacy ids, refused otherwise (the operation's input checks refuse them first) */
const LEGACY_IDS = { test: /^[1-9]\d{0,14}$/, description: "employee ids (integers >= 1)" };

@ArgsType()
class TimeEntriesArgs extends PageArgs {
  @Field(() => TimeEntryFilter)
  filter!: TimeEntryFilter;
}

/**
 * The REST filters of a time-entry filter besides the owners (docs/interface.md#legacy-time-entry),
 * checked before any call: `startsAt=between,…` from whole days or local date-times (a date `to`
 * includes its whole day), `modifiedAt=since,…`, and theoretical time (layer 1) left out unless
 * asked for, as docs/interface.md#legacy-time-entry advises sync clients.
 */
export function timeEntryQuery(given: Omit<EmployeeTimeEntryFilter, "includeTheoretical"> & { includeTheoretical?: boolean | null }): TimeEntryQuery {
  checkFieldRules(legacyTimeFieldRules["Employee.timeEntryConnection"], { filter: given });
  // modifiedSince: lastUpdatedSince's name before issue 35
  const filter = readRenamedFilter(given, [["modifiedSince", "lastUpdatedSince"]]);
  // the operation's input checks refuse these first; a prefixed schema (GRAPH_PREFIX) renames the types they go by
  const bounds: Array<[string, string | null | undefined, (value: string) => boolean]> = [
    ["startsOn.from", filter.startsOn?.from, isIsoDate],
    ["startsOn.to", filter.startsOn?.to, isIsoDate],
    ["startsAt.from", filter.startsAt?.from, isLocalDateTime],
    ["startsAt.to", filter.startsAt?.to, isLocalDateTime],
    ["lastUpdatedSince", filter.lastUpdatedSince, isLocalDateTime],
  ];
  for (const [name, value, valid] of bounds) {
    if (typeof value === "string" && !valid(value)) {
      throw badUserInput(`filter.${name} must be a ${valid === isIsoDate ? "calendar date YYYY-MM-DD" : "local date-time YYYY-MM-DDTHH:mm:ss without offset"}, got ${JSON.stringify(value.slice(0, 40))}`, `filter.${name}`);
    }
  }
  return new RestFilter()
    .legacyRange("startsAt", "startsOn", filter.startsOn)
    .legacyRange("startsAt", "startsAt", filter.startsAt)
    .value("layer", filter.includeTheoretical ? null : "notequal,1")
    .legacyRange("modifiedAt", "lastUpdatedSince", { from: filter.lastUpdatedSince }).query;
}

export const UpdateTimeEntryResult = createUnionType({
  name: "UpdateTimeEntryResult",
  description: "The updated entry, or why nothing was written.",
  types: () => [TimeEntry, TimeEntryValidationError, ...WRITE_REFUSALS] as const,
  resolveType: mutationResultType("TimeEntry", [[TimeEntryValidationError, "TimeEntryValidationError"]]),
});

/** The input field each rule of docs/interface.md#time-entry-validation-rules is about. */
const RULE_FIELDS: Readonly<Record<number, string[]>> = {
  1: ["startsAt"],
  2: ["startsAt"],
  3: ["duration"],
  4: ["startsAt", "duration"],
  5: ["axisSectionIds"],
  6: ["axisSectionIds"],
  7: ["axisSectionIds"],
};

/** REST field names (as the legacy API's messages use them) -> input field names. */
const INPUT_NAME: Readonly<Record<string, string>> = {
  duration: "duration",
  startsAt: "startsAt",
  unit: "unit",
  comment: "comment",
  axisSections: "axisSectionIds",
  "Axis section": "axisSectionIds",
  creationSource: "creationSource",
  timeTypeId: "timeTypeId",
};

@ArgsType()
class UpdateTimeEntryArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => TimeEntryInput)
  input!: TimeEntryInput;
}

@Resolver(() => TimeEntry)
export class TimeEntryResolver {
  @Query(() => TimeEntry, { nullable: true, description: "A time entry by id; null when there is none." })
  timeEntry(@Arg("id", () => ID) id: string, @Ctx() ctx: SubgraphContext): Promise<RestTimeEntry | null> {
    return readTimeEntry(ctx, id);
  }

  @Query(() => TimeEntryConnection, {
    nullable: true,
    description:
      "The time entries of up to 100 employees, by startsAt (then id), with the filters; any range. In forward mode, only the entries " +
      "of employees the caller can read. One call per page.",
  })
  async timeEntries(
    @Args(() => TimeEntriesArgs) args: TimeEntriesArgs,
    @Ctx() ctx: SubgraphContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionResult<RestTimeEntry>> {
    checkFieldRules(legacyTimeFieldRules["Query.timeEntries"], args);
    const owners = new RestFilter().strings("ownerId", "ownerIds", args.filter.ownerIds, { pattern: LEGACY_IDS }).query;
    const query = { ...owners, ...timeEntryQuery(args.filter) };
    const binding = { signer: ctx.upstream.cursors, scope: cursorScope(TIME_ENTRIES_PATH, query) };
    return legacyListConnection<RestTimeEntry>(ctx, TIME_ENTRIES_PATH, query, args, { binding, withCount: selects(info, "totalCount") });
  }

  @FieldResolver(() => Int, { description: "The duration in whole minutes." })
  durationMinutes(@Root() entry: RestTimeEntry): number {
    const seconds = durationSeconds(entry.duration);
    if (seconds === null) throw new TypeError(`time entry ${entry.id}: unreadable duration from the upstream`);
    return Math.floor(seconds / 60);
  }

  @FieldResolver(() => Employee, { nullable: true })
  owner(@Root() entry: RestTimeEntry): EmployeeRef {
    return ref(entry.ownerId)!;
  }

  @FieldResolver(() => Employee, { nullable: true, description: "Who created the entry." })
  author(@Root() entry: RestTimeEntry): EmployeeRef | null {
    return ref(entry.authorId);
  }

  @FieldResolver(() => Employee, { nullable: true, ...formerName("lastModifier", "as on WorkContract, beside `lastUpdatedAt`.") })
  modifier(@Root() entry: RestTimeEntry): EmployeeRef | null {
    return ref(entry.modifierId);
  }

  @FieldResolver(() => LocalDateTimeScalar, {
    nullable: true,
    description: "When the entry last changed (a write included): what an incremental sync filters on (`lastUpdatedSince`).",
  })
  lastUpdatedAt(@Root() entry: RestTimeEntry): string | null {
    return entry.modifiedAt ?? null;
  }

  @FieldResolver(() => Employee, { nullable: true, description: "Who changed the entry last." })
  lastModifier(@Root() entry: RestTimeEntry): EmployeeRef | null {
    return ref(entry.modifierId);
  }

  @FieldResolver(() => Boolean)
  isTheoretical(@Root() entry: RestTimeEntry): boolean {
    return entry.layer === 1;
  }

  @FieldResolver(() => Timesheet, { nullable: true, description: "The weekly timesheet that holds the entry (one call per 100 owners)." })
  async timesheet(@Root() entry: RestTimeEntry, @Ctx() ctx: SubgraphContext): Promise<Timesheet | null> {
    if (typeof entry.timesheetId !== "number") return null;
    const sheet = await timesheetLoader(ctx).load({ id: entry.timesheetId, ownerId: entry.ownerId, day: entry.startsAt.slice(0, 10) });
    if (!sheet) return null;
    const mode = (entry.axisSections ?? []).length > 0 ? TimesheetMode.ACTIVITY : TimesheetMode.ATTENDANCE;
    return { id: sheet.id, startsOn: sheet.startsOn, endsOn: sheet.endsOn, status: sheet.status, mode };
  }

  @FieldResolver(() => [AxisSection], {
    nullable: true,
    description: "The analytical items of the entry (cost centre > project > task); empty in attendance mode.",
  })
  async axisSections(@Root() entry: RestTimeEntry, @Ctx() ctx: SubgraphContext): Promise<RestAxisSection[]> {
    const ids = (entry.axisSections ?? []).map((s) => String(s.id));
    const sections = await loadEvery(axisSectionLoader(ctx), ids);
    return sections.filter((s): s is RestAxisSection => s !== null);
  }

  @Mutation(() => UpdateTimeEntryResult, {
    nullable: true,
    description:
      "Changes the given fields of a time entry: the entry is read, merged with the input and written whole. Every refusal " +
      "is returned as data and nothing is written: a rule of the legacy interface (TimeEntryValidationError), the input " +
      "(InvalidInputError), an entry that does not exist (NotFoundError), a caller who may not write it (ForbiddenError), " +
      "another write of the same entry in progress (ConflictError).",
  })
  async updateTimeEntry(
    @Args(() => UpdateTimeEntryArgs) { id, input }: UpdateTimeEntryArgs,
    @Ctx() ctx: SubgraphContext,
  ): Promise<RestTimeEntry | TimeEntryValidationError | InvalidInputError | WriteRefusal> {
    return audited(ctx, { operation: "updateTimeEntry", type: "TimeEntry", id, fields: givenFields(input) }, async () => {
      assertLegacyWriteAllowed(ctx);
      const invalid = checkInput(input);
      if (invalid) return invalid;
      if (!isLegacyId(id)) throw notFound("Time entry", id);
      const loader = timeEntryLoader(ctx);
      return serialisedWrite(ctx, TIME_ENTRIES_PATH, id, loader, async () => {
        const current = await readTimeEntry(ctx, id);
        if (!current) throw notFound("Time entry", id);
        return writeLegacy<RestTimeEntry, TimeEntryValidationError | InvalidInputError>({
          what: "Time entry",
          id,
          loader,
          put: () => putTimeEntry(ctx, id, merge(current, input)),
          // a timesheet or list read after the write shows it
          changed: () => forgetTimeEntryLists(ctx),
          refused: (err, message) =>
            err.rule !== undefined
              ? Object.assign(new TimeEntryValidationError(), { rule: err.rule, message, fields: RULE_FIELDS[err.rule] ?? [] })
              : invalidInput(message, fieldsNamedIn(message, INPUT_NAME)),
        });
      });
    });
  }
}

/**
 * A time entry by id (single read), served only when the caller may see its owner. One of an
 * owner the caller cannot read is answered as one that does not exist (null, NotFoundError for a
 * write), as the directory's 404 answers an employee: a refusal naming the owner would tell the
 * caller that the entry exists, and whose it is.
 */
export async function readTimeEntry(ctx: SubgraphContext, id: string): Promise<RestTimeEntry | null> {
  if (!isLegacyId(id)) return null;
  const entry = await timeEntryLoader(ctx).load(id);
  if (!entry) return null;
  return (await visibleIds(ctx, [String(entry.ownerId)])).has(String(entry.ownerId)) ? entry : null;
}

/** the longest comment the legacy API keeps */
const MAX_COMMENT = 1000;

/** What the input says that cannot be sent at all: refused before any upstream call. */
function checkInput(input: TimeEntryInput): InvalidInputError | null {
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  if (given.length === 0) return invalidInput("The input changes nothing: give at least one field.", []);
  const nulls = (["duration", "startsAt", "unit", "creationSource"] as const).filter((name) => input[name] === null);
  if (nulls.length > 0) return invalidInput(`${nulls.join(", ")} cannot be null: leave a field out to keep its value.`, [...nulls]);
  if (typeof input.duration === "string" && normaliseDuration(input.duration) === null) {
    return invalidInput(`duration must be hh:mm:ss or d.hh:mm:ss (e.g. 02:30:00), got ${JSON.stringify(input.duration.slice(0, 40))}.`, ["duration"]);
  }
  // the LocalDateTime scalar checks the shape, not the calendar (it lets 2026-02-30 through)
  if (typeof input.startsAt === "string" && !isIsoDate(input.startsAt.slice(0, 10))) {
    return invalidInput(`startsAt ${JSON.stringify(input.startsAt.slice(0, 40))} is not a date of the calendar.`, ["startsAt"]);
  }
  if (typeof input.comment === "string" && (input.comment.length === 0 || input.comment.length > MAX_COMMENT)) {
    return invalidInput(`comment must be 1 to ${MAX_COMMENT} characters (null removes it), got ${input.comment.length}.`, ["comment"]);
  }
  const badSection = input.axisSectionIds?.find((sectionId) => !isLegacyId(sectionId));
  if (badSection !== undefined) {
    return invalidInput(`axisSectionIds: ${JSON.stringify(badSection.slice(0, 40))} is not an axis section id.`, ["axisSectionIds"]);
  }
  return null;
}

/** The whole entry to PUT: the current entry with the input's fields, in the legacy body shape. */
function merge(current: RestTimeEntry, input: TimeEntryInput): Record<string, unknown> {
  const keep = <T>(value: T | undefined, currentValue: T): T => (value === undefined ? currentValue : value);
  const currentSections = (current.axisSections ?? []).map((s) => s.id);
  const sections = input.axisSectionIds === undefined ? currentSections : (input.axisSectionIds ?? []).map(Number);
  const comment = input.comment === undefined ? (current.comment?.content ?? null) : input.comment;
  return {
    // the PUT names the entry it replaces (docs/interface.md#legacy-time-entry)
    id: current.id,
    ownerId: current.ownerId,
    unit: keep(input.unit ?? undefined, current.unit),
    startsAt: keep(input.startsAt ?? undefined, current.startsAt),
    duration: input.duration ? normaliseDuration(input.duration) : current.duration,
    creationSource: keep(input.creationSource ?? undefined, current.creationSource),
    axisSections: sections.length > 0 ? sections.map((id) => ({ id })) : null,
    comment: comment === null ? null : { content: comment },
    timeTypeId: input.timeTypeId === undefined ? current.timeTypeId : input.timeTypeId,
  };
}
