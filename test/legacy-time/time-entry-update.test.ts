import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { employees, entitiesQuery, range, representations } from "./helpers.js";

/**
 * updateTimeEntry: a partial input is merged into the entry read from the legacy API and the
 * whole entry is written; each of the seven rules of docs/interface.md#time-entry-validation-rules comes back as a typed error
 * with the entry unchanged.
 */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;

interface Entry {
  id: string;
  startsAt: string;
  duration: string;
  unit: "DAYS" | "HOURS" | "TIME";
  creationSource: string;
  comment: { content: string } | null;
  timeTypeId: number | null;
  timesheet: { status: string; mode: string };
  axisSections: Array<{ id: string; active: boolean }>;
}

interface Section {
  id: string;
  axisId: number;
  active: boolean;
  parent: { id: string } | null;
}

const ENTRY = `id startsAt duration unit creationSource comment { content } timeTypeId timesheet { status mode } axisSections { id active }`;
/** entries taken by earlier tests are not reused, so that each test starts from the demo's data */
let pool: Entry[] = [];
let sections: Section[] = [];

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  const res = await stack.gql(url, entitiesQuery("Employee", `timeEntries(from: "2026-05-04", to: "2026-06-15") { ${ENTRY} }`), {
    r: employees(range(1, 80)),
  });
  pool = res.data._entities.flatMap((e: any) => e.timeEntries);
  const list = await stack.gql(url, `{ a: axisSections(first: 100) { nodes { id axisId active parent { id } } }
    b: axisSections(first: 100, filter: { axisIds: [3] }) { nodes { id axisId active parent { id } } } }`);
  sections = [...list.data.a.nodes, ...list.data.b.nodes];
});

function take(description: string, predicate: (e: Entry) => boolean): Entry {
  const index = pool.findIndex(predicate);
  if (index === -1) throw new Error(`the demo has no time entry ${description}`);
  return pool.splice(index, 1)[0]!;
}

const isOpen = (e: Entry) => e.timesheet.status === "OPEN";
const allActive = (e: Entry) => e.axisSections.every((s) => s.active);
const openActivity = (e: Entry) => isOpen(e) && e.timesheet.mode === "ACTIVITY" && e.axisSections.length > 0 && allActive(e);

const UPDATE = `mutation($id: ID!, $input: TimeEntryInput!) {
  updateTimeEntry(id: $id, input: $input) {
    __typename
    ... on TimeEntry { ${ENTRY} durationMinutes }
    ... on TimeEntryValidationError { rule violatedRule message fields }
    ... on MutationError { message fields }
  }
}`;

/** The rules by number, as `TimeEntryValidationError.violatedRule` names them (docs/interface.md#time-entry-validation-rules). */
const RULE_NAMES = ["", "TIMESHEET_LOCKED", "START_WITH_OFFSET", "DURATION_OVER_A_DAY", "SPANS_TWO_DAYS", "AXIS_SECTIONS_MODE_MISMATCH", "AXIS_SECTION_INACTIVE", "AXIS_SECTIONS_NOT_A_CHAIN"];

function update(id: string, input: Record<string, unknown>) {
  return stack.gql(url, UPDATE, { id, input });
}

async function readBack(id: string): Promise<Entry> {
  const res = await stack.gql(url, `query($id: ID!) { timeEntry(id: $id) { ${ENTRY} } }`, { id });
  expect(res.errors).toBeUndefined();
  return res.data.timeEntry;
}

/** A chain cost centre > project (> task) ending with `last`. */
function chainTo(last: Section): string[] {
  const chain = [last];
  while (chain[0]!.parent) chain.unshift(sections.find((s) => s.id === chain[0]!.parent!.id)!);
  return chain.map((s) => s.id);
}

