import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { counting, fold, query, send } from "./helpers.js";

/**
 * One-to-many edges as connections: the employee's own (employments, job positions, direct
 * reports) and those people contributes to organisation entities (Department.employees,
 * BusinessEstablishment.employees, LegalEntity.employments, EmploymentTemplate.employments).
 */

const stack = useStack({ subgraphs: ["people"] });
/** employee id -> applicable job position's department, establishment and manager */
let applicable: Map<string, { department: string | null; establishment: string | null; manager: string | null }>;

beforeAll(async () => {
  const company = stack.directory.company;
  const positions = new Map(company.jobPositions.map((p) => [p.id, p]));
  applicable = new Map();
  let after: string | null = null;
  for (;;) {
    const data: any = await query(stack, `query($after: String) { employees(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id applicableJobPosition { id } } } }`, {
      after,
    });
    for (const e of data.employees.nodes) {
      const p = e.applicableJobPosition ? positions.get(e.applicableJobPosition.id)! : null;
      applicable.set(e.id, { department: p?.departmentId ?? null, establishment: p?.businessEstablishmentId ?? null, manager: p?.managerId ?? null });
    }
    if (!data.employees.pageInfo.hasNextPage) break;
    after = data.employees.pageInfo.endCursor;
  }
});

const ENTITIES = "query($r: [_Any!]!) { _entities(representations: $r) { __typename";
const members = (key: "department" | "establishment" | "manager", id: string) =>
  [...applicable.entries()].filter(([, a]) => a[key] === id).map(([e]) => e).sort((a, b) => Number(a) - Number(b));

/** The ids with the most members, so that pages are needed. */
function largest(key: "department" | "establishment" | "manager", n: number): string[] {
  const counts = new Map<string, number>();
  for (const a of applicable.values()) if (a[key]) counts.set(a[key]!, (counts.get(a[key]!) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([id]) => id);
}

/** Follows `after` cursors of an edge read on one parent through `_entities` until the end. */
async function pageEdge(typename: string, id: string, field: string, first: number, after: string | null, extra = ""): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const data: any = await query(
      stack,
      `${ENTITIES} ... on ${typename} { ${field}(first: ${first}, after: $after${extra}) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } } } }`.replace(
        "query($r: [_Any!]!)",
        "query($r: [_Any!]!, $after: String)",
      ),
      { r: [{ __typename: typename, id }], after },
    );
    const page = data._entities[0][field];
    ids.push(...page.nodes.map((n: { id: string }) => n.id));
    if (!page.pageInfo.hasNextPage) return ids;
    after = page.pageInfo.endCursor;
  }
}

