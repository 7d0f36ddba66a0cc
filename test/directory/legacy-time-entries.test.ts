import { beforeAll, describe, expect, test } from "vitest";
import { TODAY, addDays, startLegacy, useLegacy } from "./legacy-helpers.js";

const LIST = "/api/v3/timeentries";
/** 2026-06-15 is a Monday: the current week starts today; the 12-week window on 2026-03-30 */
const WINDOW_START = addDays(TODAY, -77);
const OWNERS = Array.from({ length: 60 }, (_, i) => i + 1);

const api = useLegacy();
let entries: any[];
let sections: Map<number, any>;
/** timesheet id -> {status, mode}: the status from /api/v3/timmitimesheets, the mode from the week's entries */
let sheets: Map<number, { status: string; mode: string; startsOn: string }>;
const STATUS = ["open", "submitted", "approved"];
const sheetOf = (e: any) => sheets.get(e.timesheetId)!;

async function listAll(query: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 1000) {
    const res = await api.get(`${LIST}?${query}&paging=${offset},1000`);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    out.push(...res.body.data.items);
    if (out.length >= res.body.data.count) return out;
  }
}

/** Entries are taken out of the pool so that a test that changes one does not disturb another. */
function take(what: string, predicate: (e: any) => boolean): any {
  const index = entries.findIndex(predicate);
  if (index < 0) throw new Error(`the demo has no time entry that is ${what}`);
  return entries.splice(index, 1)[0];
}

const isOpen = (e: any) => sheetOf(e).status === "open";
const inactive = (e: any) => (e.axisSections ?? []).some((s: any) => !sections.get(s.id).active);
const openActivity = (e: any) => isOpen(e) && sheetOf(e).mode === "activity" && !inactive(e);
const openAttendance = (e: any) => isOpen(e) && sheetOf(e).mode === "attendance";

/** The PUT body that restates an entry as it is. */
function bodyOf(e: any): Record<string, unknown> {
  return {
    id: e.id,
    ownerId: e.ownerId,
    unit: e.unit,
    startsAt: e.startsAt,
    duration: e.duration,
    creationSource: e.creationSource,
    axisSections: e.axisSections,
    comment: e.comment === null ? null : { content: e.comment.content },
    timeTypeId: e.timeTypeId,
  };
}

async function readBack(e: any): Promise<any> {
  const date = e.startsAt.slice(0, 10);
  const items = (await api.get(`${LIST}?ownerId=${e.ownerId}&startsAt=between,${date},${date}`)).body.data.items;
  return items.find((x: any) => x.id === e.id);
}

/** A PUT that must break exactly one rule: 400 naming it, and the entry as it was. */
async function expectRule(e: any, body: Record<string, unknown>, rule: number): Promise<void> {
  const res = await api.put(`${LIST}/${e.id}`, body);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ status: 400, message: expect.stringMatching(new RegExp(`^Rule ${rule}: `)), rule });
  expect(await readBack(e)).toEqual(e);
}

/** A PUT rejected for its shape or format: 400 without a rule, and the entry as it was. */
async function expectBadInput(e: any, body: Record<string, unknown>, mentioned: string): Promise<void> {
  const res = await api.put(`${LIST}/${e.id}`, body);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ status: 400, message: expect.stringContaining(mentioned) });
  expect(await readBack(e)).toEqual(e);
}

beforeAll(async () => {
  entries = await listAll(`ownerId=${OWNERS.join(",")}&startsAt=between,${WINDOW_START},${TODAY}&layer=notequal,1`);
  sections = new Map((await api.get("/api/v3/axisSections")).body.data.items.map((s: any) => [s.id, s]));
  const listed = (await api.get(`/api/v3/timmitimesheets?ownerId=${OWNERS.join(",")}&paging=0,10000`)).body.data.items;
  const activity = new Set(entries.filter((e) => e.axisSections !== null).map((e) => e.timesheetId));
  sheets = new Map(listed.map((t: any) => [t.id, { status: STATUS[t.status]!, mode: activity.has(t.id) ? "activity" : "attendance", startsOn: t.startsOn }]));
});

