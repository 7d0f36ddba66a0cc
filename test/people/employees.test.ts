import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { byNumericId, expectProperSubset, filteredIds, fold, idsOf, mostCommon, pageAll, query, send } from "./helpers.js";

/**
 * Root `employee`/`employees` of the people subgraph and the employee's own fields, checked
 * against a full listing of the demo company read through the same subgraph without filters.
 */

interface Row {
  id: string;
  givenName: string;
  familyName: string;
  email: string | null;
  status: string;
  createdAt: string;
  applicableEmployment: {
    id: string;
    remoteId: string | null;
    startsOn: string;
    endsOn: string | null;
    legalEntity: { id: string } | null;
    template: { id: string } | null;
  } | null;
  applicableJobPosition: {
    remoteId: string | null;
    businessEstablishment: { id: string } | null;
    department: { id: string } | null;
    manager: { id: string } | null;
    jobQualification: { id: string } | null;
    occupationCategory: { id: string } | null;
  } | null;
}

const ROW = `id givenName familyName email status createdAt
  applicableEmployment { id remoteId startsOn endsOn legalEntity { id } template { id } }
  applicableJobPosition { remoteId businessEstablishment { id } department { id } manager { id } jobQualification { id } occupationCategory { id } }`;

const stack = useStack({ subgraphs: ["people"] });
let all: Row[];

beforeAll(async () => {
  all = (await pageAll<Row>(stack, "employees", ROW, { first: 100 })).nodes;
});

const filtered = (filter: Record<string, unknown>) => filteredIds(stack, "employees", "EmployeeFilter", filter);

/** The most common value of `key` among all rows. */
const common = (key: (r: Row) => string | null | undefined) => mostCommon(all, key);

const expectSubset = (result: string[], expected: string[]) => expectProperSubset(result, expected, all.length);

describe("employees", () => {
  it("the demo company is listed whole by paging to the end", () => {
    expect(all).toHaveLength(300);
    expect(new Set(all.map((r) => r.id)).size).toBe(300);
  });

  it("paging with an odd page size loses and repeats nothing, and counts every employee", async () => {
    const { nodes, pages, totalCount } = await pageAll<{ id: string }>(stack, "employees", "id", { first: 37, rest: "sort: [FAMILY_NAME_ASC]" });
    expect(pages).toBe(Math.ceil(300 / 37));
    expect(totalCount).toBe(300);
    expect(nodes.map((n) => n.id).sort()).toEqual(idsOf(all));
  });

  it("employee(id) reads one employee", async () => {
    const row = all[41]!;
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { ${ROW} } }`, { id: row.id });
    expect(data.employee).toEqual(row);
  });

  it("an unknown employee is null without an error", async () => {
    const response = await send(stack, `{ employee(id: "999999") { id } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.employee).toBeNull();
  });

  it("an employee carries its REST fields: status enum, birthday, portrait, timestamps", async () => {
    const data = await query(
      stack,
      `{ employee(id: "1") { id remoteId employeeNumber status phoneNumber birthDay { day month } portrait { id url } createdAt lastUpdatedAt } }`,
    );
    const e = data.employee;
    expect(e.status).toMatch(/^(ACTIVE|UPCOMING|DEACTIVATED)$/);
    expect(e.birthDay.day).toBeGreaterThanOrEqual(1);
    expect(e.birthDay.month).toBeLessThanOrEqual(12);
    // a file link of the facade, never the directory's address (docs/security.md#file-links)
    expect(e.portrait.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[A-Za-z0-9_-]+$/);
    expect(e.employeeNumber).toEqual(expect.any(String));
    expect(Date.parse(e.createdAt)).not.toBeNaN();
    const model = stack.directory.company.employees.find((x) => x.id === "1")!;
    expect(e.remoteId).toBe(model.remoteId);
    expect(e.phoneNumber).toBe(model.phoneNumber);
  });

  it("the directory-search operation answers a page of active employees by family name", async () => {
    const data = await query(
      stack,
      `query DirectorySearch($search: String!, $after: String) {
        employees(filter: { search: $search, status: [ACTIVE] }, sort: [FAMILY_NAME_ASC], first: 20, after: $after) {
          totalCount pageInfo { hasNextPage endCursor }
          edges { cursor node { id givenName familyName email applicableJobPosition { jobTitle department { id } businessEstablishment { id } } } }
        } }`,
      { search: "ma", after: null },
    );
    const expected = all.filter((r) => r.status === "ACTIVE" && matchesSearch(r, "ma"));
    expect(data.employees.totalCount).toBe(expected.length);
    expect(data.employees.edges.length).toBe(Math.min(20, expected.length));
    for (const { node } of data.employees.edges) expect(node.applicableJobPosition.jobTitle).toEqual(expect.any(String));
  });
});

function matchesSearch(r: Row, text: string): boolean {
  const words = (s: string) => fold(s).split(/[\s\-_,.]+/).filter(Boolean);
  const names = [...words(r.givenName), ...words(r.familyName)];
  return words(text).every((q) => names.some((w) => w.startsWith(q)));
}

