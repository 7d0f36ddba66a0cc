import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { byNumericId, counting, expectProperSubset, filteredIds, idsOf, pageAll, query, send } from "./helpers.js";

/** Employee personal records and probationary periods: root fields, edges, filters and sorts. */

const stack = useStack({ subgraphs: ["people"] });

const RECORD = `id title legalGender birthDate phoneNumber email nationalitiesCountryCodes insuranceNumber { format value }
  bankAccount { format bankName accountIdentifier bankIdentifier } employee { id } createdAt lastUpdatedAt`;

const filteredRecords = (filter: Record<string, unknown>) => filteredIds(stack, "employeePersonalRecords", "EmployeePersonalRecordFilter", filter);

describe("employee personal records", () => {
  it("a record carries its REST fields with title and legal gender as enums", async () => {
    const model = stack.directory.company.personalRecords.find((r) => r.title === "miss" && r.phoneNumber !== null)!;
    const data = await query(stack, `query($id: ID!) { employeePersonalRecord(id: $id) { ${RECORD} } }`, { id: model.id });
    expect(data.employeePersonalRecord).toEqual({
      id: model.id,
      title: "MISS",
      legalGender: model.legalGender.toUpperCase(),
      birthDate: model.birthDate,
      phoneNumber: model.phoneNumber,
      email: model.email,
      nationalitiesCountryCodes: model.nationalitiesCountryCodes,
      insuranceNumber: model.insuranceNumber,
      bankAccount: model.bankAccount,
      employee: { id: model.employeeId },
      createdAt: model.createdAt,
      lastUpdatedAt: model.lastUpdatedAt,
    });
  });

  it("an unknown personal record is null without an error", async () => {
    const response = await send(stack, `{ employeePersonalRecord(id: "999999") { id } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.employeePersonalRecord).toBeNull();
  });

  it("paging to the end lists every record once", async () => {
    const { nodes, totalCount } = await pageAll<{ id: string }>(stack, "employeePersonalRecords", "id", { first: 33 });
    const expected = stack.directory.company.personalRecords.map((r) => r.id).sort();
    expect(totalCount).toBe(expected.length);
    expect(nodes.map((n) => n.id).sort()).toEqual(expected);
  });

  it("Employee.personalRecord is the employee's record, one call for a whole page of employees", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ employees(first: 100) { nodes { id personalRecord { id employee { id } } } } }`));
    for (const e of result.employees.nodes) {
      const model = stack.directory.company.personalRecords.find((r) => r.employeeId === e.id);
      expect(e.personalRecord?.id ?? null).toBe(model?.id ?? null);
    }
    expect(calls.byRoute["GET /service-api/employee-personal-records"]).toBe(1);
  });

  it("employeeIds filter selects the records of those employees", async () => {
    const expected = stack.directory.company.personalRecords.filter((r) => ["3", "4"].includes(r.employeeId)).map((r) => r.id);
    expect(await filteredRecords({ employeeIds: ["3", "4"] })).toEqual(expected.sort());
  });

  it("legalGenders filter selects records of those genders", async () => {
    const expected = stack.directory.company.personalRecords.filter((r) => r.legalGender === "diverse" || r.legalGender === "unknown").map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await filteredRecords({ legalGenders: ["DIVERSE", "UNKNOWN"] })).toEqual(expected.sort());
  });

  it("nationalitiesCountryCodes filter selects records having one of the codes", async () => {
    const expected = stack.directory.company.personalRecords.filter((r) => r.nationalitiesCountryCodes.some((c) => c === "DEU" || c === "ESP")).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(await filteredRecords({ nationalitiesCountryCodes: ["DEU", "ESP"] })).toEqual(expected.sort());
  });
});

const PERIOD = "id startsOn endsOn initialEndsOn extendedEndsOn employment { id } createdAt lastUpdatedAt";

interface Period {
  id: string;
  startsOn: string | null;
  endsOn: string;
  initialEndsOn: string;
  extendedEndsOn: string | null;
  employment: { id: string };
}

const filteredPeriods = (filter: Record<string, unknown>) => filteredIds(stack, "probationaryPeriods", "ProbationaryPeriodFilter", filter);

