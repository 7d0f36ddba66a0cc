import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { directoryToken, getAll } from "../directory/current-helpers.js";
import { counting, query, send } from "./helpers.js";

/**
 * The reverse edges people adds (docs/graph.md#edges): job positions of a department, an
 * establishment, a job qualification, an occupation category and a manager; employees of a legal
 * entity and of an employment template; and the filters and sorts of `Employee.employments` /
 * `Employee.jobPositions`. Each edge's nodes equal a direct REST list of the in-process directory
 * with the edge's filter, its calls do not grow with the number of parents, and a bad argument is
 * refused before any upstream call.
 */

const stack = useStack({ subgraphs: ["people"] });
let token: string;

beforeAll(async () => {
  token = await directoryToken(stack.directory.url);
  // the first request also fetches the subgraph's token; later counts are the operations' own
  await query(stack, `{ employee(id: "1") { id } }`);
});

/** The ids of a REST list of the directory, read to its last page. */
async function restIds(path: string): Promise<string[]> {
  const { items } = await getAll(stack.directory.url, token, `/service-api/${path}${path.includes("?") ? "&" : "?"}limit=100`);
  return items.map((item: { id: string }) => item.id);
}

const ENTITIES = "query($r: [_Any!]!) { _entities(representations: $r) { __typename";

/** Every node id of an edge read on one parent through `_entities`, following `after` to the end. */
async function pageEdge(typename: string, id: string, field: string, first: number, args = ""): Promise<{ ids: string[]; totalCount: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let totalCount = -1;
  for (;;) {
    const data: any = await query(
      stack,
      `${ENTITIES} ... on ${typename} { ${field}(first: ${first}, after: $after${args}) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } } } }`.replace(
        "query($r: [_Any!]!)",
        "query($r: [_Any!]!, $after: String)",
      ),
      { r: [{ __typename: typename, id }], after },
    );
    const page = data._entities[0][field];
    totalCount = page.totalCount;
    ids.push(...page.nodes.map((n: { id: string }) => n.id));
    if (!page.pageInfo.hasNextPage) return { ids, totalCount };
    after = page.pageInfo.endCursor;
  }
}

/** The values of `key` among the directory's job positions, most frequent first. */
function commonest<R>(rows: readonly R[], key: (r: R) => string | null, n: number): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const k = key(r);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).slice(0, n).map(([k]) => k);
}

const positions = () => stack.directory.company.jobPositions;

const JOB_POSITION_EDGES = [
  { typename: "Department", filter: "department.id", key: (p: any) => p.departmentId as string | null, own: "departmentIds" },
  { typename: "BusinessEstablishment", filter: "businessEstablishment.id", key: (p: any) => p.businessEstablishmentId, own: "businessEstablishmentIds" },
  { typename: "JobQualification", filter: "jobQualification.id", key: (p: any) => p.jobQualificationId, own: "jobQualificationIds" },
  { typename: "OccupationCategory", filter: "occupationCategory.id", key: (p: any) => p.occupationCategoryId, own: "occupationCategoryIds" },
] as const;

