import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upstreamCalls, type GraphQLResponse } from "../helpers/stack.js";
import { BUDGETS } from "../helpers/budgets.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf, type Demo, type Operation } from "../helpers/operations.js";

/**
 * The operations of `operations/` through the gateway, against the demo data: each answers
 * without errors, says what the directory's records say, and costs a small, fixed number of
 * upstream calls whatever the length of its lists.
 */

const stack = useGatewayStack();
let demo: Demo;
const operations = loadOperations();
/** upstream calls per operation and route, printed at the end for the README */
const recorded: Record<string, { total: number; byRoute: Record<string, number> }> = {};

/**
 * Upper bounds of the upstream calls of each operation (token requests left out). They hold for
 * any company size: the calls of an operation depend on its shape, never on its data.
 */

beforeAll(async () => {
  demo = pickDemoData(stack.directory.company);
});

afterAll(async () => {
  console.log(`upstream calls per operation:\n${JSON.stringify(recorded, null, 1)}`);
});


/** Runs an operation with fresh statistics; answers its response and the upstream calls it made. */
async function run(
  operation: Operation | string,
  variables: Record<string, unknown>,
): Promise<{ response: GraphQLResponse; calls: number; byRoute: Record<string, number> }> {
  const source = typeof operation === "string" ? operation : operation.source;
  stack.resetStats();
  const response = await stack.query(source, variables);
  return { response, calls: upstreamCalls(stack.stats()), byRoute: stack.stats().byRoute };
}

function expectNoErrors(response: GraphQLResponse): void {
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  expect(response.status).toBe(200);
}

const position = (employeeId: string) => {
  const id = demo.derived.employee.get(employeeId)?.applicableJobPositionId;
  return id ? demo.lookup.jobPositions.get(id) : undefined;
};

describe("every operation of operations/", () => {
  it.each(operations.map((o) => [o.name, o] as const))("%s answers through the gateway without errors", async (_name, operation) => {
    const { response } = await run(operation, variablesOf(demo, operation));
    expectNoErrors(response);
    expect(response.data).toBeTruthy();
  });

  it.each(operations.map((o) => [o.name, o] as const))("%s makes exactly its budget of upstream calls", async (name, operation) => {
    const variables = variablesOf(demo, operation);
    await run(operation, variables); // warm: the token is fetched once per process
    const first = await run(operation, variables);
    const second = await run(operation, variables);
    expectNoErrors(first.response);
    recorded[name] = { total: first.calls, byRoute: first.byRoute };
    expect(first.calls).toBeGreaterThan(0);
    // pinned: a regression of one call fails (test/helpers/budgets.ts)
    expect(first.calls).toBe(BUDGETS[name]?.calls);
    expect(second.calls).toBe(first.calls);
  });
});

describe("DirectorySearch", () => {
  const search = () => operationNamed(operations, "DirectorySearch");

  async function allPages() {
    const pages: Array<{ data: any; calls: number }> = [];
    let after: string | null = null;
    do {
      const { response, calls } = await run(search(), { search: demo.search, after });
      expectNoErrors(response);
      pages.push({ data: response.data.employees, calls });
      after = response.data.employees.pageInfo.hasNextPage ? response.data.employees.pageInfo.endCursor : null;
    } while (after !== null && pages.length < 20);
    return pages;
  }

  it("pages with `after: endCursor` through exactly the active employees whose names start with the word, by family name, without repeats", async () => {
    const pages = await allPages();
    const ids = pages.flatMap((p) => p.data.edges.map((e: any) => e.node.id));
    expect(pages.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(demo.searchMatches);
  });

  it("answers the same totalCount on every page, the number of matches", async () => {
    const pages = await allPages();
    for (const page of pages) expect(page.data.totalCount).toBe(demo.searchMatches.length);
    expect(pages.map((p) => p.data.pageInfo.hasNextPage)).toEqual(pages.map((_, i) => i < pages.length - 1));
  });

  it("shows names that start with the searched word and each employee's department and establishment", async () => {
    const { response } = await run(search(), { search: demo.search, after: null });
    for (const { node } of response.data.employees.edges) {
      const words = `${node.givenName} ${node.familyName}`.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/[\s\-_,.]+/);
      expect(words.some((w) => w.startsWith(demo.search))).toBe(true);
      const p = position(node.id)!;
      expect(node.applicableJobPosition.jobTitle).toBe(p.jobTitle);
      expect(node.applicableJobPosition.department.name).toBe(demo.lookup.departments.get(p.departmentId)!.name);
      expect(node.applicableJobPosition.businessEstablishment.name).toBe(demo.lookup.businessEstablishments.get(p.businessEstablishmentId)!.name);
    }
  });

  it("makes as many upstream calls for the last, shorter page as for a full one", async () => {
    const pages = await allPages();
    expect(pages.at(-1)!.data.edges.length).toBeLessThan(pages[0]!.data.edges.length);
    expect(new Set(pages.map((p) => p.calls)).size).toBe(1);
  });
});