describe("the demo's time entries", () => {
  test("fall on weekdays of the 12 weeks up to today", () => {
    expect(entries.length).toBeGreaterThan(1000);
    const outside = entries.filter((e) => {
      const day = new Date(`${e.startsAt.slice(0, 10)}T00:00:00Z`).getUTCDay();
      return day === 0 || day === 6 || e.startsAt < WINDOW_START || e.startsAt > `${TODAY}T23:59:59`;
    });
    expect(outside).toEqual([]);
  });

  test("use every creation source, both modes, every timesheet state and every unit", () => {
    expect(new Set(entries.map((e) => e.creationSource))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(new Set(entries.map((e) => sheetOf(e).mode))).toEqual(new Set(["activity", "attendance"]));
    expect(new Set(entries.map((e) => sheetOf(e).status))).toEqual(new Set(["open", "submitted", "approved"]));
    expect(new Set(entries.map((e) => e.unit))).toEqual(new Set([0, 1, 2]));
  });

  test("the current and the previous week are open, weeks from four weeks back are closed", () => {
    const recentClosed = entries.filter((e) => e.startsAt >= addDays(TODAY, -7) && sheetOf(e).status !== "open");
    const oldOpen = entries.filter((e) => e.startsAt < addDays(TODAY, -28) && sheetOf(e).status === "open");
    expect(recentClosed).toEqual([]);
    expect(oldOpen).toEqual([]);
  });

  test("activity entries carry a chain from a cost centre down, attendance entries none", () => {
    const broken = entries.filter((e) => {
      if (sheetOf(e).mode === "attendance") return e.axisSections !== null;
      const chain = e.axisSections.map((s: any) => sections.get(s.id));
      return chain[0].parentAxisSections.length > 0 || chain.some((s: any, i: number) => i > 0 && s.parentAxisSections[0].id !== chain[i - 1].id);
    });
    expect(broken).toEqual([]);
  });

  test("units 0 and 1 start at 00:00:00 or 12:00:00 and no entry passes midnight", () => {
    const seconds = (hms: string) => hms.split(":").reduce((total, part) => total * 60 + Number(part), 0);
    const broken = entries.filter((e) => {
      const time = e.startsAt.slice(11);
      return (e.unit !== 2 && time !== "00:00:00" && time !== "12:00:00") || seconds(time) + seconds(e.duration) > 86_400;
    });
    expect(broken).toEqual([]);
  });

  test("an entry's id is its owner's id times 10000 plus its rank", () => {
    expect(entries.filter((e) => Math.floor(e.id / 10_000) !== e.ownerId)).toEqual([]);
  });

  test("a typed time-tracking user's entries carry a time type, other users' none", () => {
    const byOwner = new Map<number, any[]>();
    for (const e of entries) byOwner.set(e.ownerId, [...(byOwner.get(e.ownerId) ?? []), e]);
    const typed = [...byOwner.values()].filter((list) => list.some((e) => e.timeTypeId !== null));
    expect(typed.length).toBeGreaterThan(0);
    for (const list of typed) expect(list.every((e) => e.timeTypeId !== null)).toBe(true);
  });

  test("are the same, with the same ids, in another run of the service", async () => {
    const other = await startLegacy();
    try {
      const query = `${LIST}?ownerId=5,6&startsAt=between,${addDays(TODAY, -14)},${TODAY}&paging=0,1000`;
      const a = (await api.get(query)).body.data.items.map((e: any) => [e.id, e.startsAt, e.duration, e.axisSections]);
      const b = (await other.get(query)).body.data.items.map((e: any) => [e.id, e.startsAt, e.duration, e.axisSections]);
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    } finally {
      await other.close();
    }
  });
});

describe("GET /api/v3/timeentries", () => {
  test("answers the listed owners' entries in data.items with count, ordered by startsAt then id", async () => {
    const res = await api.get(`${LIST}?ownerId=7,5&startsAt=between,${addDays(TODAY, -7)},${TODAY}`);
    expect(res.status).toBe(200);
    const items = res.body.data.items;
    expect(res.body.data.count).toBe(items.length);
    expect(new Set(items.map((e: any) => e.ownerId))).toEqual(new Set([5, 7]));
    const keys = items.map((e: any) => `${e.startsAt}#${String(e.id).padStart(10, "0")}`);
    expect(keys).toEqual([...keys].sort());
  });

  test("an entry carries its owner, duration, sections, comment, authorship and timesheet id", async () => {
    const e = entries.find((x) => x.comment !== null && x.axisSections !== null)!;
    const dateTime = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(e).toMatchObject({
      id: expect.any(Number),
      owner: { id: e.ownerId, firstName: expect.any(String), lastName: expect.any(String), mail: expect.any(String), legalEntityId: expect.any(Number) },
      startsAt: dateTime,
      duration: expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/),
      endsAt: dateTime,
      authorId: expect.any(Number),
      createdAt: dateTime,
      modifierId: expect.any(Number),
      modifiedAt: dateTime,
      archivedAt: null,
      layer: 0,
      comment: { id: e.id, content: expect.any(String) },
      timesheetId: expect.any(Number),
    });
    expect(e).not.toHaveProperty("timesheet");
    expect(e.modifiedAt >= e.createdAt).toBe(true);
    expect(new Date(`${sheetOf(e).startsOn}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  test("between includes both bounds, a date upper bound covering its whole day", async () => {
    const day = addDays(TODAY, -3);
    const items = (await api.get(`${LIST}?ownerId=5&startsAt=between,${day},${day}`)).body.data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((e: any) => e.startsAt.startsWith(day))).toBe(true);
    const first = items[0].startsAt;
    const exact = (await api.get(`${LIST}?ownerId=5&startsAt=between,${first},${first}`)).body.data.items;
    expect(exact.map((e: any) => e.startsAt)).toEqual(items.filter((e: any) => e.startsAt === first).map((e: any) => e.startsAt));
  });

  test("without startsAt every entry of the owners is listed", async () => {
    const all = (await api.get(`${LIST}?ownerId=5&layer=notequal,1&paging=0,1000`)).body.data;
    const inWindow = entries.filter((e) => e.ownerId === 5);
    expect(all.count).toBe(inWindow.length);
  });

  test("paging takes an offset and a limit; count stays the total", async () => {
    const query = `${LIST}?ownerId=5,6&startsAt=between,${addDays(TODAY, -21)},${TODAY}`;
    const whole = (await api.get(`${query}&paging=0,1000`)).body.data;
    const page = (await api.get(`${query}&paging=10,5`)).body.data;
    expect(page.count).toBe(whole.count);
    expect(page.items.map((e: any) => e.id)).toEqual(whole.items.slice(10, 15).map((e: any) => e.id));
  });

  test("the default page is the first 100 entries", async () => {
    const res = (await api.get(`${LIST}?ownerId=5,6,7`)).body.data;
    expect(res.count).toBeGreaterThan(100);
    expect(res.items).toHaveLength(100);
  });

  test("an employee who is not active today has no entries", async () => {
    const deactivated = api.directory.company.employees.find(
      (e) => !api.directory.company.employments.some((m) => m.employeeId === e.id && (m.endDate === null || m.endDate >= TODAY)),
    )!;
    expect((await api.get(`${LIST}?ownerId=${deactivated.id}`)).body.data).toEqual({ items: [], count: 0 });
  });

  test.each([
    ["more than 100 owners", `ownerId=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`],
    ["an ownerId of 0", "ownerId=0"],
    ["startsAt with an unknown comparator", "ownerId=5&startsAt=after,2026-06-01"],
    ["a between with one bound", "ownerId=5&startsAt=between,2026-06-01"],
    ["a from after the to", "ownerId=5&startsAt=between,2026-06-07,2026-06-01"],
    ["a bound with an offset", "ownerId=5&startsAt=between,2026-06-01T00:00:00Z,2026-06-07"],
    ["a bound that is no date", "ownerId=5&startsAt=between,yesterday,2026-06-07"],
    ["paging without a limit", "ownerId=5&paging=10"],
    ["a paging limit above 10000", "ownerId=5&paging=0,10001"],
    ["a negative paging offset", "ownerId=5&paging=-1,10"],
    ["an unknown parameter", "ownerId=5&owner=6"],
  ])("%s is a 400", async (_name, query) => {
    const res = await api.get(`${LIST}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.any(String) });
  });
});

