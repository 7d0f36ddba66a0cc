import { describe, expect, it } from "vitest";
import type { FetchNode, PlanNode, QueryPlan } from "@apollo/query-planner";
import { findAnnouncements, findCandidates, splitOf } from "../../gateway/apollo/plan-rewrites.js";
import { ANNOUNCEMENT_OPERATION, SPLIT_PART } from "../../platform/speculation-protocol.js";
import { planOf, recordedPlan } from "../helpers/plans.js";

/**
 * The plan rewrites of gateway/apollo/plan-rewrites.ts, as pure functions of the plans the planner
 * makes of operations/ (recorded in fixtures/plans/ by scripts/record-plans.ts;
 * apollo-internals.test.ts checks that the installed planner still makes them): which root lookup's
 * next fetch starts with the root fetch, what is announced to which subgraph, and the split plan.
 */

const ops = ["DirectorySearch", "EmployeeProfile", "OrgChart", "Timesheet", "UpdateTimeEntry"] as const;
/**
 * A page of employees and their time entries: people's list, then legacy-time's entities with the
 * operation's variables (Timesheet was that example, before legacy-time shared `employee(id:)`:
 * it is one legacy-time fetch now)
 */
const TEAM_TIMES = `query TeamTimes($from: Date!, $to: Date!) {
  employees(first: 5) { nodes { id timeEntries(from: $from, to: $to) { id startsAt } } }
}`;
const plan = (name: (typeof ops)[number] | "TeamTimes"): QueryPlan => (name === "TeamTimes" ? planOf(TEAM_TIMES, name) : recordedPlan(name));
const fetchNames = (node: PlanNode): string[] => {
  if (node.kind === "Fetch") return [node.operationName ?? "?"];
  if (node.kind === "Flatten") return fetchNames(node.node);
  if (node.kind === "Sequence" || node.kind === "Parallel") return node.nodes.flatMap(fetchNames);
  return [];
};

describe("lookup speculation: the next fetches a root lookup by id makes predictable", () => {
  it("OrgChart: the department's members, from $departmentId", () => {
    const summary = (name: Parameters<typeof plan>[0]) => findCandidates(plan(name)).map((c) => ({ id: c.id, typename: c.typename, fetch: c.fetch.operationName }));
    expect(summary("OrgChart")).toEqual([{ id: { variable: "departmentId" }, typename: "Department", fetch: "OrgChart__people__1" }]);
  });

  it("none where the root is no lookup by id, the next fetches are deeper than the root field, a mutation, or one fetch alone", () => {
    for (const name of ["DirectorySearch", "EmployeeProfile", "UpdateTimeEntry"] as const) expect(findCandidates(plan(name)), name).toEqual([]);
    // legacy-time's employee(id:) answers the whole of it (docs/graph.md#what-a-company-router-gets)
    expect(fetchNames(plan("Timesheet").node as PlanNode)).toEqual(["Timesheet__legacy_time__0"]);
    expect(findCandidates(plan("Timesheet"))).toEqual([]);
  });
});

