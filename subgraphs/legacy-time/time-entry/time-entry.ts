import { Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateRange, DateScalar, LocalDateTimeScalar, MutationError, formerName } from "../../shared/graphql/index.js";

/** REST `unit`: 0, 1, 2 (the enum's internal values are the REST numbers). */
export enum TimeEntryUnit {
  DAYS = 0,
  HOURS = 1,
  TIME = 2,
}
registerEnumType(TimeEntryUnit, {
  name: "TimeEntryUnit",
  description: "How an entry measures time.",
  valuesConfig: {
    DAYS: { description: "In days: startsAt is 00:00:00 (morning) or 12:00:00 (afternoon)." },
    HOURS: { description: "In hours per half day: startsAt is 00:00:00 (morning) or 12:00:00 (afternoon)." },
    TIME: { description: "Clock time: startsAt is the time the work started." },
  },
});

/** The seven time-entry rules of the legacy interface (docs/interface.md#legacy-time-entry), by their number. */
export enum TimeEntryRule {
  TIMESHEET_LOCKED = 1,
  START_WITH_OFFSET = 2,
  DURATION_OVER_A_DAY = 3,
  SPANS_TWO_DAYS = 4,
  AXIS_SECTIONS_MODE_MISMATCH = 5,
  AXIS_SECTION_INACTIVE = 6,
  AXIS_SECTIONS_NOT_A_CHAIN = 7,
}
registerEnumType(TimeEntryRule, {
  name: "TimeEntryRule",
  description: "A rule a time-entry write must follow; the legacy interface numbers them 1 to 7 (`rule`).",
  valuesConfig: {
    TIMESHEET_LOCKED: { description: "1: the entry's week is submitted or approved; it cannot change." },
    START_WITH_OFFSET: { description: "2: startsAt carries a UTC offset; it must be a local date-time." },
    DURATION_OVER_A_DAY: { description: "3: the duration is over 24 hours." },
    SPANS_TWO_DAYS: { description: "4: the entry crosses midnight; split it at 00:00:00." },
    AXIS_SECTIONS_MODE_MISMATCH: { description: "5: axis sections given in attendance mode, or missing in activity mode." },
    AXIS_SECTION_INACTIVE: { description: "6: one of the entry's axis sections is inactive." },
    AXIS_SECTIONS_NOT_A_CHAIN: { description: "7: the axis sections do not form a parent-child chain." },
  },
});

/** REST `creationSource`: 0 to 4. */
export enum TimeEntryCreationSource {
  WORK_CYCLE_FALLBACK = 0,
  QUICK_FILL = 1,
  MANUAL = 2,
  IMPORTED = 3,
  CLOCK_IN_OUT = 4,
}
registerEnumType(TimeEntryCreationSource, {
  name: "TimeEntryCreationSource",
  description: "How an entry was created.",
  valuesConfig: {
    WORK_CYCLE_FALLBACK: { description: "Filled automatically from the person's work cycle." },
    QUICK_FILL: { description: "Created with the quick-fill tools." },
    MANUAL: { description: "Entered by hand (the default)." },
    IMPORTED: { description: "Imported from an external source." },
    CLOCK_IN_OUT: { description: "Recorded by the clock-in/clock-out tool." },
  },
});

/** The enum's internal values are the legacy API's status numbers. */
export enum TimesheetStatus {
  OPEN = 0,
  SUBMITTED = 1,
  APPROVED = 2,
  REJECTED = 3,
}
registerEnumType(TimesheetStatus, {
  name: "TimesheetStatus",
  description: "The state of a weekly timesheet; entries of a submitted or approved one are locked (rule 1).",
  valuesConfig: {
    OPEN: { description: "Being filled in (legacy status 0, temporary)." },
    SUBMITTED: { description: "Submitted, waiting for approval (legacy status 1, pending)." },
    APPROVED: { description: "Approved (legacy status 2)." },
    REJECTED: { description: "Sent back to its owner (legacy status 3); its entries can be changed again." },
  },
});

export enum TimesheetMode {
  ACTIVITY = "activity",
  ATTENDANCE = "attendance",
}
registerEnumType(TimesheetMode, {
  name: "TimesheetMode",
  description: "ACTIVITY: entries carry axis sections; ATTENDANCE: they carry none (rule 5).",
});

@ObjectType({ description: "The comment of a time entry, visible in the timesheet interface." })
export class TimeEntryComment {
  @Field(() => ID)
  id!: number;

  @Field(() => String)
  content!: string;
}

@ObjectType({ description: "The weekly timesheet (Monday to Sunday) that holds a time entry." })
export class Timesheet {
  @Field(() => ID)
  id!: number;

  @Field(() => DateScalar, { description: "The Monday of the week." })
  startsOn!: string;

  @Field(() => DateScalar, { description: "The Sunday of the week." })
  endsOn!: string;

  @Field(() => TimesheetStatus)
  status!: TimesheetStatus;

  @Field(() => TimesheetMode, { description: "Read from the entry: one with axis sections is in an activity timesheet (rule 5)." })
  mode!: TimesheetMode;
}

/**
 * A legacy time entry (`/api/v3/timeentries`): a working-time sequence of a person on one day.
 * Fields read as the REST payload names them; the owner, the axis sections and the duration in
 * minutes are field resolvers (time-entry.resolver.ts).
 */
@ObjectType({ description: "A working-time sequence of a person on one day (legacy time entry)." })
@Directive('@key(fields: "id")')
export class TimeEntry {
  @Field(() => ID)
  id!: number;

  @Field(() => TimeEntryUnit)
  unit!: TimeEntryUnit;

