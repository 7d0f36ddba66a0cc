import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { byNumericId, datedListFilterTests, expectProperSubset, filteredIds, idsOf, mostCommon, pageAll, query, send } from "./helpers.js";

/** Root `jobPosition`/`jobPositions`, the job position's fields and its edges. */

interface Row {
  id: string;
  remoteId: string | null;
  status: string;
  startsOn: string;
  endsOn: string | null;
  updatedAttributes: string[];
  employment: { id: string };
  employee: { id: string };
  manager: { id: string } | null;
  businessEstablishment: { id: string } | null;
  department: { id: string } | null;
  jobQualification: { id: string } | null;
  occupationCategory: { id: string } | null;
}

const ROW = `id remoteId status startsOn endsOn updatedAttributes employment { id } employee { id } manager { id }
  businessEstablishment { id } department { id } jobQualification { id } occupationCategory { id }`;

const stack = useStack({ subgraphs: ["people"] });
let all: Row[];

beforeAll(async () => {
  all = (await pageAll<Row>(stack, "jobPositions", ROW, { first: 100 })).nodes;
});

const filtered = (filter: Record<string, unknown>) => filteredIds(stack, "jobPositions", "JobPositionFilter", filter);

const expectSubset = (result: string[], expected: string[]) => expectProperSubset(result, expected, all.length);

/** The most common value of `key` among all rows. */
const common = (key: (r: Row) => string | null | undefined) => mostCommon(all, key);

