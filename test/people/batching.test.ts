import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { counting, query } from "./helpers.js";

/** Reference resolution and the rule that upstream calls do not grow with the length of a list. */

const stack = useStack({ subgraphs: ["people"] });

beforeAll(async () => {
  // the first request also fetches the subgraph's token; later counts are the operation's own
  await query(stack, `{ employee(id: "1") { id } }`);
});

const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { __typename
  ... on Employee { id givenName }
  ... on Employment { id startsOn }
  ... on JobPosition { id jobTitle }
  ... on EmployeeAttribute { id value }
  ... on EmployeePersonalRecord { id legalGender }
  ... on ProbationaryPeriod { id endsOn } } }`;

const reps = (typename: string, ids: string[]) => ids.map((id) => ({ __typename: typename, id }));

describe("_entities", () => {
  it("250 employees are answered with 3 upstream calls, in order, with null for unknown ids", async () => {
    const ids = Array.from({ length: 250 }, (_, i) => (i % 25 === 24 ? `99999${i}` : String(250 - i)));
    const { result, calls } = await counting(stack, () => query(stack, ENTITIES, { r: reps("Employee", ids) }));
    expect(calls.byRoute).toEqual({ "GET /service-api/employees": 3 });
    const names = new Map(stack.directory.company.employees.map((e) => [e.id, e.givenName]));
    expect(result._entities).toHaveLength(250);
    result._entities.forEach((entity: { id: string; givenName: string } | null, i: number) => {
      if (ids[i]!.startsWith("99999")) expect(entity).toBeNull();
      else expect(entity).toEqual({ __typename: "Employee", id: ids[i], givenName: names.get(ids[i]!) });
    });
  });

  it("employments, job positions and attributes resolve through one list call per 100 ids", async () => {
    const company = stack.directory.company;
    const employments = company.employments.slice(0, 150).map((e) => e.id);
    const positions = company.jobPositions.slice(0, 120).map((p) => p.id);
    const attributes = company.employeeAttributes.slice(0, 90).map((a) => a.id);
    const { result, calls } = await counting(stack, () =>
      query(stack, ENTITIES, { r: [...reps("Employment", employments), ...reps("JobPosition", positions), ...reps("EmployeeAttribute", attributes)] }),
    );
    expect(calls.byRoute).toEqual({
      "GET /service-api/employments": 2,
      "GET /service-api/job-positions": 2,
      "GET /service-api/employee-attributes": 1,
    });
    expect(result._entities.map((e: { id: string }) => e.id)).toEqual([...employments, ...positions, ...attributes]);
    expect(result._entities[0].startsOn).toBe(company.employments[0]!.startDate);
  });

  it("personal records and probationary periods resolve by single reads, null when unknown", async () => {
    const company = stack.directory.company;
    const records = [...company.personalRecords.slice(0, 5).map((r) => r.id), "999999"];
    const periods = [company.probationaryPeriods[0]!.id, "999999"];
    const { result, calls } = await counting(stack, () =>
      query(stack, ENTITIES, { r: [...reps("EmployeePersonalRecord", records), ...reps("ProbationaryPeriod", periods)] }),
    );
    expect(calls.byRoute).toEqual({
      "GET /service-api/employee-personal-records/{id}": 6,
      "GET /service-api/probationary-periods/{id}": 2,
    });
    expect(result._entities[0]).toEqual({
      __typename: "EmployeePersonalRecord",
      id: company.personalRecords[0]!.id,
      legalGender: company.personalRecords[0]!.legalGender.toUpperCase(),
    });
    expect(result._entities[5]).toBeNull();
    expect(result._entities[6].endsOn).toEqual(expect.any(String));
    expect(result._entities[7]).toBeNull();
  });

  it("organisation entities people contributes to resolve to their key without a call", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Department { id } ... on LegalEntity { id } } }`, {
        r: [...reps("Department", ["1", "2"]), ...reps("LegalEntity", ["1"])],
      }),
    );
    expect(result._entities).toEqual([
      { __typename: "Department", id: "1" },
      { __typename: "Department", id: "2" },
      { __typename: "LegalEntity", id: "1" },
    ]);
    expect(calls.total).toBe(0);
  });
});

