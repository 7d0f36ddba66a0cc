import type { Random } from "../data/random.js";
import type { Router } from "../http/router.js";
import type { AxisSectionStore } from "./axis-sections.js";
import type { CompanyView } from "./company.js";
import { dateOfDay } from "./company.js";
import {
  badRequest,
  existing,
  legacyError,
  objectBody,
  ok,
  parseBoundedInt,
  parseIdList,
  rejectUnknownParams,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { TIME_TYPES, byId } from "./reference.js";
import { userRef } from "./refs.js";
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
const MAX_LIMIT = 1000;
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
  /** the Monday */
  startsOn: string;
  status: SheetStatus;
  mode: Mode;
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

function startsAtText(day: number, seconds: number): string {
  return `${dateOfDay(day)}T${timeOfDay(seconds)}`;
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
    return { startsOn: dateOfDay(monday), status, mode };
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

  represent(entry: TimeEntry, origin: string): Record<string, unknown> {
    const owner = this.view.employee(entry.ownerId)!;
    return {
      id: entry.id,
      ownerId: entry.ownerId,
      owner: userRef(origin, owner),
      unit: entry.unit,
      startsAt: entry.startsAt,
      duration: formatDuration(entry.duration),
      creationSource: entry.creationSource,
      axisSections: entry.axisSectionIds.length > 0 ? entry.axisSectionIds.map((id) => ({ id })) : null,
      comment: entry.comment === null ? null : { id: entry.id, content: entry.comment },
      timeTypeId: entry.timeTypeId,
      timesheet: this.timesheet(entry.ownerId, entry.day),
    };
  }

  /**
   * PUT: the body replaces the entry (`ownerId`, `unit`, `startsAt`, `duration` required;
   * `creationSource` defaults to 2, `axisSections`, `comment` and `timeTypeId` to none). Shape
   * and format are checked first (a 400 without `rule`), then the rules of INTERFACE.md in the
   * order 2, 3 (while parsing), 1, 4, 6, 5, 7 (a 400 with `rule`). Nothing changes unless all pass.
   */
  update(id: number, body: Record<string, unknown>): TimeEntry {
    const entry = existing(this.find(id), "Time entry", id);
    try {
      const next = this.validate(entry, body);
      const owner = this.owner(entry.ownerId);
      Object.assign(entry, next);
      owner.entries.sort(byStart);
      return entry;
    } catch (err) {
      if (err instanceof RuleViolation) {
        throw legacyError(400, `Rule ${err.rule}: ${err.message}`, { rule: err.rule });
      }
      throw err;
    }
  }

  private validate(entry: TimeEntry, body: Record<string, unknown>): Omit<TimeEntry, "id" | "ownerId"> {
    const problems = new Problems();
    checkFieldNames(problems, body, WRITABLE, READ_ONLY);
    checkBodyId(problems, body, entry.id);
    for (const required of ["ownerId", "unit", "startsAt", "duration"]) {
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
        });
      }
    }
    entries.forEach((e, i) => (e.id = ownerId * ID_STRIDE + i + 1));
    return entries;
  }
}

const WRITABLE = new Set(["id", "ownerId", "unit", "startsAt", "duration", "creationSource", "axisSections", "comment", "timeTypeId"]);
const READ_ONLY = new Set(["owner", "timesheet"]);

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

/** `between,<from>,<to>`: dates or offset-free date-times, both inclusive (a date `to` covers its whole day). */
function parseBetween(raw: string): { from: string; to: string } {
  const parts = raw.split(",");
  if (parts.length !== 3 || parts[0] !== "between") {
    throw badRequest(`'startsAt' must be between,<from>,<to> (dates or date-times without offset), got '${raw}'.`);
  }
  const bound = (text: string, end: boolean): string => {
    const parsed = parseLocalDateTime(text, true);
    if (!parsed.ok) {
      throw badRequest(`'startsAt' bound '${text}' must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:mm:ss without offset.`);
    }
    return end && text.length === 10 ? `${text}T23:59:59` : parsed.value.text;
  };
  const from = bound(parts[1]!, false);
  const to = bound(parts[2]!, true);
  if (from > to) throw badRequest(`'startsAt' range is empty: ${parts[1]} is after ${parts[2]}.`);
  return { from, to };
}

/** `paging=<offset>,<limit>`. */
function parsePaging(raw: string | undefined): { offset: number; limit: number } {
  if (raw === undefined) return { offset: 0, limit: DEFAULT_LIMIT };
  const parts = raw.split(",");
  if (parts.length !== 2) throw badRequest(`'paging' must be <offset>,<limit>, got '${raw}'.`);
  return {
    offset: parseBoundedInt(parts[0]!, "paging offset", 0, Number.MAX_SAFE_INTEGER),
    limit: parseBoundedInt(parts[1]!, "paging limit", 0, MAX_LIMIT),
  };
}

export function registerTimeEntryRoutes(router: Router, state: () => { view: CompanyView; time: TimeStore }): void {
  router.get(
    "/api/v3/timeentries",
    withApiKey((req) => {
      rejectUnknownParams(req.query, ["ownerId", "startsAt", "paging"]);
      const rawOwners = singleParam(req.query, "ownerId");
      if (rawOwners === undefined) throw badRequest("'ownerId' is required: a comma-separated list of at most 100 user ids.");
      const ownerIds = parseIdList(rawOwners, "ownerId", MAX_OWNERS);
      const rawStartsAt = singleParam(req.query, "startsAt");
      const range = rawStartsAt === undefined ? null : parseBetween(rawStartsAt);
      const { offset, limit } = parsePaging(singleParam(req.query, "paging"));
      const { time } = state();
      const matching = ownerIds
        .flatMap((ownerId) => time.entriesOf(ownerId))
        .filter((e) => range === null || (e.startsAt >= range.from && e.startsAt <= range.to))
        .sort(byStart);
      const items = matching.slice(offset, offset + limit).map((e) => time.represent(e, req.origin));
      return ok({ data: { items, count: matching.length } });
    }),
  );
  // a single read, as the other legacy resources have: the facade reads an entry before merging a partial update into its PUT
  router.get(
    "/api/v3/timeentries/{id}",
    resourceRoute([], (id, req) => {
      const { time } = state();
      return ok({ data: time.represent(existing(time.find(id), "Time entry", id), req.origin) });
    }),
  );
  router.put(
    "/api/v3/timeentries/{id}",
    resourceRoute([], (id, req) => {
      const { time } = state();
      const updated = time.update(id, objectBody(req));
      return ok({ data: time.represent(updated, req.origin) });
    }),
  );
}