describe("EmployeeProfile", () => {
  async function profile() {
    const { response } = await run(operationNamed(operations, "EmployeeProfile"), { id: demo.profile.id });
    expectNoErrors(response);
    return response.data.employee;
  }

  it("names the manager of the applicable job position", async () => {
    expect((await profile()).manager.id).toBe(demo.profile.managerId);
  });

  it("counts and lists the direct reports the data holds", async () => {
    const { directReports } = await profile();
    expect(directReports.totalCount).toBe(demo.profile.directReportIds.length);
    expect(directReports.nodes.map((e: any) => e.id).sort()).toEqual(demo.profile.directReportIds.slice(0, 25).sort());
  });

  it("shows the applicable employment with its legacy work contract, and every employment with its job positions", async () => {
    const employee = await profile();
    const applicableId = demo.derived.employee.get(demo.profile.id)!.applicableEmploymentId;
    expect(employee.status).toBe("ACTIVE");
    expect(employee.applicableEmployment.id).toBe(applicableId);
    expect(employee.applicableEmployment.workContract).toMatchObject({ id: applicableId, isApplicable: true });
    expect(employee.employments.nodes.map((e: any) => e.id).sort()).toEqual([...demo.profile.employmentIds].sort());
    const positions = employee.employments.nodes.flatMap((e: any) => e.jobPositions.nodes);
    const expected = demo.company.jobPositions.filter((p) => p.employeeId === demo.profile.id);
    expect(positions.map((p: any) => p.jobTitle).sort()).toEqual(expected.map((p) => p.jobTitle).sort());
    for (const p of positions) expect(p.department.name).toBe(demo.lookup.departments.get(p.department.id)!.name);
  });

  it("lists the employee's attributes with their definitions", async () => {
    const { attributes } = await profile();
    const definitions = new Set(demo.company.employeeAttributes.filter((a) => a.employeeId === demo.profile.id).map((a) => a.definitionId));
    expect(attributes.length).toBeGreaterThan(0);
    for (const a of attributes) {
      expect(definitions.has(a.definition.id)).toBe(true);
      expect(a.definition.name).toBe(demo.company.attributeDefinitions.find((d) => d.id === a.definition.id)!.name);
    }
  });
});

describe("OrgChart", () => {
  const orgChart = () => operationNamed(operations, "OrgChart");

  it("shows the department, its parent and manager, and all its members", async () => {
    const { response } = await run(orgChart(), { departmentId: demo.department.id });
    expectNoErrors(response);
    const { department } = response.data;
    expect(department.name).toBe(demo.lookup.departments.get(demo.department.id)!.name);
    expect(department.parent?.id ?? null).toBe(demo.department.parentId);
    expect(department.manager?.id ?? null).toBe(demo.department.managerId);
    expect(department.employees.totalCount).toBe(demo.department.memberIds.length);
    expect(department.employees.pageInfo.hasNextPage).toBe(false);
    expect(department.employees.nodes.map((e: any) => e.id).sort()).toEqual([...demo.department.memberIds].sort());
  });

  it("shows only employees whose applicable job position is in the department, with that position's manager and establishment", async () => {
    const { response } = await run(orgChart(), { departmentId: demo.department.id });
    for (const node of response.data.department.employees.nodes) {
      const p = position(node.id)!;
      expect(p.departmentId).toBe(demo.department.id);
      expect(node.applicableJobPosition.manager?.id ?? null).toBe(p.managerId);
      const establishment = demo.lookup.businessEstablishments.get(p.businessEstablishmentId)!;
      expect(node.applicableJobPosition.businessEstablishment.name).toBe(establishment.name);
      expect(node.applicableJobPosition.businessEstablishment.legalEntity.legalName).toBe(demo.lookup.legalEntities.get(establishment.legalEntityId)!.legalName);
    }
  });

  it("makes the same number of upstream calls for 5 employees as for 50", async () => {
    const source = orgChart().source;
    const small = source.replace("employees(first: 50)", "employees(first: 5)");
    expect(small).not.toBe(source);
    // each text run once first: OrgChart's two people fetches of managers share one read only
    // when the members' fetch comes first, and a query's first run (its plan being made) can
    // order them the other way (docs/performance.md#query-plans); what is asserted is that the calls do
    // not grow with the page
    await run(source, { departmentId: demo.department.id });
    await run(small, { departmentId: demo.department.id });
    const fifty = await run(source, { departmentId: demo.department.id });
    const five = await run(small, { departmentId: demo.department.id });
    expectNoErrors(five.response);
    expect(five.response.data.department.employees.nodes).toHaveLength(5);
    expect(fifty.response.data.department.employees.nodes.length).toBeGreaterThan(5);
    expect(five.calls).toBe(fifty.calls);
  });
});