describe("a reference read by its key only", () => {
  it("costs no read of the referenced employee", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ employments(first: 100) { nodes { id employee { id } } } }`));
    const owners = new Map(stack.directory.company.employments.map((e) => [e.id, e.employeeId]));
    expect(result.employments.nodes).toHaveLength(100);
    for (const e of result.employments.nodes) expect(e.employee.id).toBe(owners.get(e.id));
    expect(calls.byRoute).toEqual({ "GET /service-api/employments": 1 });
  });

  it("reads the employee, in one batch, as soon as a field beyond the key is selected", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ employments(first: 100) { nodes { employee { __typename id ...named } } } } fragment named on Employee { familyName }`),
    );
    expect(result.employments.nodes.every((e: any) => typeof e.employee.familyName === "string")).toBe(true);
    expect(calls.byRoute).toEqual({ "GET /service-api/employments": 1, "GET /service-api/employees": 1 });
  });

  it("answers the gateway's `employee { id }` for Employment.workContract's @requires without an employee read", async () => {
    const employments = stack.directory.company.employments.slice(0, 120);
    const { result, calls } = await counting(stack, () =>
      query(stack, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employment { __typename id employee { __typename id } } } }`, {
        r: reps("Employment", employments.map((e) => e.id)),
      }),
    );
    expect(result._entities).toEqual(employments.map((e) => ({ __typename: "Employment", id: e.id, employee: { __typename: "Employee", id: e.employeeId } })));
    expect(calls.byRoute).toEqual({ "GET /service-api/employments": 2 });
  });

  it("a job position's manager and employment by key cost only the job positions", async () => {
    const { result, calls } = await counting(stack, () => query(stack, `{ jobPositions(first: 50) { nodes { id manager { id } employment { id } employee { id } } } }`));
    const positions = new Map(stack.directory.company.jobPositions.map((p) => [p.id, p]));
    for (const n of result.jobPositions.nodes) {
      const p = positions.get(n.id)!;
      expect(n).toEqual({ id: p.id, manager: p.managerId ? { id: p.managerId } : null, employment: { id: p.employmentId }, employee: { id: p.employeeId } });
    }
    expect(calls.byRoute).toEqual({ "GET /service-api/job-positions": 1 });
  });
});

describe("calls do not grow with the length of a list", () => {
  const source = (first: number) => `{ employees(first: ${first}) { nodes { id applicableJobPosition { manager { givenName } } } } }`;

  it("employees(first: 100) with their managers makes as many calls as employees(first: 10)", async () => {
    const ten = await counting(stack, () => query(stack, source(10)));
    const hundred = await counting(stack, () => query(stack, source(100)));
    expect(hundred.calls).toEqual(ten.calls);
    // the page embeds the applicable positions (include=embedded): no /job-positions call
    expect(hundred.calls.byRoute).toEqual({ "GET /service-api/employees": 2 });
    const managers = hundred.result.employees.nodes.filter((n: any) => n.applicableJobPosition?.manager);
    expect(managers.length).toBeGreaterThan(50);
  });

  it("the employee-profile operation's people fields cost the same for any employee", async () => {
    const profile = `query($id: ID!) { employee(id: $id) { id givenName status birthDay { day month } manager { id givenName }
      directReports(first: 25) { totalCount nodes { id givenName } }
      applicableEmployment { id startsOn endsOn status legalEntity { id } template { id } probationaryPeriods { startsOn endsOn initialEndsOn extendedEndsOn } }
      employments(first: 10) { nodes { id startsOn endsOn jobPositions(first: 20) { nodes { startsOn endsOn jobTitle updatedAttributes department { id } jobQualification { id } occupationCategory { id } } } } }
      attributes { definition { id name } value applicability { start end } } } }`;
    // every employee with a manager and several employments, whatever the length of their career
    const seen: Array<{ positions: number; byRoute: Record<string, number> }> = [];
    for (let id = 1; id <= 60; id++) {
      const { result, calls } = await counting(stack, () => query(stack, profile, { id: String(id) }));
      const e = result.employee;
      if (e?.manager && e.employments.nodes.length > 1) {
        const positions = e.employments.nodes.reduce((n: number, x: any) => n + x.jobPositions.nodes.length, 0);
        seen.push({ positions, byRoute: calls.byRoute });
      }
    }
    expect(seen.length).toBeGreaterThan(3);
    expect(new Set(seen.map((s) => s.positions)).size).toBeGreaterThan(1);
    for (const s of seen) expect(s.byRoute).toEqual(seen[0]!.byRoute);
    // the floor of bench/floors.ts: the applicable employment comes from the employments page, the
    // applicable position and each employment's positions from the employee's positions list
    expect(seen[0]!.byRoute).toEqual({
      "GET /service-api/employees": 3,
      "GET /service-api/job-positions": 1,
      "GET /service-api/employments": 1,
      "GET /service-api/probationary-periods": 1,
      "GET /service-api/employee-attributes": 1,
    });
  });
});
