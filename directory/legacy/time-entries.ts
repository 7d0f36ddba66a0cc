import type { Random } from "../data/random.js";
import type { Router } from "../http/router.js";
import type { AxisSectionStore } from "./axis-sections.js";
import type { CompanyView } from "./company.js";
import { dateOfDay } from "./company.js";
import {
  badRequest,
  existing,
  legacyError,
  nowOn,
  objectBody,
  ok,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { compareBy, dateFilter, idFilter, intFilter, listFilters, parseListFields, parseOrderBy, parsePaging, project, v3ListParams, type ListFilter } from "./query.js";
import { TIME_TYPES, byId } from "./reference.js";
import type { UserStore } from "./users.js";
import {
  checkBodyId,
  checkFieldNames,
  isId,
  isInteger,
  isObject,
  parseLocalDateTime,
  Problems,
  two,
  type LocalDateTime,
} from "./validate.js";

/**
 * Time entries and the weekly timesheets that hold them.
 *
 * A timesheet is one person's ISO week (Monday to Sunday). Its state is `open`, `submitted` or
 * `approved` and its mode `activity` (entries carry axis sections) or `attendance` (they carry
 * none). The demo's timesheets: the current and the previous week are open; the two weeks before
 * are mostly submitted or approved; older weeks of the 12-week window are approved, a few still
 * submitted; weeks before the window are approved and later weeks open. The mode is the person's
 * usual one, with one week in seven or so in the other mode.
 *
 * Entries exist for employees active today, on weekdays of the 12 weeks up to today on which
 * they are employed, and are generated when an employee's time is first asked for, from a
 * generator keyed by the employee id: the same entries with the same ids on every run, and no
 * start-up cost however large the company. An entry's id is `employeeId * 10000 + n`, n counting
 * the employee's entries chronologically from 1.
 */

export type Unit = 0 | 1 | 2;
export type Mode = "activity" | "attendance";
export type SheetStatus = "open" | "submitted" | "approved";

export const WEEKS_OF_ENTRIES = 12;
export const ID_STRIDE = 10_000;
export const MAX_DURATION = 86_400;
const MAX_OWNERS = 100;
const DEFAULT_LIMIT = 100;
/** the legacy API serves at most 10 000 items a request (docs/interface.md#legacy-list-conventions) */
export const MAX_LIMIT = 10_000;
/** theoretical entries (layer 1) are numbered from here within their owner's ids */
export const THEORETICAL_BASE = 5_000;
/** a theoretical day: what the work cycle expects */
const THEORETICAL_DAY = 7 * 3600;
const HALF_DAY = 43_200;
const QUARTER = 900;

export interface TimeEntry {
  id: number;
  ownerId: number;
  unit: Unit;
  /** days since 1970-01-01 */
  day: number;
  /** seconds after midnight */
  seconds: number;
  /** `YYYY-MM-DDTHH:mm:ss`, derived from day and seconds: the sort and filter key */
  startsAt: string;
  /** in seconds */
  duration: number;
  creationSource: number;
  /** empty when the entry has none */
  axisSectionIds: number[];
  comment: string | null;
  timeTypeId: number | null;
  /** 0: what was declared; 1: theoretical working time from the work cycle (read-only) */
  layer: 0 | 1;
  authorId: number;
  /** offset-free date-times */
  createdAt: string;
  modifierId: number;
  modifiedAt: string;
  archivedAt: string | null;
}

/** What the person's time-tracking regulation says. */
interface Regulation {
  unit: Unit;
  /** time tracking mode `typed`: entries carry a time type */
  typed: boolean;
  usualMode: Mode;
  /** how this person usually records time */
  usualSource: number;
}

export interface Timesheet {
  /** `ownerId * 10000 + week`, the week counted from 1970 */
  id: number;
  ownerId: number;
  /** the Monday */
  startsOn: string;
  /** the Sunday */
  endsOn: string;
  status: SheetStatus;
  mode: Mode;
}

/** Timesheet workflow states as the legacy API numbers them: 0 temporary, 1 pending, 2 approved (3 rejected is not in the demo). */
export const SHEET_STATUS_CODE: Record<SheetStatus, number> = { open: 0, submitted: 1, approved: 2 };

export function timesheetId(ownerId: number, day: number): number {
  return ownerId * ID_STRIDE + (mondayOf(day) + 3) / 7;
}

const TIME_TYPE_BY_ID = byId(TIME_TYPES);
const COMMENTS = [
  "Client workshop",
  "Sprint planning",
  "On site at the customer's",
  "Training session",
  "Incident follow-up",
  "Quarterly review",
  "Left early, doctor's appointment",
];

/** Monday of the ISO week of a day number (1970-01-01 was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((day + 3) % 7);
}

export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const rest = seconds % 86_400;
  const hms = `${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
  return days > 0 ? `${days}.${hms}` : hms;
}

const DURATION = /^(?:(\d{1,2})\.)?(\d{2}):(\d{2}):(\d{2})$/;

/** `d.hh:mm:ss` or `hh:mm:ss` in seconds, or null when malformed. */
export function parseDuration(raw: unknown): number | null {
  if (typeof raw !== "string") return null;
  const match = DURATION.exec(raw);
  if (!match) return null;
  const [d, h, m, s] = [Number(match[1] ?? 0), Number(match[2]), Number(match[3]), Number(match[4])];
  if (h > 23 || m > 59 || s > 59) return null;
  return d * 86_400 + h * 3600 + m * 60 + s;
}

function timeOfDay(seconds: number): string {
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

/** The date-time `seconds` after the midnight of `day` (a time past midnight falls on the next day). */
function startsAtText(day: number, seconds: number): string {
  return `${dateOfDay(day + Math.floor(seconds / 86_400))}T${timeOfDay(seconds % 86_400)}`;
}

class RuleViolation {
  constructor(
    readonly rule: number,
    readonly message: string,
  ) {}
}

export class TimeStore {
  private readonly owners = new Map<number, { entries: TimeEntry[]; byId: Map<number, TimeEntry> }>();
  readonly currentMonday: number;
  readonly windowStart: number;

  constructor(
    private readonly view: CompanyView,
    private readonly sections: AxisSectionStore,
    private readonly users: UserStore,
  ) {
    this.currentMonday = mondayOf(view.todayDay);
    this.windowStart = this.currentMonday - 7 * (WEEKS_OF_ENTRIES - 1);
  }

  regulation(ownerId: number): Regulation {
    const rng = this.view.random(0x7e9a).fork(ownerId);
    const unitRoll = rng.next();
    const unit: Unit = unitRoll < 0.5 ? 2 : unitRoll < 0.8 ? 1 : 0;
    const typed = unit !== 0 && rng.chance(0.25);
    const usualMode: Mode = rng.chance(0.55) ? "activity" : "attendance";
    const usualSource =
      unit === 2 ? weighted(rng, [[4, 0.4], [2, 0.3], [3, 0.15], [1, 0.1], [0, 0.05]]) : weighted(rng, [[0, 0.3], [1, 0.3], [2, 0.3], [3, 0.1]]);
    return { unit, typed, usualMode, usualSource };
  }

  timesheet(ownerId: number, day: number): Timesheet {
    const monday = mondayOf(day);
    const regulation = this.regulation(ownerId);
    const rng = this.view.random(0x5a3e).fork(ownerId).fork(monday);
    const other: Mode = regulation.usualMode === "activity" ? "attendance" : "activity";
    const mode = rng.chance(0.85) ? regulation.usualMode : other;
    const age = (this.currentMonday - monday) / 7;
    const roll = rng.next();
    let status: SheetStatus;
    if (age <= 1) status = "open";
    else if (age <= 3) status = roll < 0.1 ? "open" : roll < 0.55 ? "submitted" : "approved";
    else if (age < WEEKS_OF_ENTRIES) status = roll < 0.15 ? "submitted" : "approved";
    else status = "approved";
    return { id: timesheetId(ownerId, day), ownerId, startsOn: dateOfDay(monday), endsOn: dateOfDay(monday + 6), status, mode };
  }

  /** The timesheets of an owner that hold entries: the weeks of the window on which they are employed. */
  timesheetsOf(ownerId: number): Timesheet[] {
    const weeks = new Set(this.entriesOf(ownerId).map((e) => mondayOf(e.day)));
    return [...weeks].sort((a, b) => a - b).map((monday) => this.timesheet(ownerId, monday));
  }

  /** The owners a list without `ownerId` walks: every employee, by id (those without entries cost a lookup). */
  allOwnerIds(): number[] {
    return this.view.company.employees.map((e) => Number(e.id)).sort((a, b) => a - b);
  }

  /** The entries of an employee, chronological (by startsAt, then id). */
  entriesOf(ownerId: number): readonly TimeEntry[] {
    // nothing is remembered for ids that are no employee, however many a client asks for
    return this.view.employee(ownerId) ? this.owner(ownerId).entries : [];
  }

  find(id: number): TimeEntry | undefined {
    const ownerId = Math.floor(id / ID_STRIDE);
    if (!this.view.employee(ownerId)) return undefined;
    return this.owner(ownerId).byId.get(id);
  }

  /** The owner as the legacy API writes it on time entries and timesheets (docs/interface.md#legacy-time-entry). */
  ownerOf(ownerId: number): Record<string, unknown> {
    return this.users.brief(this.view.employee(ownerId)!);
  }

  represent(entry: TimeEntry): Record<string, unknown> {
    return {
      id: entry.id,
      ownerId: entry.ownerId,
      owner: this.ownerOf(entry.ownerId),
      unit: entry.unit,
      startsAt: entry.startsAt,
      duration: formatDuration(entry.duration),
      endsAt: startsAtText(entry.day, entry.seconds + entry.duration),
      authorId: entry.authorId,
      createdAt: entry.createdAt,
      modifierId: entry.modifierId,
      modifiedAt: entry.modifiedAt,
      archivedAt: entry.archivedAt,
      creationSource: entry.creationSource,
      layer: entry.layer,
      axisSections: entry.axisSectionIds.length > 0 ? entry.axisSectionIds.map((id) => ({ id })) : null,
      comment: entry.comment === null ? null : { id: entry.id, content: entry.comment },
      timeTypeId: entry.timeTypeId,
      timesheetId: timesheetId(entry.ownerId, entry.day),
    };
  }

  representTimesheet(sheet: Timesheet): Record<string, unknown> {
    return {
      id: sheet.id,
      name: `Week of ${sheet.startsOn} - ${sheet.status}`,
      ownerId: sheet.ownerId,
      owner: this.ownerOf(sheet.ownerId),
      startsOn: sheet.startsOn,
      endsOn: sheet.endsOn,
      status: SHEET_STATUS_CODE[sheet.status],
    };
  }

  /**
   * PUT: the body replaces the entry (`ownerId`, `unit`, `startsAt`, `duration` required;
   * `creationSource` defaults to 2, `axisSections`, `comment` and `timeTypeId` to none). Shape
   * and format are checked first (a 400 without `rule`), then the rules of docs/interface.md#time-entry-validation-rules in the
   * order 2, 3 (while parsing), 1, 4, 6, 5, 7 (a 400 with `rule`). Nothing changes unless all pass.
   */
  update(id: number, body: Record<string, unknown>): TimeEntry {
    const entry = existing(this.find(id), "Time entry", id);
    if (entry.layer === 1) throw badRequest(`Time entry ${id} is theoretical working time (layer 1), computed from the work cycle: it cannot be modified.`);
    try {
      const next = this.validate(entry, body);
      const owner = this.owner(entry.ownerId);
      // the API key acts as the company's administrator: the modification is theirs, now
      Object.assign(entry, next, { modifiedAt: nowOn(this.view.today), modifierId: Number(this.view.administrator?.id ?? entry.ownerId) });
      owner.entries.sort(byStart);
      return entry;
    } catch (err) {
      if (err instanceof RuleViolation) {
        throw legacyError(400, `Rule ${err.rule}: ${err.message}`, { rule: err.rule });
      }
      throw err;
    }
  }

  private validate(entry: TimeEntry, body: Record<string, unknown>): Partial<TimeEntry> {
    const problems = new Problems();
    // read-only fields are ignored: a client sends back what it read
    checkFieldNames(problems, body, WRITABLE, READ_ONLY);
    checkBodyId(problems, body, entry.id);
    // the PUT replaces the entry named in its body (docs/interface.md#legacy-time-entry)
    for (const required of ["id", "ownerId", "unit", "startsAt", "duration"]) {
      if (body[required] === undefined) problems.add(`${required} is required.`);
    }
    if (body.ownerId !== undefined) {
      if (!isId(body.ownerId)) problems.add("ownerId must be an integer >= 1.");
      // ids are keyed by owner, and a timesheet belongs to one person: entries do not change hands
      else if (body.ownerId !== entry.ownerId) problems.add(`ownerId cannot change: the entry belongs to user ${entry.ownerId}.`);
    }
    const unit = body.unit;
    if (unit !== undefined && unit !== 0 && unit !== 1 && unit !== 2) problems.add("unit must be 0 (days), 1 (hours) or 2 (time).");
    const creationSource = body.creationSource ?? 2;
    if (!isInteger(creationSource) || creationSource < 0 || creationSource > 4) {
      problems.add("creationSource must be an integer from 0 to 4 (0 work cycles, 1 quick-fill, 2 manual, 3 import, 4 clock-in).");
    }

    let startsAt: LocalDateTime | undefined;
    let offset = false;
    if (body.startsAt !== undefined) {
      const parsed = parseLocalDateTime(body.startsAt);
      if (parsed.ok) startsAt = parsed.value;
      else if (parsed.reason === "offset") offset = true;
      else problems.add("startsAt must be a date-time YYYY-MM-DDTHH:mm:ss.");
    }
    if (startsAt && (unit === 0 || unit === 1) && startsAt.seconds !== 0 && startsAt.seconds !== HALF_DAY) {
      problems.add(`In unit ${unit} startsAt must be at 00:00:00 (morning) or 12:00:00 (afternoon), got ${timeOfDay(startsAt.seconds)}.`);
    }
    let duration: number | null = null;
    if (body.duration !== undefined) {
      duration = parseDuration(body.duration);
      if (duration === null) problems.add("duration must be a time span hh:mm:ss or d.hh:mm:ss, for example 02:30:00 or 1.00:00:00.");
    }

    const sectionIds: number[] = [];
    const rawSections = body.axisSections;
    if (rawSections !== undefined && rawSections !== null) {
      if (!Array.isArray(rawSections) || rawSections.some((s) => !isObject(s) || !isId(s.id))) {
        problems.add("axisSections must be null or an array of {id} with ids >= 1.");
      } else {
        for (const s of rawSections as Array<{ id: number }>) {
          if (!this.sections.get(s.id)) problems.add(`Axis section ${s.id} does not exist.`);
          sectionIds.push(s.id);
        }
      }
    }

    let comment: string | null = null;
    if (body.comment !== undefined && body.comment !== null) {
      const content = isObject(body.comment) ? body.comment.content : undefined;
      if (typeof content !== "string" || content.length < 1 || content.length > 1000) {
        problems.add("comment must be null or {content} with a content of 1 to 1000 characters.");
      } else comment = content;
    }

    const timeTypeId = body.timeTypeId ?? null;
    if (timeTypeId !== null) {
      if (!this.regulation(entry.ownerId).typed) {
        problems.add(`timeTypeId must be null: user ${entry.ownerId} does not track time in the typed mode.`);
      } else if (!isId(timeTypeId) || !TIME_TYPE_BY_ID.has(timeTypeId)) {
        problems.add(`timeTypeId must be null or a time type (${TIME_TYPES.map((t) => `${t.id} ${t.name}`).join(", ")}).`);
      }
    }
    problems.throwIfAny("time entry");

    if (offset || !startsAt) throw new RuleViolation(2, "startsAt must carry no UTC offset (send 2024-03-01T08:00:00, not ...Z or ...+01:00).");
    if (duration! > MAX_DURATION) throw new RuleViolation(3, `duration ${formatDuration(duration!)} exceeds the maximum of 24h (1.00:00:00).`);

    for (const day of new Set([entry.day, startsAt.day])) {
      const sheet = this.timesheet(entry.ownerId, day);
      if (sheet.status !== "open") {
        throw new RuleViolation(1, `the timesheet of the week of ${sheet.startsOn} is ${sheet.status}; its entries cannot be modified.`);
      }
    }
    if (startsAt.seconds + duration! > MAX_DURATION) {
      throw new RuleViolation(4, `an entry cannot span two days: starting at ${timeOfDay(startsAt.seconds)} for ${formatDuration(duration!)} it passes midnight; split it at 00:00:00.`);
    }
    for (const sectionId of new Set([...entry.axisSectionIds, ...sectionIds])) {
      const section = this.sections.get(sectionId);
      if (section && !section.active) {
        throw new RuleViolation(6, `axis section ${section.id} (${section.code}) is inactive; an entry with an inactive axis section cannot be modified.`);
      }
    }
    const sheet = this.timesheet(entry.ownerId, startsAt.day);
    if (sheet.mode === "activity" && sectionIds.length === 0) {
      throw new RuleViolation(5, `the timesheet of the week of ${sheet.startsOn} is in activity mode: the entry needs axis sections.`);
    }
    if (sheet.mode === "attendance" && sectionIds.length > 0) {
      throw new RuleViolation(5, `the timesheet of the week of ${sheet.startsOn} is in attendance mode: the entry takes no axis sections.`);
    }
    if (sectionIds.length > 0) {
      const problem = this.sections.chainProblem(sectionIds);
      if (problem) throw new RuleViolation(7, `the axis sections must form a parent-child chain (cost centre > project > task): ${problem}.`);
    }

    return {
      unit: unit as Unit,
      day: startsAt.day,
      seconds: startsAt.seconds,
      startsAt: startsAt.text,
      duration: duration!,
      creationSource: creationSource as number,
      axisSectionIds: sectionIds,
      comment,
      timeTypeId: timeTypeId as number | null,
    };
  }

  private owner(ownerId: number) {
    let owner = this.owners.get(ownerId);
    if (!owner) {
      const entries = this.generate(ownerId);
      owner = { entries, byId: new Map(entries.map((e) => [e.id, e])) };
      this.owners.set(ownerId, owner);
    }
    return owner;
  }

  private generate(ownerId: number): TimeEntry[] {
    const id = String(ownerId);
    if (!this.view.employees.has(id) || this.view.employeeStatus(id) !== "active") return [];
    const regulation = this.regulation(ownerId);
    const rng = this.view.random(0xe471).fork(ownerId);
    // people are staffed on running projects; a task closed since shows up now and then
    const staffed = pickDistinct(
      this.sections.staffable.filter((p) => p.active),
      rng.int(2, 3),
      rng,
    );
    const sources: number[] = regulation.unit === 2 ? [0, 1, 2, 3, 4] : [0, 1, 2, 3];
    const entries: TimeEntry[] = [];

    for (let day = this.windowStart; day <= this.view.todayDay; day++) {
      if ((day + 3) % 7 >= 5) continue;
      if (!this.view.employedOn(id, dateOfDay(day))) continue;
      if (rng.chance(0.04)) continue; // a day off
      const { mode } = this.timesheet(ownerId, day);
      for (const [seconds, duration, afternoon] of daySlots(regulation.unit, mode, rng)) {
        entries.push({
          id: 0,
          ownerId,
          unit: regulation.unit,
          day,
          seconds,
          startsAt: startsAtText(day, seconds),
          duration,
          creationSource: rng.chance(0.8) ? regulation.usualSource : rng.pick(sources),
          axisSectionIds: mode === "activity" && staffed.length > 0 ? chain(rng.pick(staffed), rng) : [],
          comment: rng.chance(0.08) ? rng.pick(COMMENTS) : null,
          timeTypeId: regulation.typed ? timeType(afternoon, rng) : null,
          layer: 0,
          authorId: ownerId,
          createdAt: "",
          modifierId: ownerId,
          modifiedAt: "",
          archivedAt: null,
        });
      }
    }
    entries.forEach((e, i) => (e.id = ownerId * ID_STRIDE + i + 1));
    this.stamp(ownerId, entries);
    return [...entries, ...this.theoretical(ownerId, regulation)].sort(byStart);
  }

  /**
   * Who wrote each entry and when, from a generator of its own (so that the entries themselves do
   * not change): entries are typed in the evening of their day, imported ones the next morning by
   * the administrator; one in six is corrected a day or two later.
   */
  private stamp(ownerId: number, entries: TimeEntry[]): void {
    const rng = this.view.random(0x3e7a).fork(ownerId);
    const admin = Number(this.view.administrator?.id ?? ownerId);
    // the demo's history ends yesterday: anything stamped today is a real write, so an incremental sync sees only those
    const clock = (day: number, seconds: number) =>
      day >= this.view.todayDay ? startsAtText(this.view.todayDay - 1, Math.min(seconds, 86_399)) : startsAtText(day, Math.min(seconds, 86_399));
    for (const e of entries) {
      const imported = e.creationSource === 3;
      const createdDay = imported ? e.day + 1 : e.day;
      const createdSeconds = imported ? 7 * 3600 + rng.int(0, 3600) : Math.max(e.seconds + e.duration, 17 * 3600) + rng.int(0, 7200);
      e.authorId = imported ? admin : ownerId;
      e.createdAt = clock(createdDay, createdSeconds);
      if (rng.chance(1 / 6)) {
        e.modifierId = rng.chance(0.7) ? ownerId : admin;
        e.modifiedAt = clock(createdDay + rng.int(1, 2), 9 * 3600 + rng.int(0, 8 * 3600));
      } else {
        e.modifierId = e.authorId;
        e.modifiedAt = e.createdAt;
      }
    }
  }

  /**
   * Theoretical working time (layer 1): one entry per weekday of the window on which the person is
   * employed, what the work cycle expects, written by the system on the Monday of its week. Sync
   * clients leave them out with `layer=notequal,1`.
   */
  private theoretical(ownerId: number, regulation: Regulation): TimeEntry[] {
    const id = String(ownerId);
    const out: TimeEntry[] = [];
    for (let day = this.windowStart; day <= this.view.todayDay; day++) {
      if ((day + 3) % 7 >= 5 || !this.view.employedOn(id, dateOfDay(day))) continue;
      const seconds = regulation.unit === 2 ? 9 * 3600 : 0;
      const created = startsAtText(mondayOf(day), 300);
      out.push({
        id: ownerId * ID_STRIDE + THEORETICAL_BASE + out.length + 1,
        ownerId,
        unit: regulation.unit,
        day,
        seconds,
        startsAt: startsAtText(day, seconds),
        duration: THEORETICAL_DAY,
        creationSource: 0,
        axisSectionIds: [],
        comment: null,
        timeTypeId: null,
        layer: 1,
        authorId: ownerId,
        createdAt: created,
        modifierId: ownerId,
        modifiedAt: created,
        archivedAt: null,
      });
    }
    return out;
  }
}

const WRITABLE = new Set(["id", "ownerId", "unit", "startsAt", "duration", "creationSource", "axisSections", "comment", "timeTypeId"]);
const READ_ONLY = new Set(["owner", "endsAt", "authorId", "createdAt", "modifierId", "modifiedAt", "archivedAt", "layer", "timesheetId"]);

function byStart(a: TimeEntry, b: TimeEntry): number {
  return a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.id - b.id;
}

function weighted(rng: Random, choices: ReadonlyArray<readonly [number, number]>): number {
  let roll = rng.next();
  for (const [value, weight] of choices) {
    if (roll < weight) return value;
    roll -= weight;
  }
  return choices[choices.length - 1]![0];
}

function pickDistinct<T>(items: readonly T[], count: number, rng: Random): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out;
}

/**
 * One day's entries as [startSeconds, durationSeconds, isAfternoon]. Units 0 and 1 start at the
 * half-day markers 00:00:00 and 12:00:00; in unit 0 a half day lasts 12:00:00. In activity mode a
 * half day is sometimes split between two activities.
 */
function daySlots(unit: Unit, mode: Mode, rng: Random): Array<[number, number, boolean]> {
  let blocks: Array<[number, number, boolean]>;
  if (unit === 0) return [[0, HALF_DAY, false], [HALF_DAY, HALF_DAY, true]];
  if (unit === 1) {
    blocks = [[0, 3.5 * 3600 + QUARTER * rng.int(0, 2), false], [HALF_DAY, 3.5 * 3600 + QUARTER * rng.int(0, 4), true]];
  } else {
    const morningStart = 8 * 3600 + QUARTER * rng.int(0, 6);
    const morning = 3.5 * 3600 + QUARTER * rng.int(0, 3);
    const afternoonStart = morningStart + morning + 2700 + QUARTER * rng.int(0, 3);
    blocks = [[morningStart, morning, false], [afternoonStart, 3 * 3600 + QUARTER * rng.int(0, 6), true]];
  }
  if (mode === "attendance") return blocks;
  return blocks.flatMap(([start, length, afternoon]): Array<[number, number, boolean]> => {
    if (!rng.chance(0.3)) return [[start, length, afternoon]];
    const first = QUARTER * rng.int(4, length / QUARTER - 4);
    // in unit 1 the start is the half-day marker, not a clock time
    return [[start, first, afternoon], [unit === 2 ? start + first : start, length - first, afternoon]];
  });
}

/** cost centre > project, and mostly a task of that project; now and then a task closed since. */
function chain(project: AxisSectionStore["staffable"][number], rng: Random): number[] {
  const ids = [project.costCentreId, project.projectId];
  if (rng.chance(0.1)) return ids;
  if (project.inactiveTaskIds.length > 0 && rng.chance(0.03)) return [...ids, rng.pick(project.inactiveTaskIds)];
  if (project.activeTaskIds.length > 0) return [...ids, rng.pick(project.activeTaskIds)];
  return ids;
}

function timeType(afternoon: boolean, rng: Random): number {
  if (afternoon && rng.chance(0.1)) return 2;
  if (rng.chance(0.05)) return 4;
  if (rng.chance(0.02)) return 3;
  return 1;
}

/** The fields the list can be ordered by (`orderby=<field>,<asc|desc>`); the default is startsAt, then id. */
const ORDER_FIELDS = ["id", "ownerId", "startsAt", "endsAt", "duration", "createdAt", "modifiedAt"];

/** The time-entry list's filters (docs/interface.md); `ownerId`, `id` and the owner's legal entity also choose which owners are read. */
function entryFilters(time: TimeStore): Record<string, ListFilter<TimeEntry>> {
  return {
    id: idFilter((e) => e.id, MAX_LIMIT),
    ownerId: idFilter((e) => e.ownerId, MAX_OWNERS),
    "owner.legalEntityId": idFilter((e) => time.ownerOf(e.ownerId).legalEntityId as number),
    startsAt: dateFilter((e) => e.startsAt),
    modifiedAt: dateFilter((e) => e.modifiedAt),
    createdAt: dateFilter((e) => e.createdAt),
    layer: intFilter((e) => e.layer),
  };
}

const TIMESHEET_FILTERS: Record<string, ListFilter<Timesheet>> = {
  id: idFilter((t) => t.id, MAX_LIMIT),
  ownerId: idFilter((t) => t.ownerId, MAX_OWNERS),
  startsOn: dateFilter((t) => `${t.startsOn}T00:00:00`),
  endsOn: dateFilter((t) => `${t.endsOn}T00:00:00`),
  status: intFilter((t) => SHEET_STATUS_CODE[t.status]),
};

function orderValue(e: TimeEntry, field: string): string | number {
  switch (field) {
    case "ownerId":
      return e.ownerId;
    case "startsAt":
      return e.startsAt;
    case "endsAt":
      return startsAtText(e.day, e.seconds + e.duration);
    case "duration":
      return e.duration;
    case "createdAt":
      return e.createdAt;
    case "modifiedAt":
      return e.modifiedAt;
    default:
      return e.id;
  }
}

export function registerTimeEntryRoutes(router: Router, state: () => { view: CompanyView; time: TimeStore }): void {
  router.get(
    "/api/v3/timeentries",
    withApiKey((req) => {
      const q = req.query;
      const { time } = state();
      const { matches, set } = listFilters(q, entryFilters(time), v3ListParams(q, []));
      const { offset, limit } = parsePaging(singleParam(q, "paging"), DEFAULT_LIMIT, MAX_LIMIT);
      const order = parseOrderBy(q, ORDER_FIELDS);
      const selection = parseListFields(singleParam(q, "fields")).selection;
      // an id names its owner (employeeId * 10000 + n): a list by id reads only those owners' entries
      const ids = set.get("id")?.ids;
      const idOwners = ids === undefined ? null : [...new Set([...ids].map((id) => Math.floor(id / ID_STRIDE)))].sort((a, b) => a - b);
      const owners = set.get("ownerId")?.ids;
      const legalEntities = set.get("owner.legalEntityId")?.ids;
      const ownerIds = (owners ? [...owners] : (idOwners ?? time.allOwnerIds())).filter(
        (ownerId) => legalEntities === undefined || legalEntities.has(time.ownerOf(ownerId).legalEntityId as number),
      );
      const matching = ownerIds
        .flatMap((ownerId) => time.entriesOf(ownerId))
        .filter(matches)
        .sort(order ? compareBy(order, orderValue) : byStart);
      const page = matching.slice(offset, offset + limit);
      if (selection !== null && selection.size === 0) return ok({ data: { count: matching.length } });
      const items = page.map((e) => project(time.represent(e), selection));
      return ok({ data: { items, count: matching.length } });
    }),
  );
  // a single read, as the other legacy resources have: the facade reads an entry before merging a partial update into its PUT
  router.get(
    "/api/v3/timeentries/{id}",
    resourceRoute(["fields"], (id, req) => {
      const { time } = state();
      return ok({ data: project(time.represent(existing(time.find(id), "Time entry", id)), parseListFields(singleParam(req.query, "fields")).selection) });
    }),
  );
  router.put(
    "/api/v3/timeentries/{id}",
    resourceRoute([], (id, req) => {
      const { time } = state();
      const updated = time.update(id, objectBody(req));
      return ok({ data: time.represent(updated) });
    }),
  );
  router.get(
    "/api/v3/timmitimesheets",
    withApiKey((req) => {
      const q = req.query;
      const { time } = state();
      const { matches, set } = listFilters(q, TIMESHEET_FILTERS, ["paging"]);
      const { offset, limit } = parsePaging(singleParam(q, "paging"), 1000, MAX_LIMIT);
      const owners = set.get("ownerId")?.ids;
      const matching = (owners ? [...owners] : time.allOwnerIds()).flatMap((ownerId) => time.timesheetsOf(ownerId)).filter(matches);
      return ok({ data: { items: matching.slice(offset, offset + limit).map((t) => time.representTimesheet(t)), count: matching.length } });
    }),
  );
}