async function expectRule(entry: Entry, input: Record<string, unknown>, rule: number, fields: string[]) {
  const res = await update(entry.id, input);
  expect(res.errors).toBeUndefined();
  expect(res.data.updateTimeEntry).toEqual({
    __typename: "TimeEntryValidationError",
    rule,
    violatedRule: RULE_NAMES[rule],
    message: expect.stringContaining(`Rule ${rule}`),
    fields,
  });
  expect(await readBack(entry.id)).toEqual(entry);
}

describe("updateTimeEntry", () => {
  it("writes a new duration and keeps every other field", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e) && e.duration !== "02:30:00");
    const res = await update(entry.id, { duration: "02:30:00" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry).toEqual({ __typename: "TimeEntry", ...entry, duration: "02:30:00", durationMinutes: 150 });
    expect(await readBack(entry.id)).toEqual({ ...entry, duration: "02:30:00" });
  });

  it("answers the shape of the update-time-entry operation", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    const res = await stack.gql(
      url,
      `mutation UpdateTimeEntry($id: ID!, $input: TimeEntryInput!) {
        updateTimeEntry(id: $id, input: $input) {
          __typename
          ... on TimeEntry { id startsAt duration }
          ... on TimeEntryValidationError { rule message }
        }
      }`,
      { id: entry.id, input: { duration: "01:45:00" } },
    );
    expect(res).toMatchObject({ data: { updateTimeEntry: { __typename: "TimeEntry", id: entry.id, startsAt: entry.startsAt, duration: "01:45:00" } } });
  });

  it("sets a comment and removes it with null", async () => {
    const entry = take("without comment in an open timesheet", (e) => isOpen(e) && allActive(e) && e.comment === null);
    const set = await update(entry.id, { comment: "Client workshop, afternoon" });
    expect(set.data.updateTimeEntry.comment).toEqual({ content: "Client workshop, afternoon" });
    const removed = await update(entry.id, { comment: null });
    expect(removed.data.updateTimeEntry.comment).toBeNull();
    expect(await readBack(entry.id)).toEqual(entry);
  });

  it("replaces the axis sections of an activity entry with another valid chain", async () => {
    const entry = take("in an open activity timesheet", openActivity);
    const current = new Set(entry.axisSections.map((s) => s.id));
    const project = sections.find((s) => s.axisId === 2 && s.active && !current.has(s.id) && sections.find((p) => p.id === s.parent?.id)?.active)!;
    const res = await update(entry.id, { axisSectionIds: chainTo(project) });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry.axisSections.map((s: any) => s.id)).toEqual(chainTo(project));
  });

  it("reads the duration in the legacy form whatever the caller's hours width", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    const res = await update(entry.id, { duration: "3:05" });
    expect(res.data.updateTimeEntry).toMatchObject({ __typename: "TimeEntry", duration: "03:05:00", durationMinutes: 185 });
  });

  it("costs one read and one write", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    stack.resetStats();
    await update(entry.id, { creationSource: "IMPORTED" });
    // the selection includes the timesheet: one read of the timesheet list besides the entry's read and write
    expect(stack.stats().byRoute).toEqual({ "GET /api/v3/timeentries/{id}": 1, "PUT /api/v3/timeentries/{id}": 1, "GET /api/v3/timmitimesheets": 1 });
  });
});