describe("EmployeeFilter", () => {
  it("ids selects exactly those employees", async () => {
    expect(await filtered({ ids: ["3", "30", "300", "999999"] })).toEqual(["3", "30", "300"]);
  });

  it("search keeps employees whose names start with every word", async () => {
    const expected = idsOf(all.filter((r) => matchesSearch(r, "ma")));
    expectSubset(await filtered({ search: "ma" }), expected);
  });

  it("search with two words needs both", async () => {
    const row = all.find((r) => r.status === "ACTIVE")!;
    const text = `${row.givenName.slice(0, 2)} ${row.familyName.slice(0, 3)}`;
    const expected = idsOf(all.filter((r) => matchesSearch(r, text)));
    expect(expected).toContain(row.id);
    expect(await filtered({ search: text })).toEqual(expected);
  });

  it("emails selects employees by exact email", async () => {
    const chosen = all.filter((r) => r.email !== null).slice(5, 8);
    expect(await filtered({ emails: chosen.map((r) => r.email) })).toEqual(idsOf(chosen));
  });

  it("a null entry in emails selects employees without an email", async () => {
    expectSubset(await filtered({ emails: [null] }), idsOf(all.filter((r) => r.email === null)));
  });

  it.each(["ACTIVE", "UPCOMING", "DEACTIVATED"])("status %s keeps employees with that status", async (status) => {
    expectSubset(await filtered({ status: [status] }), idsOf(all.filter((r) => r.status === status)));
  });

  it("legalEntityIds filters on the applicable employment's legal entity", async () => {
    const id = common((r) => r.applicableEmployment?.legalEntity?.id);
    expectSubset(await filtered({ legalEntityIds: [id] }), idsOf(all.filter((r) => r.applicableEmployment?.legalEntity?.id === id)));
  });

  it("applicableEmploymentRemoteIds filters on the applicable employment's remoteId", async () => {
    const chosen = all.filter((r) => r.applicableEmployment?.remoteId).slice(0, 3);
    const remoteIds = chosen.map((r) => r.applicableEmployment!.remoteId!);
    const expected = idsOf(all.filter((r) => remoteIds.includes(r.applicableEmployment?.remoteId ?? "")));
    expect(await filtered({ applicableEmploymentRemoteIds: remoteIds })).toEqual(expected);
  });

  it("applicableEmploymentStartsOn is an equality on the applicable employment's start", async () => {
    const date = all[10]!.applicableEmployment!.startsOn;
    expectSubset(await filtered({ applicableEmploymentStartsOn: date }), idsOf(all.filter((r) => r.applicableEmployment?.startsOn === date)));
  });

  it("applicableEmploymentStartsOnBetween is an inclusive range with open bounds", async () => {
    const from = "2020-01-01";
    const to = "2022-12-31";
    const inRange = (d: string | undefined, f: string | null, t: string | null) => d !== undefined && (f === null || d >= f) && (t === null || d <= t);
    expectSubset(
      await filtered({ applicableEmploymentStartsOnBetween: { from, to } }),
      idsOf(all.filter((r) => inRange(r.applicableEmployment?.startsOn, from, to))),
    );
    expectSubset(
      await filtered({ applicableEmploymentStartsOnBetween: { from } }),
      idsOf(all.filter((r) => inRange(r.applicableEmployment?.startsOn, from, null))),
    );
    expectSubset(
      await filtered({ applicableEmploymentStartsOnBetween: { to } }),
      idsOf(all.filter((r) => inRange(r.applicableEmployment?.startsOn, null, to))),
    );
  });

  it("an explicit null applicableEmploymentEndsOn selects open-ended applicable employments", async () => {
    expectSubset(
      await filtered({ applicableEmploymentEndsOn: null }),
      idsOf(all.filter((r) => r.applicableEmployment !== null && r.applicableEmployment.endsOn === null)),
    );
  });

  it("applicableEmploymentEndsOn with a date is an equality on the applicable employment's end", async () => {
    const date = all.find((r) => r.applicableEmployment?.endsOn)!.applicableEmployment!.endsOn!;
    expect(await filtered({ applicableEmploymentEndsOn: date })).toEqual(idsOf(all.filter((r) => r.applicableEmployment?.endsOn === date)));
  });

  it("applicableEmploymentEndsOnBetween is a range on the applicable employment's end", async () => {
    const range = { from: "2024-01-01", to: "2027-12-31" };
    const expected = idsOf(
      all.filter((r) => {
        const d = r.applicableEmployment?.endsOn;
        return d != null && d >= range.from && d <= range.to;
      }),
    );
    expectSubset(await filtered({ applicableEmploymentEndsOnBetween: range }), expected);
  });

  it("employmentTemplateIds filters on the applicable employment's template", async () => {
    const id = common((r) => r.applicableEmployment?.template?.id);
    expectSubset(await filtered({ employmentTemplateIds: [id] }), idsOf(all.filter((r) => r.applicableEmployment?.template?.id === id)));
  });

  it("employmentTemplateTerms filters on the term of the applicable employment's template", async () => {
    const fixed = new Set(stack.directory.company.employmentTemplates.filter((t) => t.term === "fixed").map((t) => t.id));
    expectSubset(
      await filtered({ employmentTemplateTerms: ["FIXED"] }),
      idsOf(all.filter((r) => fixed.has(r.applicableEmployment?.template?.id ?? ""))),
    );
  });

  it("a null entry in applicableJobPositionRemoteIds selects applicable job positions without a remoteId", async () => {
    expectSubset(
      await filtered({ applicableJobPositionRemoteIds: [null] }),
      idsOf(all.filter((r) => r.applicableJobPosition !== null && r.applicableJobPosition.remoteId === null)),
    );
  });

  it("applicableJobPositionRemoteIds with values filters on the applicable job position's remoteId", async () => {
    const remoteIds = all.filter((r) => r.applicableJobPosition?.remoteId).slice(0, 4).map((r) => r.applicableJobPosition!.remoteId!);
    expect(await filtered({ applicableJobPositionRemoteIds: remoteIds })).toEqual(
      idsOf(all.filter((r) => remoteIds.includes(r.applicableJobPosition?.remoteId ?? ""))),
    );
  });

  const positionRefs = [
    ["businessEstablishmentIds", "businessEstablishment"],
    ["departmentIds", "department"],
    ["managerIds", "manager"],
    ["jobQualificationIds", "jobQualification"],
    ["occupationCategoryIds", "occupationCategory"],
  ] as const;
  it.each(positionRefs)("%s filters on the applicable job position's %s", async (filter, field) => {
    const id = common((r) => r.applicableJobPosition?.[field]?.id);
    expectSubset(await filtered({ [filter]: [id] }), idsOf(all.filter((r) => r.applicableJobPosition?.[field]?.id === id)));
  });

  // the demo's job qualifications and occupation categories use their id as remoteId
  it.each([
    ["jobQualificationRemoteIds", "jobQualification"],
    ["occupationCategoryRemoteIds", "occupationCategory"],
  ] as const)("%s filters on the remoteId of the applicable job position's %s", async (filter, field) => {
    const id = common((r) => r.applicableJobPosition?.[field]?.id);
    expectSubset(await filtered({ [filter]: [id] }), idsOf(all.filter((r) => r.applicableJobPosition?.[field]?.id === id)));
  });

  it("filters combine: every given filter must match", async () => {
    const department = common((r) => r.applicableJobPosition?.department?.id);
    const expected = idsOf(all.filter((r) => r.status === "ACTIVE" && r.applicableJobPosition?.department?.id === department));
    expect(await filtered({ status: ["ACTIVE"], departmentIds: [department] })).toEqual(expected);
  });
});