describe("announcements: the later entity fetches, one request per subgraph", () => {
  const announced = (name: Parameters<typeof plan>[0]) => Object.fromEntries(findAnnouncements(plan(name)).map((a) => [a.serviceName, a]));

  it("gathers each subgraph's later entity selections into one GatewayPrefetch with no representation, and the variables they use", () => {
    const times = announced("TeamTimes");
    expect(Object.keys(times)).toEqual(["legacy-time"]);
    expect(times["legacy-time"]!.variables).toEqual(["from", "to"]);
    expect(times["legacy-time"]!.query).toMatch(new RegExp(`^query ${ANNOUNCEMENT_OPERATION}\\(\\$representations: \\[_Any!\\]!, \\$from: Date!, \\$to: Date!\\) \\{\\n  _entities\\(representations: \\$representations\\) \\{\\n    \\.\\.\\. on Employee \\{\\n      timeEntries\\(from: \\$from, to: \\$to\\)`));
    expect(findCandidates(plan("TeamTimes")), "a list is no lookup").toEqual([]);

    const profile = announced("EmployeeProfile");
    // people provides the work contract: no legacy-time fetch follows
    expect(Object.keys(profile).sort()).toEqual(["organisation"]);
    const fragments = (query: string) => [...query.matchAll(/^ {4}\.\.\. on (\w+)/gm)].map((m) => m[1]);
    expect(fragments(profile.organisation!.query)).toEqual(["LegalEntity", "EmploymentTemplate", "Department", "JobQualification", "OccupationCategory"]);

    const orgChart = announced("OrgChart");
    expect(fragments(orgChart.people!.query)).toEqual(["Department", "Employee"]);
    expect(fragments(orgChart.organisation!.query)).toEqual(["BusinessEstablishment"]);
    expect(fragments(announced("DirectorySearch").organisation!.query)).toEqual(["Department", "BusinessEstablishment"]);
  });

  it("announces nothing for a plan with a mutation, nor for a plan of one fetch", () => {
    expect(findAnnouncements(plan("UpdateTimeEntry"))).toEqual([]);
    expect(findAnnouncements(plan("Timesheet"))).toEqual([]);
  });
});

describe("the split: the part of a root lookup's fetch that later fetches need, asked beside it", () => {
  const part = (name: Parameters<typeof plan>[0]) => {
    const planned = plan(name);
    const { split, subgraph, planned: node } = splitOf(planned);
    expect(node).toBe(planned.node);
    if (split?.kind !== "Parallel") throw new Error(`${name}: no split`);
    const [first, rest] = split.nodes;
    const root = planned.node as Extract<PlanNode, { kind: "Sequence" }>;
    // Parallel[root, Sequence[part, the plan's later nodes]]
    expect(first).toBe(root.nodes[0]);
    expect(rest?.kind).toBe("Sequence");
    const [cut, ...later] = (rest as Extract<PlanNode, { kind: "Sequence" }>).nodes;
    expect(later).toEqual(root.nodes.slice(1));
    expect(cut!.kind).toBe("Fetch");
    return { subgraph, fetch: cut as FetchNode };
  };

  it("cuts each root fetch down to the representations its later fetches read", () => {
    const orgChart = part("OrgChart");
    expect(orgChart.subgraph).toBe("organisation");
    expect(orgChart.fetch).toMatchObject({
      serviceName: "organisation",
      operationName: `OrgChart__organisation__0${SPLIT_PART}`,
      operation: `query OrgChart__organisation__0${SPLIT_PART}($departmentId:ID!){department(id:$departmentId){__typename id manager{__typename id}}}`,
      variableUsages: ["departmentId"],
      operationKind: "query",
    });
    expect(part("EmployeeProfile").fetch.operation).toBe(
      `query EmployeeProfile__people__0${SPLIT_PART}($id:ID!){employee(id:$id){applicableEmployment{legalEntity{__typename id}template{__typename id}}` +
        "employments(first:10){nodes{jobPositions(first:20){nodes{department{__typename id}jobQualification{__typename id}occupationCategory{__typename id}}}}}}}",
    );
  });

  it("leaves a search (no lookup by id), a mutation and a plan of one fetch as planned", () => {
    for (const name of ["DirectorySearch", "UpdateTimeEntry", "Timesheet"] as const) expect(splitOf(plan(name)).split, name).toBeNull();
  });
});

it("the rewrites are pure: the recorded plans are left as they were, the fetches as the planner named them", () => {
  for (const name of ops) {
    const planned = plan(name);
    const before = JSON.stringify(planned);
    findCandidates(planned);
    findAnnouncements(planned);
    splitOf(planned);
    expect(JSON.stringify(planned), name).toBe(before);
    expect(fetchNames(planned.node as PlanNode).every((n) => n.startsWith(`${name}__`)), name).toBe(true);
  }
});