describe("GET /api/v3/timeentries/{id}", () => {
  test("answers one entry in data, as the list writes it", async () => {
    const e = entries.find((x) => x.axisSections !== null && x.comment !== null)!;
    const res = await api.get(`${LIST}/${e.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: e });
  });

  test("shows a change made by a PUT at once", async () => {
    const e = take("open, in attendance mode", (x) => openAttendance(x) && x.timeTypeId === null);
    expect((await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), comment: { content: "Read back" } })).status).toBe(200);
    expect((await api.get(`${LIST}/${e.id}`)).body.data.comment).toEqual({ id: e.id, content: "Read back" });
  });

  test.each([
    ["a rank beyond the owner's entries", () => entries[0]!.ownerId * 10_000 + 9_999],
    ["an owner who is no employee", () => 999_999 * 10_000 + 1],
    ["an id below the first owner's", () => 5],
  ])("an unknown entry (%s) is a 404 naming it", async (_name, id) => {
    const res = await api.get(`${LIST}/${id()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: `Time entry ${id()} does not exist.` });
  });

  test.each([
    ["an id that is not an integer", "abc"],
    ["an id of 0", "0"],
    ["an unknown query parameter", `${10_001}?unit=1`],
  ])("%s is a 400", async (_name, rest) => {
    const res = await api.get(`${LIST}/${rest}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: expect.any(String) });
  });
});

describe("PUT /api/v3/timeentries/{id}", () => {
  test("a valid change is applied and the entry answered", async () => {
    const e = take("open, in activity mode", openActivity);
    const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), duration: "02:30:00", comment: { content: "Corrected" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ...e,
      duration: "02:30:00",
      endsAt: expect.any(String),
      comment: { id: e.id, content: "Corrected" },
      modifiedAt: expect.any(String),
      modifierId: 1,
    });
    expect(await readBack(e)).toEqual(res.body.data);
  });

  test("creationSource defaults to 2 (manual) and comment to none", async () => {
    const e = take("open, in attendance mode, with a source other than manual", (x) => openAttendance(x) && x.creationSource !== 2 && x.timeTypeId === null);
    const { creationSource: _s, comment: _c, ...body } = bodyOf(e);
    const res = await api.put(`${LIST}/${e.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ creationSource: 2, comment: null });
  });

  test("an entry may move to another day of an open week and lasts up to 1.00:00:00", async () => {
    const e = take("open, unit 2, attendance", (x) => openAttendance(x) && x.unit === 2 && x.timeTypeId === null);
    const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), startsAt: `${addDays(TODAY, 2)}T00:00:00`, duration: "1.00:00:00" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ startsAt: `${addDays(TODAY, 2)}T00:00:00`, duration: "1.00:00:00" });
  });

  test("rule 1: an entry of an approved timesheet cannot be modified", async () => {
    const e = take("approved", (x) => sheetOf(x).status === "approved" && !inactive(x));
    await expectRule(e, { ...bodyOf(e), duration: "01:00:00" }, 1);
  });

  test("rule 1: an entry of a submitted timesheet cannot be modified", async () => {
    const e = take("submitted", (x) => sheetOf(x).status === "submitted" && !inactive(x));
    await expectRule(e, { ...bodyOf(e), duration: "01:00:00" }, 1);
  });

  test("rule 1: an entry cannot move into a closed week", async () => {
    const e = take("open, in attendance mode", openAttendance);
    const closed = entries.find((x) => x.ownerId === e.ownerId && sheetOf(x).status !== "open")!;
    await expectRule(e, { ...bodyOf(e), startsAt: `${closed.startsAt.slice(0, 10)}${e.startsAt.slice(10)}` }, 1);
  });

  test("rule 2: startsAt with a UTC offset is refused", async () => {
    const e = take("open, in attendance mode", openAttendance);
    await expectRule(e, { ...bodyOf(e), startsAt: `${e.startsAt}Z` }, 2);
    await expectRule(e, { ...bodyOf(e), startsAt: `${e.startsAt}+02:00` }, 2);
  });

  test("rule 3: a duration over 24h is refused", async () => {
    const e = take("open, in attendance mode", openAttendance);
    await expectRule(e, { ...bodyOf(e), duration: "1.00:00:01" }, 3);
    await expectRule(e, { ...bodyOf(e), duration: "2.00:00:00" }, 3);
  });

  test("rule 4: an entry cannot pass midnight", async () => {
    const e = take("open, unit 2, attendance", (x) => openAttendance(x) && x.unit === 2);
    await expectRule(e, { ...bodyOf(e), startsAt: `${e.startsAt.slice(0, 10)}T22:00:00`, duration: "03:00:00" }, 4);
  });

  test("rule 4: an afternoon half day of 12:00:01 passes midnight", async () => {
    const e = take("open, unit 0 or 1, attendance", (x) => openAttendance(x) && x.unit !== 2);
    await expectRule(e, { ...bodyOf(e), startsAt: `${e.startsAt.slice(0, 10)}T12:00:00`, duration: "12:00:01" }, 4);
  });

  test("rule 5: an entry of an activity timesheet needs axis sections", async () => {
    const e = take("open, in activity mode", openActivity);
    await expectRule(e, { ...bodyOf(e), axisSections: [] }, 5);
    await expectRule(e, { ...bodyOf(e), axisSections: null }, 5);
  });

  test("rule 5: an entry of an attendance timesheet takes no axis sections", async () => {
    const e = take("open, in attendance mode", openAttendance);
    const chain = entries.find(openActivity)!.axisSections;
    await expectRule(e, { ...bodyOf(e), axisSections: chain }, 5);
  });

  test("rule 6: an entry with an inactive axis section cannot be modified", async () => {
    const e = take("open, with an inactive axis section", (x) => isOpen(x) && inactive(x));
    await expectRule(e, { ...bodyOf(e), duration: "01:00:00" }, 6);
  });

  test("rule 6: an inactive axis section cannot be set on an entry", async () => {
    const e = take("open, in activity mode", openActivity);
    const task = [...sections.values()].find((s) => !s.active && s.axisId === 3 && sections.get(s.parentAxisSections[0].id).active)!;
    const project = sections.get(task.parentAxisSections[0].id);
    const chain = [{ id: project.parentAxisSections[0].id }, { id: project.id }, { id: task.id }];
    await expectRule(e, { ...bodyOf(e), axisSections: chain }, 6);
  });

  test("rule 7: the axis sections must form a chain from a cost centre", async () => {
    const e = take("open, in activity mode, with a task", (x) => openActivity(x) && x.axisSections.length === 3);
    await expectRule(e, { ...bodyOf(e), axisSections: e.axisSections.slice(1) }, 7);
  });

  test("rule 7: a task must belong to the project of the chain", async () => {
    const e = take("open, in activity mode, with a task", (x) => openActivity(x) && x.axisSections.length === 3);
    const [cc, project] = e.axisSections;
    const foreignTask = [...sections.values()].find((s) => s.axisId === 3 && s.active && s.parentAxisSections[0].id !== project.id)!;
    await expectRule(e, { ...bodyOf(e), axisSections: [cc, project, { id: foreignTask.id }] }, 7);
  });

  test("rule 7: a section twice is no chain", async () => {
    const e = take("open, in activity mode", openActivity);
    await expectRule(e, { ...bodyOf(e), axisSections: [...e.axisSections, e.axisSections[0]] }, 7);
  });

  test("the order of the sections in the request does not matter", async () => {
    const e = take("open, in activity mode", openActivity);
    const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), axisSections: [...e.axisSections].reverse() });
    expect(res.status).toBe(200);
  });

  test.each([
    ["a duration without seconds", { duration: "2:30" }, "duration"],
    ["a duration of 60 minutes", { duration: "02:60:00" }, "duration"],
    ["24:00:00 instead of 1.00:00:00", { duration: "24:00:00" }, "duration"],
    ["a duration that is a number", { duration: 3600 }, "duration"],
    ["startsAt that is no date-time", { startsAt: "2026-06-15 09:00" }, "startsAt"],
    ["a creationSource of 5", { creationSource: 5 }, "creationSource"],
    ["a creationSource as a string", { creationSource: "2" }, "creationSource"],
    ["a unit of 3", { unit: 3 }, "unit"],
    ["an unknown field", { project: 1 }, "project"],
    ["another owner", { ownerId: 1 }, "ownerId"],
    ["an id that differs from the path", { id: 1 }, "id"],
    ["a comment that is a string", { comment: "text" }, "comment"],
    ["an axis section that does not exist", { axisSections: [{ id: 99_999 }] }, "99999"],
    ["axis sections that are not {id}", { axisSections: [1, 2] }, "axisSections"],
  ])("%s is a 400 without rule", async (_name, change, mentioned) => {
    const e = take("open, in attendance mode, unit 2", (x) => openAttendance(x) && x.unit === 2 && x.timeTypeId === null);
    await expectBadInput(e, { ...bodyOf(e), ...change }, mentioned);
  });

  test("a body without id is a 400 naming it: the PUT replaces the entry its body names", async () => {
    const e = take("open, in attendance mode, unit 2", (x) => openAttendance(x) && x.unit === 2 && x.timeTypeId === null);
    const { id: _id, ...body } = bodyOf(e);
    await expectBadInput(e, body, "id is required");
  });

  test("the entry sent back as read is accepted: read-only fields are ignored; modifiedAt and the modifier move", async () => {
    const e = take("open, in attendance mode", (x) => openAttendance(x) && x.timeTypeId === null);
    const res = await api.put(`${LIST}/${e.id}`, { ...e, owner: { id: 1 }, layer: 7, createdAt: "2000-01-01T00:00:00", duration: "01:15:00" });
    expect(res.status).toBe(200);
    const after = res.body.data;
    expect(after).toMatchObject({ id: e.id, duration: "01:15:00", owner: e.owner, layer: 0, createdAt: e.createdAt, authorId: e.authorId });
    expect(after.modifiedAt > e.modifiedAt).toBe(true);
    expect(after.modifierId).toBe(1);
    // an incremental sync from just before the write sees it
    const since = (await api.get(`${LIST}?ownerId=${e.ownerId}&modifiedAt=since,${e.modifiedAt.slice(0, 10)}T23:59:59&layer=notequal,1`)).body.data.items;
    expect(since.map((x: any) => x.id)).toContain(e.id);
  });

  test("a theoretical entry (layer 1) cannot be modified", async () => {
    const e = entries[0]!;
    const theoretical = (await api.get(`${LIST}?ownerId=${e.ownerId}&layer=1&paging=0,1`)).body.data.items[0];
    expect(theoretical).toMatchObject({ layer: 1, creationSource: 0 });
    const res = await api.put(`${LIST}/${theoretical.id}`, theoretical);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("theoretical");
  });

  test.each(["ownerId", "unit", "startsAt", "duration"])("a body without %s is a 400", async (field) => {
    const e = take("open, in attendance mode", openAttendance);
    const body = bodyOf(e);
    delete body[field];
    await expectBadInput(e, body, `${field} is required`);
  });

  test("units 0 and 1 only start at 00:00:00 or 12:00:00", async () => {
    const e = take("open, unit 0 or 1, attendance", (x) => openAttendance(x) && x.unit !== 2);
    await expectBadInput(e, { ...bodyOf(e), startsAt: `${e.startsAt.slice(0, 10)}T09:00:00` }, "12:00:00");
    const ok = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), startsAt: `${e.startsAt.slice(0, 10)}T12:00:00`, duration: "04:00:00" });
    expect(ok.status).toBe(200);
  });

  test("unit 2 starts at any time of day", async () => {
    const e = take("open, in attendance mode", (x) => openAttendance(x) && x.timeTypeId === null);
    const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), unit: 2, startsAt: `${e.startsAt.slice(0, 10)}T09:17:00`, duration: "01:00:00" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ unit: 2, startsAt: `${e.startsAt.slice(0, 10)}T09:17:00` });
  });

  test("every creation source from 0 to 4 is accepted", async () => {
    const e = take("open, unit 2, attendance", (x) => openAttendance(x) && x.unit === 2 && x.timeTypeId === null);
    for (const creationSource of [0, 1, 2, 3, 4]) {
      const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), creationSource });
      expect(res.body.data.creationSource).toBe(creationSource);
    }
  });

  test("a time type is refused for a user who does not track typed time", async () => {
    const e = take("open, of a user without time types", (x) => isOpen(x) && !inactive(x) && x.timeTypeId === null && entries.every((y) => y.ownerId !== x.ownerId || y.timeTypeId === null));
    await expectBadInput(e, { ...bodyOf(e), timeTypeId: 1 }, "timeTypeId");
  });

  test("a typed user's entry takes a known time type or none", async () => {
    const e = take("open, with a time type", (x) => isOpen(x) && !inactive(x) && x.timeTypeId !== null);
    await expectBadInput(e, { ...bodyOf(e), timeTypeId: 99 }, "timeTypeId");
    const res = await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), timeTypeId: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data.timeTypeId).toBe(2);
    expect((await api.put(`${LIST}/${e.id}`, { ...bodyOf(e), timeTypeId: null })).body.data.timeTypeId).toBeNull();
  });

  test("an unknown time entry is a 404", async () => {
    const e = entries.find(openAttendance)!;
    for (const id of [e.ownerId * 10_000 + 9_999, 999_999 * 10_000 + 1, 5]) {
      const res = await api.put(`${LIST}/${id}`, bodyOf(e));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: expect.stringContaining(String(id)) });
    }
  });

  test("an id that is not an integer is a 400", async () => {
    expect((await api.put(`${LIST}/abc`, {})).status).toBe(400);
  });

  test("a query parameter is a 400, and nothing changes", async () => {
    const e = entries.find(openAttendance)!;
    const res = await api.put(`${LIST}/${e.id}?unit=1`, { ...bodyOf(e), duration: "01:00:00" });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("'unit'");
    expect(await readBack(e)).toEqual(e);
  });

  test("a body that is not an object is a 400", async () => {
    const e = entries.find(openAttendance)!;
    const res = await api.put(`${LIST}/${e.id}`, [bodyOf(e)]);
    expect(res.status).toBe(400);
    expect(res.body.rule).toBeUndefined();
  });
});
