import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { byNumericId, datedListFilterTests, expectProperSubset, filteredIds, idsOf, mostCommon, pageAll, query, send } from "./helpers.js";

/** Root `employment`/`employments`, the employment's fields and its edges. */

interface Row {
  id: string;
  remoteId: string | null;
  status: string;
  startsOn: string;
  endsOn: string | null;
  employee: { id: string };
  legalEntity: { id: string } | null;
  template: { id: string } | null;
}

const ROW = "id remoteId status startsOn endsOn employee { id } legalEntity { id } template { id }";

const stack = useStack({ subgraphs: ["people"] });
let all: Row[];

beforeAll(async () => {
  all = (await pageAll<Row>(stack, "employments", ROW, { first: 100 })).nodes;
});

const filtered = (filter: Record<string, unknown>) => filteredIds(stack, "employments", "EmploymentFilter", filter);

const expectSubset = (result: string[], expected: string[]) => expectProperSubset(result, expected, all.length);

/** The most common value of `key` among all rows. */
const common = (key: (r: Row) => string | null | undefined) => mostCommon(all, key);

describe("employments", () => {
  it("paging to the end lists every employment of the demo once", async () => {
    const model = stack.directory.company.employments;
    expect(idsOf(all)).toEqual(model.map((e) => e.id).sort());
    const { nodes, totalCount } = await pageAll<{ id: string }>(stack, "employments", "id", { first: 41 });
    expect(totalCount).toBe(model.length);
    expect(nodes.map((n) => n.id).sort()).toEqual(idsOf(all));
  });

  it("employment(id) reads one employment with its dates from start.date and end.date", async () => {
    const model = stack.directory.company.employments.find((e) => e.endDate !== null && e.documentId !== null)!;
    const data = await query(stack, `query($id: ID!) { employment(id: $id) { id startsOn endsOn employee { id } document { id url } createdAt lastUpdatedAt } }`, {
      id: model.id,
    });
    expect(data.employment).toMatchObject({
      id: model.id,
      startsOn: model.startDate,
      endsOn: model.endDate,
      employee: { id: model.employeeId },
      document: { id: model.documentId },
      createdAt: model.createdAt,
    });
  });

  it("an unknown employment is null without an error", async () => {
    const response = await send(stack, `{ employment(id: "999999") { id } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.employment).toBeNull();
  });

  it("employment.employee is the employee entity, resolved by this subgraph", async () => {
    const row = all[7]!;
    const data = await query(stack, `query($id: ID!) { employment(id: $id) { employee { id familyName applicableEmployment { id } } } }`, { id: row.id });
    const model = stack.directory.company.employees.find((e) => e.id === row.employee.id)!;
    expect(data.employment.employee).toMatchObject({ id: model.id, familyName: model.familyName });
  });

  it("employment.jobPositions pages the employment's job positions by start date", async () => {
    const positions = stack.directory.company.jobPositions;
    const employmentId = all.find((r) => positions.filter((p) => p.employmentId === r.id).length > 2)!.id;
    const expected = positions.filter((p) => p.employmentId === employmentId);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: any = await query(
        stack,
        `query($id: ID!, $after: String) { employment(id: $id) { jobPositions(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { id startsOn employment { id } } } } }`,
        { id: employmentId, after },
      );
      const page = data.employment.jobPositions;
      expect(page.totalCount).toBe(expected.length);
      seen.push(...page.nodes.map((n: { id: string }) => n.id));
      for (const n of page.nodes) expect(n.employment.id).toBe(employmentId);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect([...seen].sort()).toEqual(expected.map((p) => p.id).sort());
    const starts = seen.map((id) => expected.find((p) => p.id === id)!.startsOn);
    expect(starts).toEqual([...starts].sort());
  });

  it("employment.probationaryPeriods lists the employment's probationary periods", async () => {
    const period = stack.directory.company.probationaryPeriods[3]!;
    const data = await query(stack, `query($id: ID!) { employment(id: $id) { probationaryPeriods { id employment { id } } } }`, { id: period.employmentId });
    const expected = stack.directory.company.probationaryPeriods.filter((p) => p.employmentId === period.employmentId).map((p) => p.id);
    expect(data.employment.probationaryPeriods.map((p: { id: string }) => p.id).sort()).toEqual(expected.sort());
  });
});

describe("EmploymentFilter", () => {
  it("ids selects exactly those employments", async () => {
    expect(await filtered({ ids: ["2", "20", "999999"] })).toEqual(["2", "20"]);
  });

  it("remoteIds selects by remoteId", async () => {
    const chosen = all.filter((r) => r.remoteId).slice(0, 3);
    expect(await filtered({ remoteIds: chosen.map((r) => r.remoteId) })).toEqual(idsOf(all.filter((r) => chosen.some((c) => c.remoteId === r.remoteId))));
  });

  it("employeeIds selects the employments of those employees", async () => {
    const employees = ["5", "14"];
    expectSubset(await filtered({ employeeIds: employees }), idsOf(all.filter((r) => employees.includes(r.employee.id))));
  });

  it("templateIds selects by template", async () => {
    const id = common((r) => r.template?.id);
    expectSubset(await filtered({ templateIds: [id] }), idsOf(all.filter((r) => r.template?.id === id)));
  });

  it("legalEntityIds selects by legal entity", async () => {
    const id = common((r) => r.legalEntity?.id);
    expectSubset(await filtered({ legalEntityIds: [id] }), idsOf(all.filter((r) => r.legalEntity?.id === id)));
  });

  datedListFilterTests("employments", () => all, filtered, { startIndex: 12, startsBetween: { from: "2019-01-01", to: "2021-06-30" }, withoutEnd: "open-ended employments" });

  it("endsOnBetween with an open start keeps employments that ended by then", async () => {
    expectSubset(await filtered({ endsOnBetween: { to: "2020-12-31" } }), idsOf(all.filter((r) => r.endsOn !== null && r.endsOn <= "2020-12-31")));
  });
});

describe("EmploymentSort", () => {
  async function sorted(sort: string[]): Promise<Row[]> {
    return (await query(stack, `query($sort: [EmploymentSort!]) { employments(first: 100, sort: $sort) { nodes { ${ROW} } } }`, { sort })).employments.nodes;
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

  it("ENDS_ON_ASC puts open-ended employments last and ENDS_ON_DESC first", async () => {
    const ends = all.filter((r) => r.endsOn !== null).map((r) => r.endsOn!).sort();
    expect((await sorted(["ENDS_ON_ASC"])).map((r) => r.endsOn)).toEqual(ends.slice(0, 100));
    const desc = (await sorted(["ENDS_ON_DESC"])).map((r) => r.endsOn);
    expect(desc[0]).toBeNull();
  });
});

describe("an employee's employments' job positions, answered from the employee's positions (employee.prefetch.ts)", () => {
  const careerQuery = `query($id: ID!, $after: String) { employee(id: $id) { applicableJobPosition { id }
    employments(first: 10) { nodes { id jobPositions(first: 1, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } } } } }`;

  it("pages on with the cursors of either answer: the positions list's and a REST page's", async () => {
    // an employee with a single employment holding two positions or more
    let chosen: Row | undefined;
    for (const candidate of all.filter((e) => all.filter((x) => x.employee.id === e.employee.id).length === 1)) {
      const data = await query(stack, `query($id: ID!) { employment(id: $id) { jobPositions(first: 5) { nodes { id } } } }`, { id: candidate.id });
      if (data.employment.jobPositions.nodes.length >= 2) {
        chosen = candidate;
        break;
      }
    }
    expect(chosen).toBeDefined();
    const all2 = (await query(stack, `query($id: ID!) { employment(id: $id) { jobPositions(first: 5) { nodes { id } } } }`, { id: chosen!.id })).employment.jobPositions.nodes.map(
      (n: { id: string }) => n.id,
    );
    // the first position, then the next one with the cursor the answer gave
    const first = (await query(stack, careerQuery, { id: chosen!.employee.id })).employee.employments.nodes[0].jobPositions;
    expect(first.nodes.map((n: { id: string }) => n.id)).toEqual([all2[0]]);
    const next = (await query(stack, careerQuery, { id: chosen!.employee.id, after: first.pageInfo.endCursor })).employee.employments.nodes[0].jobPositions;
    expect(next.nodes.map((n: { id: string }) => n.id)).toEqual([all2[1]]);
    // a cursor of a REST page (the employment asked alone) pages on as well
    const rest = (await query(stack, `query($id: ID!) { employment(id: $id) { jobPositions(first: 1) { pageInfo { endCursor } } } }`, { id: chosen!.id })).employment.jobPositions;
    const fromRest = (await query(stack, careerQuery, { id: chosen!.employee.id, after: rest.pageInfo.endCursor })).employee.employments.nodes[0].jobPositions;
    expect(fromRest.nodes.map((n: { id: string }) => n.id)).toEqual([all2[1]]);
  });
});