// (`%s.jobPositions` of the typename: vitest would read "$typename.jobPositions" as a property path)
describe.each(JOB_POSITION_EDGES.map((edge) => [edge.typename, edge] as const))("%s.jobPositions", (typename, { filter, key, own }) => {
  it("pages through the REST list filtered by the parent, with its totalCount", async () => {
    const [parent] = commonest(positions(), key, 1);
    const expected = await restIds(`job-positions?${filter}=${parent}`);
    expect(expected.length).toBeGreaterThan(7);
    const { ids, totalCount } = await pageEdge(typename, parent!, "jobPositions", 7);
    expect(ids).toEqual(expected);
    expect(totalCount).toBe(expected.length);
  });

  it("takes the job-position filter and sort, as the REST list does", async () => {
    const [parent] = commonest(positions(), key, 1);
    const expected = await restIds(`job-positions?${filter}=${parent}&status=deactivated&sort=-startsOn`);
    expect(expected.length).toBeGreaterThan(1);
    const { ids } = await pageEdge(typename, parent!, "jobPositions", 100, ", filter: { status: [DEACTIVATED] }, sort: [STARTS_ON_DESC]");
    expect(ids).toEqual(expected);
  });

  it(`groups many ${typename} parents back to each in calls that follow the children, not the parents`, async () => {
    const parents = commonest(positions(), key, 40);
    const source = `${ENTITIES} ... on ${typename} { id jobPositions(first: 10) { totalCount nodes { id } } } } }`;
    const reps = (ids: string[]) => ids.map((id) => ({ __typename: typename, id }));
    const many = await counting(stack, () => query(stack, source, { r: reps(parents) }));
    const children = parents.reduce((n, id) => n + positions().filter((p) => key(p) === id).length, 0);
    expect(many.calls.byRoute).toEqual({ "GET /service-api/job-positions": Math.ceil(children / 100) });
    for (const parent of many.result._entities.slice(0, 5)) {
      const expected = await restIds(`job-positions?${filter}=${parent.id}`);
      expect(parent.jobPositions.totalCount).toBe(expected.length);
      expect(parent.jobPositions.nodes.map((n: { id: string }) => n.id)).toEqual(expected.slice(0, 10));
    }
  });

  it(`refuses ${own} on the edge that sets it, with no upstream call`, async () => {
    const { result, calls } = await counting(stack, () =>
      send(stack, `${ENTITIES} ... on ${typename} { jobPositions(filter: { ${own}: ["1"] }) { nodes { id } } } } }`, {
        r: [{ __typename: typename, id: "1" }],
      }),
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(result.errors?.[0]?.message).toContain(`filter.${own}`);
    expect(calls.total).toBe(0);
  });
});

describe("Employee.managedJobPositions", () => {
  it("lists the positions whose manager is the employee, as the REST list by manager.id", async () => {
    const [manager] = commonest(positions(), (p) => p.managerId, 1);
    const expected = await restIds(`job-positions?manager.id=${manager}`);
    expect(expected.length).toBeGreaterThan(3);
    const { ids, totalCount } = await pageEdge("Employee", manager!, "managedJobPositions", 3);
    expect(ids).toEqual(expected);
    expect(totalCount).toBe(expected.length);
    const filtered = await pageEdge("Employee", manager!, "managedJobPositions", 50, ", filter: { status: [ACTIVE] }, sort: [ENDS_ON_DESC]");
    expect(filtered.ids).toEqual(await restIds(`job-positions?manager.id=${manager}&status=active&sort=-endsOn`));
  });

  it("costs one call per 100 managed positions, for a page of 10 employees as for a page of 100", async () => {
    const source = (first: number) => `{ employees(first: ${first}) { nodes { id managedJobPositions(first: 5) { totalCount nodes { id } } } } }`;
    const managedBy = (data: any): number => data.employees.nodes.reduce((n: number, e: any) => n + e.managedJobPositions.totalCount, 0);
    for (const first of [10, 100]) {
      const { result, calls } = await counting(stack, () => query(stack, source(first)));
      expect(managedBy(result)).toBeGreaterThan(10);
      // the positions are read once for the whole page, never per employee
      expect(calls.byRoute, `first: ${first}`).toEqual({
        "GET /service-api/employees": 1,
        "GET /service-api/job-positions": Math.ceil(managedBy(result) / 100),
      });
      const someone = result.employees.nodes.filter((e: any) => e.managedJobPositions.totalCount > 0).at(-1);
      expect(someone.managedJobPositions.nodes.map((n: { id: string }) => n.id)).toEqual((await restIds(`job-positions?manager.id=${someone.id}`)).slice(0, 5));
    }
  });

  it("refuses a bad filter below a list before the list is read: no upstream call at all", async () => {
    for (const args of [
      `filter: { managerIds: ["2"] }`,
      `sort: [STARTS_ON_ASC, STARTS_ON_DESC]`,
      `filter: { ids: [] }`,
      `filter: { startsOnBetween: { from: "2026-02-01", to: "2026-01-01" } }`,
      `first: 101`,
    ]) {
      const { result, calls } = await counting(stack, () => send(stack, `{ employees(first: 5) { nodes { managedJobPositions(${args}) { nodes { id } } } } }`));
      expect(result.errors?.[0]?.extensions?.code, args).toBe("BAD_USER_INPUT");
      expect(calls.total, args).toBe(0);
    }
  });
});

const EMPLOYEE_EDGES = [
  { typename: "LegalEntity", filter: "applicableEmployment.legalEntity.id", own: "legalEntityIds" },
  { typename: "EmploymentTemplate", filter: "applicableEmployment.template.id", own: "employmentTemplateIds" },
] as const;

describe.each(EMPLOYEE_EDGES.map((edge) => [edge.typename, edge] as const))("%s.employees", (typename, { filter, own }) => {
  /** the parents with employees, most employees first */
  async function parents(): Promise<Array<{ id: string; count: number }>> {
    const company = stack.directory.company;
    const ids = typename === "LegalEntity" ? company.legalEntities.map((l: any) => l.id) : company.employmentTemplates.map((t: any) => t.id);
    const counted = await Promise.all(ids.map(async (id: string) => ({ id, count: (await restIds(`employees?${filter}=${id}`)).length })));
    return counted.filter((p) => p.count > 0).sort((a, b) => b.count - a.count);
  }

  it("pages through the REST employee list filtered by the parent, with filters and sorts", async () => {
    const [parent] = await parents();
    const expected = await restIds(`employees?${filter}=${parent!.id}`);
    const { ids, totalCount } = await pageEdge(typename, parent!.id, "employees", 30);
    expect(ids).toEqual(expected);
    expect(totalCount).toBe(expected.length);
    const sorted = await pageEdge(typename, parent!.id, "employees", 100, ", filter: { status: [ACTIVE] }, sort: [FAMILY_NAME_DESC]");
    const restSorted = await restIds(`employees?${filter}=${parent!.id}&status=active&sort=-familyName`);
    expect(restSorted.length).toBeGreaterThan(0);
    expect(restSorted.length).toBeLessThan(expected.length);
    expect(sorted.ids).toEqual(restSorted);
  });

  it("serves all the parents at once in calls that follow the employees, not the parents", async () => {
    const all = await parents();
    expect(all.length).toBeGreaterThan(1);
    const source = `${ENTITIES} ... on ${typename} { id employees(first: 10) { totalCount nodes { id } } } } }`;
    const reps = all.map((p) => ({ __typename: typename, id: p.id }));
    const { result, calls } = await counting(stack, () => query(stack, source, { r: reps }));
    const total = all.reduce((n, p) => n + p.count, 0);
    // the employees, and their applicable employments to group them back: one call per 100 each
    expect(calls.byRoute).toEqual({ "GET /service-api/employees": Math.ceil(total / 100), "GET /service-api/employments": Math.ceil(total / 100) });
    for (const parent of result._entities) {
      const expected = await restIds(`employees?${filter}=${parent.id}`);
      expect(parent.employees.totalCount).toBe(expected.length);
      expect(parent.employees.nodes.map((n: { id: string }) => n.id)).toEqual(expected.slice(0, 10));
    }
  });

  it(`refuses ${own} on the edge that sets it, and a too-short email, with no upstream call`, async () => {
    for (const filterText of [`${own}: ["1"]`, `emails: ["a"]`]) {
      const { result, calls } = await counting(stack, () =>
        send(stack, `${ENTITIES} ... on ${typename} { employees(filter: { ${filterText} }) { nodes { id } } } } }`, {
          r: [{ __typename: typename, id: "1" }],
        }),
      );
      expect(result.errors?.[0]?.extensions?.code, filterText).toBe("BAD_USER_INPUT");
      expect(calls.total, filterText).toBe(0);
    }
  });
});

describe("Employee.employments and Employee.jobPositions take the filters and sorts of their REST lists", () => {
  /** an employee with several employments and positions */
  const career = () => {
    const counts = commonest(stack.directory.company.employments, (e: any) => e.employeeId, 1);
    return counts[0]!;
  };

  it("keeps the default order by start date without arguments", async () => {
    const id = career();
    const data = await query(stack, `{ employee(id: "${id}") { employments { nodes { id } } jobPositions(first: 100) { nodes { id } } } }`);
    expect(data.employee.employments.nodes.map((n: { id: string }) => n.id)).toEqual(await restIds(`employments?employee.id=${id}&sort=start.date`));
    expect(data.employee.jobPositions.nodes.map((n: { id: string }) => n.id)).toEqual(await restIds(`job-positions?employment.employee.id=${id}&sort=startsOn`));
  });

  it("filters and sorts as the REST lists do", async () => {
    const id = career();
    const data = await query(
      stack,
      `{ employee(id: "${id}") {
        employments(filter: { status: [DEACTIVATED] }, sort: [STARTS_ON_DESC]) { nodes { id } }
        jobPositions(first: 100, filter: { status: [DEACTIVATED] }, sort: [ENDS_ON_DESC]) { nodes { id } } } }`,
    );
    const employments = await restIds(`employments?employee.id=${id}&status=deactivated&sort=-start.date`);
    expect(employments.length).toBeGreaterThan(0);
    expect(data.employee.employments.nodes.map((n: { id: string }) => n.id)).toEqual(employments);
    const jobPositions = await restIds(`job-positions?employment.employee.id=${id}&status=deactivated&sort=-endsOn`);
    expect(jobPositions.length).toBeGreaterThan(1);
    expect(data.employee.jobPositions.nodes.map((n: { id: string }) => n.id)).toEqual(jobPositions);
  });

  it("stays batched with a filter: a page of 100 employees costs one call per list", async () => {
    const { result, calls } = await counting(stack, () =>
      query(stack, `{ employees(first: 100) { nodes { id employments(filter: { status: [ACTIVE] }) { nodes { id } } jobPositions(first: 3, sort: [STARTS_ON_DESC]) { nodes { id } } } } }`),
    );
    const route = (r: string) => calls.byRoute[`GET /service-api/${r}`];
    expect(route("employees")).toBe(1);
    // all employments of 100 employees fit in a page or two: one call per 100 children
    expect(route("employments")).toBeLessThanOrEqual(2);
    expect(route("job-positions")).toBeLessThanOrEqual(Math.ceil(positions().length / 100));
    expect(route("job-positions")).toBeLessThan(10);
    const someone = result.employees.nodes[3];
    expect(someone.jobPositions.nodes.map((n: { id: string }) => n.id)).toEqual(
      (await restIds(`job-positions?employment.employee.id=${someone.id}&sort=-startsOn`)).slice(0, 3),
    );
  });

  it("refuses the employee filter on the employee's own lists, with no upstream call", async () => {
    for (const field of [`employments(filter: { employeeIds: ["1"] })`, `jobPositions(filter: { employeeIds: ["1"] })`]) {
      const { result, calls } = await counting(stack, () => send(stack, `{ employees(first: 3) { nodes { ${field} { nodes { id } } } } }`));
      expect(result.errors?.[0]?.extensions?.code, field).toBe("BAD_USER_INPUT");
      expect(result.errors?.[0]?.message, field).toContain("filter.employeeIds");
      expect(calls.total, field).toBe(0);
    }
  });
});
