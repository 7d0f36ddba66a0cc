import { buildLookup, compareIds, computeDerived } from "../directory/current/derived.js";
import type { Lookup } from "../directory/current/resource.js";
import { fold, splitWords } from "../directory/current/filters.js";
import type { Derived } from "../directory/current/resource.js";
import type { Company, Employee, Id, JobPosition } from "../directory/data/model.js";
import { dateOfDay } from "../directory/legacy/company.js";
import { createLegacyState } from "../directory/legacy/index.js";
import { MAX_DURATION, parseDuration, type TimeEntry } from "../directory/legacy/time-entries.js";

/**
 * The operations of `operations/` (the screens the graph must answer) and variables for them
 * picked from the demo data of a running directory. The picks are computed from the company's
 * records with the directory's own rules (statuses, applicable job positions, the legacy
 * timesheets), independently of the facade, so that the tests and the benchmark can check the
 * facade's answers against them.
 */

export { loadOperations, OPERATIONS_DIR, type Operation } from "../gateway/operations.js";
import type { Operation } from "../gateway/operations.js";

export function operationNamed(operations: Operation[], name: string): Operation {
  const found = operations.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name} in operations/`);
  return found;
}

/** A legacy time entry, with what the timesheet screen that shows it knows: its owner and day. */
export interface EntryPick {
  id: string;
  ownerId: Id;
  /** YYYY-MM-DD */
  date: string;
}

export interface DemoPicks {
  /** DirectorySearch: a two-letter search with more matches than one page of 20 */
  search: string;
  /** the active employees it must answer, in FAMILY_NAME_ASC order */
  searchMatches: Id[];
  /** EmployeeProfile: an active employee with a manager and direct reports */
  profile: { id: Id; managerId: Id; directReportIds: Id[]; employmentIds: Id[] };
  /** OrgChart: a department with at least 5 active members and at most 50 members in all */
  department: { id: Id; memberIds: Id[]; managerId: Id | null; parentId: Id | null };
  /** Timesheet: a past week (Monday to Sunday) of an employee with time entries in it */
  timesheet: { id: Id; from: string; to: string; entries: Array<{ id: string; startsAt: string; axisSectionIds: string[] }> };
  /** UpdateTimeEntry: an entry of an open timesheet that accepts a 02:30:00 duration, and one of an approved timesheet */
  openEntry: EntryPick;
  approvedEntry: EntryPick;
  /** visibility of the `demo-limited` client (establishment "1"): active employees inside (with entries in the timesheet week) and outside */
  limited: { establishmentId: Id; insideId: Id; outsideId: Id; outsideEntryId: string; visibleIds: Id[] };
}

/** The picks and the data they were computed from. */
export interface Demo extends DemoPicks {
  company: Company;
  lookup: Lookup;
  derived: Derived;
}

export const LIMITED_ESTABLISHMENT = "1";
const SEARCH_PAGE = 20;
const NEW_DURATION = "02:30:00";

export function pickDemoData(company: Company): Demo {
  const lookup = buildLookup(company);
  const derived = computeDerived(company, lookup);
  const status = (id: Id) => derived.employee.get(id)?.status;
  const position = (id: Id): JobPosition | undefined => {
    const positionId = derived.employee.get(id)?.applicableJobPositionId;
    return positionId ? lookup.jobPositions.get(positionId) : undefined;
  };
  const active = company.employees.filter((e) => status(e.id) === "active");
  const byFamilyName = (a: Employee, b: Employee) => {
    const fa = fold(a.familyName);
    const fb = fold(b.familyName);
    if (fa !== fb) return fa < fb ? -1 : 1;
    if (a.familyName !== b.familyName) return a.familyName < b.familyName ? -1 : 1;
    return compareIds(a.id, b.id);
  };

  // search: the two-letter prefix whose matches fill between two and three pages
  const wordsOf = new Map(active.map((e) => [e, [...splitWords(e.givenName), ...splitWords(e.familyName)]]));
  const counts = new Map<string, number>();
  for (const words of wordsOf.values()) {
    for (const prefix of new Set(words.filter((w) => w.length >= 2).map((w) => w.slice(0, 2)))) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [search] = ranked.find(([, n]) => n > SEARCH_PAGE && n < 3 * SEARCH_PAGE) ?? ranked[0] ?? [];
  if (!search) throw new Error("the demo company has no active employee to search for");
  const searchMatches = active
    .filter((e) => wordsOf.get(e)!.some((w) => w.startsWith(search)))
    .sort(byFamilyName)
    .map((e) => e.id);

  // reports and members by the applicable job position, whatever the member's status
  const reportsOf = new Map<Id, Id[]>();
  const membersOf = new Map<Id, Id[]>();
  for (const e of company.employees) {
    const p = position(e.id);
    if (!p) continue;
    if (p.managerId) push(reportsOf, p.managerId, e.id);
    push(membersOf, p.departmentId, e.id);
  }

  const legacy = createLegacyState({ company, options: { tokenLifetimeSeconds: 1800 } });
  const time = legacy.time;
  const weekBefore = time.currentMonday - 7;
  // declared time only: the facade leaves theoretical entries (layer 1) out
  const entriesIn = (owner: number, monday: number) =>
    time.entriesOf(owner).filter((e) => e.layer === 0 && e.day >= monday && e.day < monday + 7);

  // profile: active, with a manager, reports, several employments and time entries last week
  const profileCandidates = active
    .filter((e) => position(e.id)?.managerId && (reportsOf.get(e.id)?.length ?? 0) > 0 && entriesIn(Number(e.id), weekBefore).length > 0)
    .map((e) => ({ e, employments: lookup.employmentsByEmployee.get(e.id)?.length ?? 0 }))
    .sort((a, b) => b.employments - a.employments || compareIds(a.e.id, b.e.id));
  const profileEmployee = profileCandidates[0]?.e;
  if (!profileEmployee) throw new Error("the demo company has no active employee with a manager and direct reports");
  const profile = {
    id: profileEmployee.id,
    managerId: position(profileEmployee.id)!.managerId!,
    directReportIds: [...(reportsOf.get(profileEmployee.id) ?? [])].sort(compareIds),
    employmentIds: (lookup.employmentsByEmployee.get(profileEmployee.id) ?? []).map((e) => e.id),
  };

  // department: the biggest that fits one page of the org chart's 50, with 5 active members or more;
  // in a company where none fits (10 000 employees), the smallest, whose first page the chart shows
  const staffed = company.departments
    .map((d) => ({ d, members: membersOf.get(d.id) ?? [] }))
    .filter(({ members }) => members.filter((id) => status(id) === "active").length >= 5);
  const fitting = staffed.filter(({ members }) => members.length <= 50);
  const departments =
    fitting.length > 0
      ? fitting.sort((a, b) => b.members.length - a.members.length || compareIds(a.d.id, b.d.id))
      : staffed.sort((a, b) => a.members.length - b.members.length || compareIds(a.d.id, b.d.id));
  const chosen = departments.find(({ d }) => d.parentId !== null && d.managerId !== null) ?? departments[0];
  if (!chosen) throw new Error("the demo company has no department with 5 active members");
  const department = {
    id: chosen.d.id,
    memberIds: [...chosen.members].sort(compareIds),
    managerId: chosen.d.managerId,
    parentId: chosen.d.parentId,
  };

  // timesheet: the profile's last full week (open), Monday to Sunday
  const owner = Number(profile.id);
  const timesheet = {
    id: profile.id,
    from: dateOfDay(weekBefore),
    to: dateOfDay(weekBefore + 6),
    entries: entriesIn(owner, weekBefore).map((e) => ({ id: String(e.id), startsAt: e.startsAt, axisSectionIds: e.axisSectionIds.map(String) })),
  };

  // entries to update: one the legacy rules let through with the new duration, one in an approved week
  const newDuration = parseDuration(NEW_DURATION)!;
  const acceptsUpdate = (e: TimeEntry) =>
    e.layer === 0 &&
    time.timesheet(e.ownerId, e.day).status === "open" &&
    e.seconds + newDuration <= MAX_DURATION &&
    e.axisSectionIds.every((id) => legacy.sections.get(id)?.active);
  const isApproved = (e: TimeEntry) => e.layer === 0 && time.timesheet(e.ownerId, e.day).status === "approved";
  const open = time.entriesOf(owner).find(acceptsUpdate) ?? findEntry(active, time, acceptsUpdate);
  const approved = time.entriesOf(owner).find(isApproved) ?? findEntry(active, time, isApproved);
  if (!open || !approved) throw new Error("the demo company has no time entry in an open and in an approved timesheet");

  // demo-limited: sees the employees whose applicable job position is in establishment 1
  const visibleIds = company.employees.filter((e) => position(e.id)?.businessEstablishmentId === LIMITED_ESTABLISHMENT).map((e) => e.id);
  const inside = active.find(
    (e) => position(e.id)?.businessEstablishmentId === LIMITED_ESTABLISHMENT && entriesIn(Number(e.id), weekBefore).length > 0,
  );
  const outside = active.find((e) => {
    const p = position(e.id);
    return p && p.businessEstablishmentId !== LIMITED_ESTABLISHMENT && time.entriesOf(Number(e.id)).length > 0;
  });
  if (!inside || !outside) throw new Error(`the demo company needs active employees inside and outside establishment ${LIMITED_ESTABLISHMENT}`);

  return {
    company,
    lookup,
    derived,
    search,
    searchMatches,
    profile,
    department,
    timesheet,
    openEntry: entryPick(open),
    approvedEntry: entryPick(approved),
    limited: {
      establishmentId: LIMITED_ESTABLISHMENT,
      insideId: inside.id,
      outsideId: outside.id,
      outsideEntryId: String(time.entriesOf(Number(outside.id))[0]!.id),
      visibleIds,
    },
  };
}

/** The variables of each operation of `operations/`, by operation name. */
export function variablesFor(demo: DemoPicks): Record<string, Record<string, unknown>> {
  return {
    DirectorySearch: { search: demo.search, after: null },
    EmployeeProfile: { id: demo.profile.id },
    OrgChart: { departmentId: demo.department.id },
    Timesheet: { id: demo.timesheet.id, from: demo.timesheet.from, to: demo.timesheet.to },
    UpdateTimeEntry: { id: demo.openEntry.id, input: { duration: NEW_DURATION } },
  };
}

/** The variables of one operation; an operation of `operations/` without picks is an error, not a skip. */
export function variablesOf(demo: DemoPicks, operation: Operation): Record<string, unknown> {
  const variables = variablesFor(demo)[operation.name];
  if (!variables) throw new Error(`no demo variables for ${operation.name}: add them to harness/operations.ts`);
  return variables;
}

function findEntry(employees: Employee[], time: ReturnType<typeof createLegacyState>["time"], test: (e: TimeEntry) => boolean) {
  for (const e of employees) {
    const found = time.entriesOf(Number(e.id)).find(test);
    if (found) return found;
  }
  return undefined;
}

function entryPick(e: TimeEntry): EntryPick {
  return { id: String(e.id), ownerId: String(e.ownerId), date: dateOfDay(e.day) };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Variables to vary per request, by operation (the benchmark's throughput runs): every active
 * employee, every department, every two-letter search of an active employee's family name.
 */
export function variablePools(demo: Demo): Record<string, Array<Record<string, unknown>>> {
  const active = demo.company.employees.filter((e) => demo.derived.employee.get(e.id)?.status === "active");
  const searches = [...new Set(active.map((e) => e.familyName.slice(0, 2).toLowerCase()).filter((s) => /^\p{L}{2}$/u.test(s)))];
  return {
    DirectorySearch: searches.map((search) => ({ search, after: null })),
    EmployeeProfile: active.map((e) => ({ id: e.id })),
    OrgChart: demo.company.departments.map((d) => ({ departmentId: d.id })),
    Timesheet: active.map((e) => ({ id: e.id, from: demo.timesheet.from, to: demo.timesheet.to })),
  };
}