  @Field(() => LocalDateTimeScalar, { description: "Floating local date-time (no offset)." })
  startsAt!: string;

  @Field(() => String, { description: "As the legacy API writes it: d.hh:mm:ss, the day part omitted when zero (e.g. 02:30:00); at most 1.00:00:00." })
  duration!: string;

  @Field(() => TimeEntryCreationSource)
  creationSource!: TimeEntryCreationSource;

  @Field(() => TimeEntryComment, { nullable: true })
  comment!: TimeEntryComment | null;

  @Field(() => Int, { nullable: true, description: "Id of the entry's time type (normal hours, overtime...) for people whose regulation tracks typed time; otherwise null. The graph does not name time types." })
  timeTypeId!: number | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "When the entry ends: startsAt plus its duration." })
  endsAt?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "When the entry was created." })
  createdAt?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedAt", "every last change is `lastUpdatedAt` in the graph.") })
  modifiedAt?: string | null;

  @Field(() => Boolean, { description: "Theoretical working time computed from the work cycle (legacy layer 1), not declared time." })
  isTheoretical!: boolean;
}

/**
 * A partial change of a time entry: fields left out keep their value; `comment`, `axisSectionIds`
 * and `timeTypeId` may be set to null to remove them.
 */
@InputType({ description: "The fields of a time entry to change; the others keep their value." })
export class TimeEntryInput {
  @Field(() => String, { nullable: true, description: "hh:mm:ss or d.hh:mm:ss (also hh:mm), e.g. 02:30:00." })
  duration?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "A local date-time without offset (rule 2)." })
  startsAt?: string | null;

  @Field(() => TimeEntryUnit, { nullable: true })
  unit?: TimeEntryUnit | null;

  @Field(() => String, { nullable: true, description: "The comment's text, 1 to 1000 characters; null removes the comment." })
  comment?: string | null;

  @Field(() => [ID], {
    nullable: true,
    description: "The entry's axis sections (replacing the current ones); null or [] for none, as in attendance mode.",
  })
  axisSectionIds?: string[] | null;

  @Field(() => TimeEntryCreationSource, { nullable: true })
  creationSource?: TimeEntryCreationSource | null;

  @Field(() => Int, { nullable: true, description: "null removes the time type." })
  timeTypeId?: number | null;
}

/** A refusal of a time-entry write that the caller can fix: data in the mutation payload, not an error. */
@ObjectType({
  implements: MutationError,
  description: "A time-entry validation rule (1 to 7 of the legacy interface) refused the change. Nothing was written.",
})
export class TimeEntryValidationError extends MutationError {
  @Field(() => Int, {
    description: "The number of `violatedRule`, 1 to 7.",
    deprecationReason: "Use `violatedRule`: the rule by name, an enum codegen types, where this is a bare number.",
  })
  rule!: number;

  @Field(() => TimeEntryRule, { description: "The rule that refused the change." })
  get violatedRule(): TimeEntryRule {
    return this.rule;
  }
}

/** A range of offset-free local date-times; checked before any call (a real calendar day, no offset, not ending before it starts). */
@InputType({ description: "A range of local date-times without offset (YYYY-MM-DDTHH:mm:ss), both bounds inclusive; a missing bound is open." })
export class LocalDateTimeRange {
  @Field(() => LocalDateTimeScalar, { nullable: true, description: "The first local date-time, inclusive; null: open." })
  from?: string | null;

  @Field(() => LocalDateTimeScalar, { nullable: true, description: "The last local date-time, inclusive; null: open." })
  to?: string | null;
}

/**
 * The filters of an employee's time-entry connection (docs/interface.md#legacy-time-entry). The
 * range is on `startsAt`, in whole days (`startsOn`) or in local date-times (`startsAt`), one of
 * the two; without either, every entry.
 */
@InputType({ description: "Filters of an employee's time entries; all given filters apply together." })
export class EmployeeTimeEntryFilter {
  @Field(() => DateRange, {
    nullable: true,
    description: "Entries starting on these days: whole days, both inclusive (`to` includes its whole day). Not with startsAt.",
  })
  startsOn?: DateRange | null;

  @Field(() => LocalDateTimeRange, { nullable: true, description: "Entries starting within these local date-times, both inclusive. Not with startsOn." })
  startsAt?: LocalDateTimeRange | null;

  @Field(() => LocalDateTimeScalar, {
    nullable: true,
    description: "Only entries created or changed (`lastUpdatedAt`) at or after this local date-time (an incremental sync); null: all.",
  })
  lastUpdatedSince?: string | null;

  // its name before issue 35, kept deprecated for at least one minor version (CHANGELOG.md)
  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedSince", "it filters on `lastUpdatedAt`; giving both is refused.") })
  modifiedSince?: string | null;

  @Field(() => Boolean, {
    defaultValue: false,
    description: "Also the theoretical working time computed from the work cycle (legacy layer 1); left out by default.",
  })
  includeTheoretical!: boolean;
}

@InputType({ description: "Filters of the time-entry list: the owners (required), and an employee's time-entry filters." })
export class TimeEntryFilter extends EmployeeTimeEntryFilter {
  @Field(() => [ID], { description: "The owners (employee ids, legacy integers): 1 to 100." })
  ownerIds!: string[];

  // type-graphql drops the deprecation of an inherited input field: declared again here
  @Field(() => LocalDateTimeScalar, { nullable: true, ...formerName("lastUpdatedSince", "it filters on `lastUpdatedAt`; giving both is refused.") })
  override modifiedSince?: string | null = undefined;
}