describe("job positions", () => {
  it("paging to the end lists every job position of the demo once", () => {
    expect(idsOf(all)).toEqual(stack.directory.company.jobPositions.map((p) => p.id).sort());
  });

  it("jobPosition(id) reads one job position with its REST fields", async () => {
    const model = stack.directory.company.jobPositions.find((p) => p.notes !== null && p.documentId !== null && p.workingTimeArrangementId !== null)!;
    const data = await query(
      stack,
      `query($id: ID!) { jobPosition(id: $id) { id remoteId startsOn notes document { id url } workingTimeArrangement { id } jobTitle createdAt lastUpdatedAt } }`,
      { id: model.id },
    );
    expect(data.jobPosition).toMatchObject({
      id: model.id,
      remoteId: model.remoteId,
      startsOn: model.startsOn,
      notes: model.notes,
      document: { id: model.documentId },
      workingTimeArrangement: { id: model.workingTimeArrangementId },
      jobTitle: model.jobTitle,
      createdAt: model.createdAt,
    });
  });

  it("an unknown job position is null without an error", async () => {
    const response = await send(stack, `{ jobPosition(id: "999999") { id } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.jobPosition).toBeNull();
  });

  it("jobTitle(lang) picks the translation, falls back to the language, then to the invariant title", async () => {
    const model = stack.directory.company.jobPositions.find((p) => p.t9n.jobTitle?.["fr-FR"] && p.t9n.jobTitle["fr-FR"] !== p.jobTitle)!;
    const data = await query(
      stack,
      `query($id: ID!) { jobPosition(id: $id) { fr: jobTitle(lang: "fr-FR") lower: jobTitle(lang: "fr") de: jobTitle(lang: "de-DE") plain: jobTitle jobTitleTranslations { language text } } }`,
      { id: model.id },
    );
    const p = data.jobPosition;
    expect(p.fr).toBe(model.t9n.jobTitle!["fr-FR"]);
    expect(p.lower).toBe(model.t9n.jobTitle!["fr-FR"]);
    expect(p.de).toBe(model.jobTitle);
    expect(p.plain).toBe(model.jobTitle);
    expect(p.jobTitleTranslations).toEqual(Object.entries(model.t9n.jobTitle!).map(([language, text]) => ({ language, text })));
  });

  it("updatedAttributes are enum values of the REST attribute names", async () => {
    const row = all.find((r) => r.updatedAttributes.length > 2)!;
    for (const a of row.updatedAttributes) {
      expect(["REMOTE_ID", "JOB_TITLE", "JOB_QUALIFICATION", "OCCUPATION_CATEGORY", "WORKING_TIME_ARRANGEMENT", "DEPARTMENT"]).toContain(a);
    }
  });

  it("employee, employment and manager are entities resolved through their loaders", async () => {
    const model = stack.directory.company.jobPositions.find((p) => p.managerId !== null)!;
    const data = await query(
      stack,
      `query($id: ID!) { jobPosition(id: $id) { employee { id familyName } employment { id startsOn } manager { id givenName } } }`,
      { id: model.id },
    );
    const company = stack.directory.company;
    expect(data.jobPosition.employee.familyName).toBe(company.employees.find((e) => e.id === model.employeeId)!.familyName);
    expect(data.jobPosition.employment.startsOn).toBe(company.employments.find((e) => e.id === model.employmentId)!.startDate);
    expect(data.jobPosition.manager.givenName).toBe(company.employees.find((e) => e.id === model.managerId)!.givenName);
  });
});

describe("JobPositionFilter", () => {
  it("ids selects exactly those job positions", async () => {
    expect(await filtered({ ids: ["4", "40", "999999"] })).toEqual(["4", "40"]);
  });

  it("remoteIds selects by remoteId", async () => {
    const remoteIds = all.filter((r) => r.remoteId).slice(0, 3).map((r) => r.remoteId!);
    expect(await filtered({ remoteIds })).toEqual(idsOf(all.filter((r) => remoteIds.includes(r.remoteId ?? ""))));
  });

  it("a null entry in remoteIds selects job positions without a remoteId", async () => {
    expectSubset(await filtered({ remoteIds: [null] }), idsOf(all.filter((r) => r.remoteId === null)));
  });

  it("employmentIds selects the job positions of those employments", async () => {
    const id = common((r) => r.employment.id);
    expectSubset(await filtered({ employmentIds: [id] }), idsOf(all.filter((r) => r.employment.id === id)));
  });

  it("employeeIds selects a whole career across employments", async () => {
    const id = common((r) => r.employee.id);
    const expected = idsOf(all.filter((r) => r.employee.id === id));
    expect(new Set(all.filter((r) => r.employee.id === id).map((r) => r.employment.id)).size).toBeGreaterThan(1);
    expectSubset(await filtered({ employeeIds: [id] }), expected);
  });

  const refs = [
    ["businessEstablishmentIds", "businessEstablishment"],
    ["jobQualificationIds", "jobQualification"],
    ["occupationCategoryIds", "occupationCategory"],
    ["managerIds", "manager"],
    ["departmentIds", "department"],
  ] as const;
  it.each(refs)("%s filters on the job position's %s", async (filter, field) => {
    const id = common((r) => r[field]?.id);
    expectSubset(await filtered({ [filter]: [id] }), idsOf(all.filter((r) => r[field]?.id === id)));
  });

  datedListFilterTests("job positions", () => all, filtered, { startIndex: 20, startsBetween: { from: "2020-01-01", to: "2021-12-31" }, withoutEnd: "job positions without an end" });

  it("endsOnBetween with an open end keeps job positions ending from then on", async () => {
    expectSubset(await filtered({ endsOnBetween: { from: "2025-01-01" } }), idsOf(all.filter((r) => r.endsOn !== null && r.endsOn >= "2025-01-01")));
  });

  it("updatedAttributes keeps job positions that changed one of the attributes", async () => {
    const wanted = ["DEPARTMENT", "OCCUPATION_CATEGORY"];
    expectSubset(await filtered({ updatedAttributes: wanted }), idsOf(all.filter((r) => r.updatedAttributes.some((a) => wanted.includes(a)))));
  });
});

describe("JobPositionSort", () => {
  async function sorted(sort: string[]): Promise<Row[]> {
    return (await query(stack, `query($sort: [JobPositionSort!]) { jobPositions(first: 100, sort: $sort) { nodes { ${ROW} } } }`, { sort })).jobPositions.nodes;
  }

  it("ID_ASC and ID_DESC order by id", async () => {
    const byId = [...all].sort(byNumericId).map((r) => r.id);
    expect((await sorted(["ID_ASC"])).map((r) => r.id)).toEqual(byId.slice(0, 100));
    expect((await sorted(["ID_DESC"])).map((r) => r.id)).toEqual([...byId].reverse().slice(0, 100));
  });

  it("STARTS_ON_ASC and STARTS_ON_DESC order by start date", async () => {
    const starts = all.map((r) => r.startsOn).sort();
    expect((await sorted(["STARTS_ON_ASC"])).map((r) => r.startsOn)).toEqual(starts.slice(0, 100));
    expect((await sorted(["STARTS_ON_DESC"])).map((r) => r.startsOn)).toEqual([...starts].reverse().slice(0, 100));
  });

  it("ENDS_ON_ASC orders by end date with open ends last, ENDS_ON_DESC puts them first", async () => {
    const ends = all.filter((r) => r.endsOn !== null).map((r) => r.endsOn!).sort();
    expect((await sorted(["ENDS_ON_ASC"])).map((r) => r.endsOn)).toEqual(ends.slice(0, 100));
    expect((await sorted(["ENDS_ON_DESC"]))[0]!.endsOn).toBeNull();
  });
});