describe("EmployeeSort", () => {
  async function sorted(sort: string[]): Promise<Row[]> {
    const data = await query(stack, `query($sort: [EmployeeSort!]) { employees(first: 100, sort: $sort) { nodes { ${ROW} } } }`, { sort });
    return data.employees.nodes;
  }
  const key = (r: Row) => fold(r.familyName);

  it("ID_ASC and ID_DESC order by id", async () => {
    expect((await sorted(["ID_ASC"])).map((r) => r.id)).toEqual([...all].sort(byNumericId).slice(0, 100).map((r) => r.id));
    expect((await sorted(["ID_DESC"])).map((r) => r.id)).toEqual([...all].sort(byNumericId).reverse().slice(0, 100).map((r) => r.id));
  });

  it("FAMILY_NAME_ASC starts with the alphabetically first family names", async () => {
    const rows = await sorted(["FAMILY_NAME_ASC"]);
    const keys = rows.map(key);
    expect(keys).toEqual([...keys].sort());
    expect(keys[0]).toBe(all.map(key).sort()[0]);
  });

  it("FAMILY_NAME_DESC starts with the alphabetically last family names", async () => {
    const keys = (await sorted(["FAMILY_NAME_DESC"])).map(key);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(keys[0]).toBe(all.map(key).sort().at(-1));
  });

  it("CREATED_AT_ASC and CREATED_AT_DESC order by creation time", async () => {
    const asc = (await sorted(["CREATED_AT_ASC"])).map((r) => r.createdAt);
    const desc = (await sorted(["CREATED_AT_DESC"])).map((r) => r.createdAt);
    expect(asc).toEqual([...asc].sort());
    expect(desc).toEqual([...desc].sort().reverse());
    expect(asc[0]).toBe(all.map((r) => r.createdAt).sort()[0]);
  });

  it("a second sort key breaks ties of the first", async () => {
    const rows = await sorted(["FAMILY_NAME_ASC", "CREATED_AT_DESC"]);
    for (let i = 1; i < rows.length; i++) {
      if (key(rows[i - 1]!) === key(rows[i]!) && rows[i - 1]!.familyName === rows[i]!.familyName) {
        expect(rows[i - 1]!.createdAt >= rows[i]!.createdAt).toBe(true);
      }
    }
  });
});