describe("probationary periods", () => {
  let all: Period[];
  beforeAll(async () => {
    all = (await pageAll<Period>(stack, "probationaryPeriods", PERIOD, { first: 100 })).nodes;
  });
  const inRange = (d: string | null, from: string, to: string) => d !== null && d >= from && d <= to;
  const expectSubset = (result: string[], expected: string[]) => expectProperSubset(result, expected, all.length);

  it("paging to the end lists every period once", () => {
    expect(idsOf(all)).toEqual(stack.directory.company.probationaryPeriods.map((p) => p.id).sort());
  });

  it("an extended probationary period ends on its extended date", () => {
    const extended = all.filter((p) => p.extendedEndsOn !== null);
    expect(extended.length).toBeGreaterThan(0);
    for (const p of extended) expect(p.endsOn).toBe(p.extendedEndsOn);
  });

  it("a period that was not extended ends on its initial date and starts with its employment", async () => {
    const model = stack.directory.company.probationaryPeriods.find((p) => p.extendedEndsOn === null)!;
    const data = await query(stack, `query($id: ID!) { probationaryPeriod(id: $id) { endsOn initialEndsOn startsOn employment { startsOn } } }`, { id: model.id });
    expect(data.probationaryPeriod.endsOn).toBe(model.initialEndsOn);
    expect(data.probationaryPeriod.startsOn).toBe(data.probationaryPeriod.employment.startsOn);
  });

  it("an unknown probationary period is null without an error", async () => {
    const response = await send(stack, `{ probationaryPeriod(id: "999999") { id } }`);
    expect(response.errors).toBeUndefined();
    expect(response.data.probationaryPeriod).toBeNull();
  });

  it("Employee.probationaryPeriods gathers the periods of all the employee's employments", async () => {
    const company = stack.directory.company;
    const employmentsOf = new Map(company.employments.map((e) => [e.id, e.employeeId]));
    const employeeId = [...new Set(company.probationaryPeriods.map((p) => employmentsOf.get(p.employmentId)!))].find(
      (id) => new Set(company.probationaryPeriods.filter((p) => employmentsOf.get(p.employmentId) === id).map((p) => p.employmentId)).size > 1,
    )!;
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { probationaryPeriods { id } } }`, { id: employeeId });
    const expected = company.probationaryPeriods.filter((p) => employmentsOf.get(p.employmentId) === employeeId).map((p) => p.id);
    expect(data.employee.probationaryPeriods.map((p: { id: string }) => p.id).sort()).toEqual(expected.sort());
  });

  it("probationary periods of a page of employees are grouped back to each employee in two calls", async () => {
    const company = stack.directory.company;
    const employmentsOf = new Map(company.employments.map((e) => [e.id, e.employeeId]));
    const { result, calls } = await counting(stack, () => query(stack, `{ employees(first: 100) { nodes { id probationaryPeriods { id } } } }`));
    for (const e of result.employees.nodes) {
      const expected = company.probationaryPeriods.filter((p) => employmentsOf.get(p.employmentId) === e.id).map((p) => p.id);
      expect(e.probationaryPeriods.map((p: { id: string }) => p.id).sort()).toEqual(expected.sort());
    }
    expect(calls.byRoute).toEqual({
      "GET /service-api/employees": 1,
      "GET /service-api/probationary-periods": 1,
      "GET /service-api/employments": 1,
    });
  });

  it("employeeIds filter selects the periods of those employees' employments", async () => {
    const company = stack.directory.company;
    const employments = new Set(company.employments.filter((e) => ["1", "14", "30"].includes(e.employeeId)).map((e) => e.id));
    expectSubset(await filteredPeriods({ employeeIds: ["1", "14", "30"] }), idsOf(all.filter((p) => employments.has(p.employment.id))));
  });

  it("employmentIds filter selects the periods of those employments", async () => {
    const employmentIds = all.slice(0, 3).map((p) => p.employment.id);
    expectSubset(await filteredPeriods({ employmentIds }), idsOf(all.filter((p) => employmentIds.includes(p.employment.id))));
  });

  it.each([
    ["startsOnBetween", "startsOn"],
    ["endsOnBetween", "endsOn"],
    ["initialEndsOnBetween", "initialEndsOn"],
    ["extendedEndsOnBetween", "extendedEndsOn"],
  ] as const)("%s is an inclusive range on %s", async (filter, field) => {
    const range = { from: "2018-01-01", to: "2022-12-31" };
    expectSubset(await filteredPeriods({ [filter]: range }), idsOf(all.filter((p) => inRange(p[field], range.from, range.to))));
  });

  it("isExtended true keeps extended periods, false the others", async () => {
    expectSubset(await filteredPeriods({ isExtended: true }), idsOf(all.filter((p) => p.extendedEndsOn !== null)));
    expectSubset(await filteredPeriods({ isExtended: false }), idsOf(all.filter((p) => p.extendedEndsOn === null)));
  });

  async function sorted(sort: string[]): Promise<Period[]> {
    return (await query(stack, `query($sort: [ProbationaryPeriodSort!]) { probationaryPeriods(first: 100, sort: $sort) { nodes { ${PERIOD} } } }`, { sort }))
      .probationaryPeriods.nodes;
  }

  it("ID_ASC and ID_DESC order by id", async () => {
    const byId = [...all].sort(byNumericId).map((r) => r.id);
    expect((await sorted(["ID_ASC"])).map((r) => r.id)).toEqual(byId.slice(0, 100));
    expect((await sorted(["ID_DESC"])).map((r) => r.id)).toEqual([...byId].reverse().slice(0, 100));
  });

  it.each([
    ["STARTS_ON", "startsOn"],
    ["ENDS_ON", "endsOn"],
  ] as const)("%s_ASC and _DESC order by %s", async (sort, field) => {
    const values = all.map((p) => p[field]!).sort();
    expect((await sorted([`${sort}_ASC`])).map((p) => p[field])).toEqual(values.slice(0, 100));
    expect((await sorted([`${sort}_DESC`])).map((p) => p[field])).toEqual([...values].reverse().slice(0, 100));
  });
});