describe("Timesheet", () => {
  it("lists the week's entries in order, all within from..to, with their axis sections", async () => {
    const { from, to, entries } = demo.timesheet;
    const { response } = await run(operationNamed(operations, "Timesheet"), { id: demo.timesheet.id, from, to });
    expectNoErrors(response);
    const answered = response.data.employee.timeEntries;
    expect(answered.map((e: any) => e.id)).toEqual(entries.map((e) => e.id));
    const starts = answered.map((e: any) => String(e.startsAt));
    for (const startsAt of starts) {
      expect(startsAt.slice(0, 10) >= from && startsAt.slice(0, 10) <= to).toBe(true);
    }
    expect([...starts].sort()).toEqual(starts);
    answered.forEach((e: any, i: number) => expect(e.axisSections.map((s: any) => s.id)).toEqual(entries[i]!.axisSectionIds));
  });

  it("makes as many upstream calls for an empty week as for a full one", async () => {
    const { from, to } = demo.timesheet;
    const full = await run(operationNamed(operations, "Timesheet"), { id: demo.timesheet.id, from, to });
    const empty = await run(operationNamed(operations, "Timesheet"), { id: demo.timesheet.id, from: "2000-01-03", to: "2000-01-09" });
    expectNoErrors(empty.response);
    expect(empty.response.data.employee.timeEntries).toEqual([]);
    expect(empty.calls).toBeLessThanOrEqual(full.calls);
  });
});

describe("a team's timesheets", () => {
  const TEAM_WEEK = `query TeamWeek($first: Int!, $from: Date!, $to: Date!) {
    employees(first: $first) { nodes { id timeEntries(from: $from, to: $to) { id durationMinutes axisSections { id code } } } }
  }`;

  it("of 100 employees for a week cost as many upstream calls as those of 10", async () => {
    const { from, to } = demo.timesheet;
    await run(TEAM_WEEK, { first: 1, from, to }); // warm: the token is fetched once per process
    const ten = await run(TEAM_WEEK, { first: 10, from, to });
    const hundred = await run(TEAM_WEEK, { first: 100, from, to });
    expectNoErrors(hundred.response);
    const entries = hundred.response.data.employees.nodes.flatMap((e: any) => e.timeEntries);
    expect(hundred.response.data.employees.nodes).toHaveLength(100);
    expect(entries.length).toBeGreaterThan(100);
    expect(hundred.byRoute).toEqual(ten.byRoute);
  });
});

describe("UpdateTimeEntry", () => {
  const update = () => operationNamed(operations, "UpdateTimeEntry");

  it("changes an entry of an open timesheet, as the legacy API then shows it", async () => {
    const { id, ownerId, date } = demo.openEntry;
    const { response } = await run(update(), { id, input: { duration: "02:30:00" } });
    expectNoErrors(response);
    expect(response.data.updateTimeEntry).toMatchObject({ __typename: "TimeEntry", id });
    const res = await fetch(`${stack.directory.url}/api/v3/timeentries?ownerId=${ownerId}&startsAt=between,${date},${date}`, {
      headers: { authorization: "service application=demo-api-key" },
    });
    const stored = ((await res.json()) as any).data.items.find((e: any) => String(e.id) === id);
    expect(stored.duration).toBe("02:30:00");
  });

  it("answers TimeEntryValidationError with violatedRule TIMESHEET_LOCKED (rule 1) for an entry of an approved timesheet", async () => {
    const { response } = await run(update(), { id: demo.approvedEntry.id, input: { duration: "02:30:00" } });
    expectNoErrors(response);
    // rule from the type's own fragment, message and fields from the MutationError fragment
    expect(response.data.updateTimeEntry).toMatchObject({ __typename: "TimeEntryValidationError", violatedRule: "TIMESHEET_LOCKED", fields: ["startsAt"] });
    expect(response.data.updateTimeEntry.message).toEqual(expect.any(String));
  });
});