describe("updateTimeEntry rule violations", () => {
  it("rule 1: an entry of a submitted or approved timesheet cannot be modified", async () => {
    const entry = take("in a locked timesheet", (e) => e.timesheet.status !== "OPEN" && allActive(e));
    await expectRule(entry, { comment: "too late" }, 1, ["startsAt"]);
  });

  it("rule 2: startsAt carries no UTC offset", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    await expectRule(entry, { startsAt: `${entry.startsAt.slice(0, 10)}T09:00:00Z` }, 2, ["startsAt"]);
  });

  it("rule 3: a duration cannot exceed 24h", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    await expectRule(entry, { duration: "25:00:00" }, 3, ["duration"]);
  });

  it("rule 4: an entry cannot span two days", async () => {
    const entry = take("in an open timesheet", (e) => isOpen(e) && allActive(e));
    await expectRule(entry, { startsAt: `${entry.startsAt.slice(0, 10)}T12:00:00`, duration: "13:00:00" }, 4, ["startsAt", "duration"]);
  });

  it("rule 5: an entry of an activity timesheet needs axis sections", async () => {
    const entry = take("in an open activity timesheet", openActivity);
    await expectRule(entry, { axisSectionIds: [] }, 5, ["axisSectionIds"]);
  });

  it("rule 6: an entry with an inactive axis section cannot be modified", async () => {
    const entry = take("in an open activity timesheet", openActivity);
    const inactive = sections.find((s) => !s.active && s.axisId === 3 && chainTo(s).slice(0, -1).every((id) => sections.find((p) => p.id === id)!.active))!;
    expect(inactive).toBeDefined();
    await expectRule(entry, { axisSectionIds: chainTo(inactive) }, 6, ["axisSectionIds"]);
  });

  it("rule 7: the axis sections must form a parent-child chain", async () => {
    const entry = take("in an open activity timesheet", openActivity);
    const project = sections.find((s) => s.axisId === 2 && s.active && sections.find((p) => p.id === s.parent?.id)?.active)!;
    // a project without its cost centre
    await expectRule(entry, { axisSectionIds: [project.id] }, 7, ["axisSectionIds"]);
  });
});

describe("updateTimeEntry refusals and missing entries", () => {
  it("returns a refusal without rule as an InvalidInputError naming the input field", async () => {
    const entry = take("of a person without typed time, in an open timesheet", (e) => isOpen(e) && allActive(e) && e.timeTypeId === null);
    const res = await update(entry.id, { timeTypeId: 1 });
    expect(res.data.updateTimeEntry).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("timeTypeId"), fields: ["timeTypeId"] });
    expect(await readBack(entry.id)).toEqual(entry);
  });

  it("refuses an unreadable duration before any upstream call", async () => {
    stack.resetStats();
    const res = await update("20001", { duration: "2h30" });
    expect(res.data.updateTimeEntry).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("duration"), fields: ["duration"] });
    expect(stack.stats().total).toBe(0);
  });

  it("refuses null for a field every entry has", async () => {
    const res = await update("20001", { unit: null });
    expect(res.data.updateTimeEntry).toEqual({ __typename: "InvalidInputError", message: expect.stringContaining("unit"), fields: ["unit"] });
  });

  it("refuses an input that changes nothing", async () => {
    const res = await update("20001", {});
    expect(res.data.updateTimeEntry).toMatchObject({ __typename: "InvalidInputError", fields: [] });
  });

  it("answers a NotFoundError, as data, for an entry that does not exist", async () => {
    const res = await update("999999999", { duration: "01:00:00" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry).toEqual({ __typename: "NotFoundError", message: "Time entry 999999999 does not exist.", fields: ["id"] });
  });

  it("answers a NotFoundError for an id that cannot be a legacy id, without asking the upstream", async () => {
    stack.resetStats();
    const res = await update("not-a-number", { duration: "01:00:00" });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry).toMatchObject({ __typename: "NotFoundError", fields: ["id"] });
    expect(stack.stats().total).toBe(0);
  });
});

describe("TimeEntry reads by id", () => {
  it("timeEntry(id) reads one entry", async () => {
    const entry = pool[0]!;
    expect(await readBack(entry.id)).toEqual(entry);
  });

  it("timeEntry(id) is null, without error, for an entry that does not exist", async () => {
    const res = await stack.gql(url, `{ timeEntry(id: "999999999") { id } }`);
    expect(res).toMatchObject({ data: { timeEntry: null } });
    expect(res.errors).toBeUndefined();
  });

  it("resolves TimeEntry references with their owner", async () => {
    const [a, b] = [pool[1]!, pool[2]!];
    const res = await stack.gql(url, entitiesQuery("TimeEntry", "id duration owner { id }"), {
      r: representations("TimeEntry", [a.id, b.id]),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities.map((e: any) => e.duration)).toEqual([a.duration, b.duration]);
  });
});