describe("Department.employees", () => {
  it("lists the department's members with totalCount, a page at a time to the end", async () => {
    const [department] = largest("department", 1);
    const expected = members("department", department!);
    expect(expected.length).toBeGreaterThan(5);
    const first = await query(stack, `${ENTITIES} ... on Department { id employees(first: 3) { totalCount nodes { id } } } } }`, {
      r: [{ __typename: "Department", id: department }],
    });
    expect(first._entities[0].employees.totalCount).toBe(expected.length);
    expect(await pageEdge("Department", department!, "employees", 3, null)).toEqual(expected);
  });

  it("groups the members of several departments back to each, in calls that do not grow with the departments", async () => {
    const departments = largest("department", 12);
    const source = `${ENTITIES} ... on Department { id employees(first: 50) { totalCount nodes { id } } } } }`;
    const two = await counting(stack, () => query(stack, source, { r: departments.slice(0, 2).map((id) => ({ __typename: "Department", id })) }));
    const twelve = await counting(stack, () => query(stack, source, { r: departments.map((id) => ({ __typename: "Department", id })) }));
    for (const d of twelve.result._entities) {
      expect(d.employees.totalCount).toBe(members("department", d.id).length);
      expect(d.employees.nodes.map((n: { id: string }) => n.id)).toEqual(members("department", d.id).slice(0, 50));
    }
    // one employee list and one job-position read per 100 members, whatever the number of departments
    const total = departments.reduce((n, d) => n + members("department", d).length, 0);
    expect(twelve.calls.byRoute).toEqual({
      "GET /service-api/employees": Math.ceil(total / 100),
      "GET /service-api/job-positions": Math.ceil(total / 100),
    });
    expect(two.calls.total).toBe(2);
  });

  it("a page served from a batch of departments resumes with its cursor until the end", async () => {
    const departments = largest("department", 3);
    const data = await query(stack, `${ENTITIES} ... on Department { id employees(first: 2) { pageInfo { endCursor } nodes { id } } } } }`, {
      r: departments.map((id) => ({ __typename: "Department", id })),
    });
    const d = data._entities[1];
    const rest = await pageEdge("Department", d.id, "employees", 2, d.employees.pageInfo.endCursor);
    expect([...d.employees.nodes.map((n: { id: string }) => n.id), ...rest]).toEqual(members("department", d.id));
  });

  it("takes the employee filter and sort", async () => {
    const [department] = largest("department", 1);
    const data = await query(
      stack,
      `${ENTITIES} ... on Department { employees(first: 100, filter: { status: [ACTIVE] }, sort: [FAMILY_NAME_DESC]) { nodes { id status familyName } } } } }`,
      { r: [{ __typename: "Department", id: department }] },
    );
    const nodes = data._entities[0].employees.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((n: { status: string }) => n.status === "ACTIVE")).toBe(true);
    const names = nodes.map((n: { familyName: string }) => fold(n.familyName));
    expect(names).toEqual([...names].sort().reverse());
  });

  it("refuses a departmentIds filter on a department's employees", async () => {
    const response = await send(stack, `${ENTITIES} ... on Department { employees(filter: { departmentIds: ["2"] }) { nodes { id } } } } }`, {
      r: [{ __typename: "Department", id: "1" }],
    });
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("BusinessEstablishment.employees", () => {
  it("lists the establishment's members, for one establishment or several", async () => {
    const establishments = largest("establishment", 3);
    const one = await pageEdge("BusinessEstablishment", establishments[0]!, "employees", 40, null);
    expect(one).toEqual(members("establishment", establishments[0]!));
    const many = await query(stack, `${ENTITIES} ... on BusinessEstablishment { id employees(first: 100) { totalCount nodes { id } } } } }`, {
      r: establishments.map((id) => ({ __typename: "BusinessEstablishment", id })),
    });
    for (const e of many._entities) {
      expect(e.employees.totalCount).toBe(members("establishment", e.id).length);
      expect(e.employees.nodes.map((n: { id: string }) => n.id)).toEqual(members("establishment", e.id).slice(0, 100));
    }
  });
});

describe("LegalEntity.employments and EmploymentTemplate.employments", () => {
  it("a legal entity's employments are those with that legal entity", async () => {
    const company = stack.directory.company;
    const data = await query(stack, `${ENTITIES} ... on LegalEntity { id employments(first: 100) { totalCount nodes { id legalEntity { id } } } } } }`, {
      r: company.legalEntities.map((l) => ({ __typename: "LegalEntity", id: l.id })),
    });
    let seen = 0;
    for (const l of data._entities) {
      for (const e of l.employments.nodes) expect(e.legalEntity.id).toBe(l.id);
      seen += l.employments.totalCount;
    }
    expect(seen).toBe(company.employments.length);
  });

  it("an employment template's employments page to the end", async () => {
    const company = stack.directory.company;
    const template = company.employmentTemplates[0]!;
    const expected = company.employments.filter((e) => e.templateId === template.id).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(20);
    const ids = await pageEdge("EmploymentTemplate", template.id, "employments", 20, null);
    expect(ids).toEqual(expected);
  });

  it("takes the employment filter and refuses the edge's own filter", async () => {
    const template = stack.directory.company.employmentTemplates[0]!;
    const ok = await query(stack, `${ENTITIES} ... on EmploymentTemplate { employments(filter: { endsOn: null }) { nodes { endsOn } } } } }`, {
      r: [{ __typename: "EmploymentTemplate", id: template.id }],
    });
    expect(ok._entities[0].employments.nodes.every((n: { endsOn: string | null }) => n.endsOn === null)).toBe(true);
    const refused = await send(stack, `${ENTITIES} ... on EmploymentTemplate { employments(filter: { templateIds: ["1"] }) { nodes { id } } } } }`, {
      r: [{ __typename: "EmploymentTemplate", id: template.id }],
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("Employee edges", () => {
  it("directReports are the employees whose applicable job position has this manager", async () => {
    const [manager] = largest("manager", 1);
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { directReports(first: 100) { totalCount nodes { id manager { id } } } } }`, { id: manager });
    expect(data.employee.directReports.totalCount).toBe(members("manager", manager!).length);
    expect(data.employee.directReports.nodes.map((n: { id: string }) => n.id)).toEqual(members("manager", manager!));
    for (const n of data.employee.directReports.nodes) expect(n.manager.id).toBe(manager);
  });

  it("directReports of a page of employees are grouped back in constant calls and resume to the end", async () => {
    const managers = largest("manager", 6);
    const data = await query(stack, `query($ids: [ID!]) { employees(first: 10, filter: { ids: $ids }) { nodes { id directReports(first: 2) { totalCount pageInfo { endCursor hasNextPage } nodes { id } } } } }`, {
      ids: managers,
    });
    for (const m of data.employees.nodes) {
      const expected = members("manager", m.id);
      expect(m.directReports.totalCount).toBe(expected.length);
      const rest = m.directReports.pageInfo.hasNextPage
        ? await (async () => {
            const ids: string[] = [];
            let after = m.directReports.pageInfo.endCursor;
            for (;;) {
              const page: any = await query(stack, `query($id: ID!, $after: String) { employee(id: $id) { directReports(first: 3, after: $after) { pageInfo { endCursor hasNextPage } nodes { id } } } }`, {
                id: m.id,
                after,
              });
              ids.push(...page.employee.directReports.nodes.map((n: { id: string }) => n.id));
              if (!page.employee.directReports.pageInfo.hasNextPage) return ids;
              after = page.employee.directReports.pageInfo.endCursor;
            }
          })()
        : [];
      expect([...m.directReports.nodes.map((n: { id: string }) => n.id), ...rest]).toEqual(expected);
    }
  });

  it("manager is the manager of the applicable job position", async () => {
    const [employee, a] = [...applicable.entries()].find(([, x]) => x.manager !== null)!;
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { manager { id } applicableJobPosition { manager { id } } } }`, { id: employee });
    expect(data.employee.manager.id).toBe(a.manager);
    expect(data.employee.applicableJobPosition.manager.id).toBe(a.manager);
  });

  it("employments lists the employee's employments by start date", async () => {
    const company = stack.directory.company;
    const employeeId = company.employees.find((e) => company.employments.filter((x) => x.employeeId === e.id).length > 2)!.id;
    const expected = company.employments.filter((e) => e.employeeId === employeeId).sort((a, b) => a.startDate.localeCompare(b.startDate));
    const data = await query(stack, `query($id: ID!) { employee(id: $id) { employments { totalCount nodes { id startsOn employee { id } } } } }`, { id: employeeId });
    expect(data.employee.employments.totalCount).toBe(expected.length);
    expect(data.employee.employments.nodes.map((n: { id: string }) => n.id)).toEqual(expected.map((e) => e.id));
  });

  /** An employee's employments or job positions in the directory's records, with their start dates. */
  const recordsOf = (field: "employments" | "jobPositions") =>
    field === "employments"
      ? stack.directory.company.employments.map((e) => ({ id: e.id, employeeId: e.employeeId, date: e.startDate }))
      : stack.directory.company.jobPositions.map((p) => ({ id: p.id, employeeId: p.employeeId, date: p.startsOn }));

  it.each([
    ["employments", "startsOn"],
    ["jobPositions", "startsOn"],
  ] as const)("%s page one at a time to the end, by start date", async (field, dateField) => {
    const all = recordsOf(field);
    const counts = new Map<string, number>();
    for (const r of all) counts.set(r.employeeId, (counts.get(r.employeeId) ?? 0) + 1);
    const [employeeId] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const expected = all.filter((r) => r.employeeId === employeeId);
    expect(expected.length).toBeGreaterThan(2);
    const seen: Array<{ id: string; date: string }> = [];
    let after: string | null = null;
    for (;;) {
      const data: any = await query(
        stack,
        `query($id: ID!, $after: String) { employee(id: $id) { page: ${field}(first: 1, after: $after) { pageInfo { hasNextPage endCursor } nodes { id date: ${dateField} } } } }`,
        { id: employeeId, after },
      );
      seen.push(...data.employee.page.nodes);
      if (!data.employee.page.pageInfo.hasNextPage) break;
      after = data.employee.page.pageInfo.endCursor;
    }
    expect(seen.map((n) => n.id).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(seen.map((n) => n.date)).toEqual(expected.map((r) => r.date).sort());
  });

  it("jobPositions is the whole career across employments, one call for a page of employees", async () => {
    const company = stack.directory.company;
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ employees(first: 30) { nodes { id jobPositions(first: 100) { totalCount nodes { id employee { id } } } } } }`),
    );
    for (const e of result.employees.nodes) {
      const expected = company.jobPositions.filter((p) => p.employeeId === e.id).map((p) => p.id).sort();
      expect(e.jobPositions.nodes.map((n: { id: string }) => n.id).sort()).toEqual(expected);
      expect(e.jobPositions.totalCount).toBe(expected.length);
    }
    // the employees and their job positions (employment.employee.id); `employee { id }` reads no employee
    expect(calls.byRoute).toEqual({
      "GET /service-api/employees": 1,
      "GET /service-api/job-positions": Math.ceil(company.jobPositions.filter((p) => Number(p.employeeId) <= 30).length / 100),
    });
  });

  it("personalRecord and applicableEmployment resolve through their loaders", async () => {
    const company = stack.directory.company;
    const data = await query(stack, `{ employee(id: "7") { applicableEmployment { id employee { id } } personalRecord { id employee { id } } } }`);
    expect(data.employee.personalRecord.id).toBe(company.personalRecords.find((r) => r.employeeId === "7")!.id);
    expect(data.employee.applicableEmployment.employee.id).toBe("7");
  });
});
