import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { Expect } from "../directory/current-helpers.js";
import { OPEN_WEEK, employees, entitiesQuery, representations, legacyGet, range } from "./helpers.js";

/**
 * Forward mode (DIRECTORY_AUTH=forward): the legacy API only knows the subgraph's API key, so
 * legacy data about an employee is served only when the caller can read that employee through
 * the current API with its own token. demo-limited sees the employees of establishment 1. The same
 * rule guards the legacy writes when DIRECTORY_FORWARD_LEGACY_WRITES is `readers`.
 */

// legacy writes as allowed by DIRECTORY_FORWARD_LEGACY_WRITES=readers (the default refuses them all: legacy-writes.test.ts)
const stack = useStack({ subgraphs: ["legacy-time"], env: { DIRECTORY_AUTH: "forward", DIRECTORY_FORWARD_LEGACY_WRITES: "readers" } });
let url: string;
let limited: Record<string, string>;
let full: Record<string, string>;
let limitedToken: string;
let visible: string[];
let hidden: string[];

async function visibleTo(token: string, ids: readonly (string | number)[] = range(1, 100)): Promise<Set<string>> {
  const res = await fetch(`${stack.directory.url}/service-api/employees?id=${ids.join(",")}&limit=100`, {
    headers: { authorization: `Bearer ${token}`, "api-version": "2024-11-01" },
  });
  const body = (await res.json()) as { items: Array<{ id: string }> };
  return new Set(body.items.map((e) => e.id));
}

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  limitedToken = await stack.token("demo-limited");
  limited = { authorization: `Bearer ${limitedToken}` };
  full = { authorization: `Bearer ${await stack.token("demo-client")}` };
  const seen = await visibleTo(limitedToken);
  visible = range(1, 100).map(String).filter((id) => seen.has(id));
  hidden = range(1, 100).map(String).filter((id) => !seen.has(id));
});

const PROFILE = entitiesQuery("Employee", "id legacyUser { login }");

describe("forward mode", () => {
  it("has employees on both sides of demo-limited's view", () => {
    expect(visible.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(0);
  });

  it("lists only the legacy users the caller can read", async () => {
    const query = `query($filter: LegacyUserFilter) { legacyUsers(filter: $filter, first: 100) { nodes { id login } } }`;
    const filter = { ids: [...visible.slice(0, 3), ...hidden.slice(0, 3)], includeFormerEmployees: true };
    const res = await stack.gql(url, query, { filter }, limited);
    expect(res.errors).toBeUndefined();
    expect(res.data.legacyUsers.nodes.map((n: any) => n.id).sort()).toEqual(visible.slice(0, 3).sort());
    const everyone = await stack.gql(url, query, { filter }, full);
    expect(everyone.data.legacyUsers.nodes).toHaveLength(6);
  });

  it("lists only the work contracts and time entries of employees the caller can read; legacy establishments need a caller", async () => {
    const owners = [...visible.slice(0, 3), ...hidden.slice(0, 3)];
    const query = `query($owners: [ID!]!) {
      workContracts(filter: { ownerIds: $owners }, first: 100) { nodes { owner { id } } }
      timeEntries(filter: { ownerIds: $owners, startsOn: { from: "${OPEN_WEEK.from}", to: "${OPEN_WEEK.to}" } }, first: 100) { nodes { owner { id } } }
    }`;
    const res = await stack.gql(url, query, { owners }, limited);
    expect(res.errors).toBeUndefined();
    const seen = (list: any[]) => [...new Set(list.map((n) => n.owner.id))];
    for (const list of [res.data.workContracts.nodes, res.data.timeEntries.nodes]) {
      expect(list.length).toBeGreaterThan(0);
      expect(seen(list).every((id) => visible.includes(id))).toBe(true);
    }
    const everyone = await stack.gql(url, query, { owners }, full);
    expect(seen(everyone.data.workContracts.nodes).some((id) => hidden.includes(id))).toBe(true);
    const anonymous = await stack.gql(url, `{ legacyEstablishments { nodes { id } } }`);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("serves the legacy user of an employee the caller can read", async () => {
    const res = await stack.gql(url, PROFILE, { r: employees([visible[0]!]) }, limited);
    expect(res.errors).toBeUndefined();
    expect(res.data._entities[0].legacyUser.login.length).toBeGreaterThan(0);
  });

  it("answers null and FORBIDDEN for the legacy user of an employee the caller cannot read", async () => {
    const res = await stack.gql(url, PROFILE, { r: employees([hidden[0]!]) }, limited);
    expect(res.data._entities[0]).toEqual({ id: hidden[0], legacyUser: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]!.extensions?.code).toBe("FORBIDDEN");
    expect(res.errors![0]!.path).toEqual(["_entities", 0, "legacyUser"]);
  });

  it("withholds time entries and work contracts of employees the caller cannot read, field by field", async () => {
    const ids = [visible[0]!, hidden[0]!];
    const res = await stack.gql(
      url,
      entitiesQuery("Employee", "id timeEntries(from: $from, to: $to) { id } applicableWorkContract { id }", ", $from: Date!, $to: Date!"),
      { r: employees(ids), ...OPEN_WEEK },
      limited,
    );
    expect(res.data._entities[0].timeEntries.length).toBeGreaterThan(0);
    expect(res.data._entities[0].applicableWorkContract).not.toBeNull();
    expect(res.data._entities[1]).toEqual({ id: hidden[0], timeEntries: null, applicableWorkContract: null });
    expect(res.errors?.map((e) => [e.extensions?.code, e.path]).sort()).toEqual([
      ["FORBIDDEN", ["_entities", 1, "applicableWorkContract"]],
      ["FORBIDDEN", ["_entities", 1, "timeEntries"]],
    ]);
  });

  it("employee(id:), shared with people: the employee the caller can read, with its legacy data; null for one it cannot, as people's", async () => {
    const query = `query($id: ID!) { employee(id: $id) { id givenName familyName timeEntries(from: "${OPEN_WEEK.from}", to: "${OPEN_WEEK.to}") { id } } }`;
    const seen = await stack.gql(url, query, { id: visible[0]! }, limited);
    expect(seen.errors).toBeUndefined();
    expect(seen.data.employee).toEqual({ id: visible[0], givenName: expect.any(String), familyName: expect.any(String), timeEntries: expect.any(Array) });
    const unseen = await stack.gql(url, query, { id: hidden[0]! }, limited);
    expect(unseen.errors).toBeUndefined();
    expect(unseen.data).toEqual({ employee: null });
    // the service's view has it: null above is the caller's view, not a missing employee
    const everyone = await stack.gql(url, query, { id: hidden[0]! }, full);
    expect(everyone.data.employee.id).toBe(hidden[0]);
    const anonymous = await stack.gql(url, query, { id: visible[0]! });
    expect(anonymous.data).toEqual({ employee: null });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("checks the visibility of 100 employees with one current-API call", async () => {
    stack.resetStats();
    const res = await stack.gql(url, PROFILE, { r: employees(range(1, 100)) }, limited);
    expect(res.errors).toHaveLength(hidden.length);
    const served = res.data._entities.filter((e: any) => e.legacyUser !== null).map((e: any) => e.id);
    expect(served).toEqual(visible);
    expect(stack.stats().byRoute).toEqual({ "GET /service-api/employees": 1, "GET /api/v3/users": 1 });
  });

  it("serves every employee to a caller that sees every establishment", async () => {
    const res = await stack.gql(url, PROFILE, { r: employees(range(1, 50)) }, full);
    expect(res.errors).toBeUndefined();
    expect(res.data._entities.every((e: any) => e.legacyUser !== null)).toBe(true);
  });

  it("answers UNAUTHENTICATED to a request without credentials", async () => {
    const res = await stack.gql(url, PROFILE, { r: employees([visible[0]!]) });
    expect(res.data._entities[0].legacyUser).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("answers UNAUTHENTICATED to a request without credentials for data of no employee", async () => {
    const res = await stack.gql(url, `{ axisSections(first: 1) { nodes { id } } }`);
    expect(res.data).toEqual({ axisSections: null });
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("makes no call with the facade's legacy key before it has checked the caller", async () => {
    // without a token: nothing at all (a direct timeEntry request made one legacy GET first)
    stack.resetStats();
    const anonymous = await stack.gql(url, `{ timeEntry(id: "100095") { id } }`);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(stack.stats().total).toBe(0);
    // a token the directory does not know: its refusal of the caller check, no legacy call
    stack.resetStats();
    const garbled = await stack.gql(url, `{ timeEntry(id: "100095") { id } }`, undefined, { authorization: "Bearer never-issued" });
    expect(garbled.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(Object.keys(stack.stats().byRoute).filter((r) => r.includes("/api/v3/"))).toEqual([]);
    // and again: remembered, no call at all
    stack.resetStats();
    const again = await stack.gql(url, `{ timeEntry(id: "100095") { id } }`, undefined, { authorization: "Bearer never-issued" });
    expect(again.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(stack.stats().total).toBe(0);
  });

  it("lists only the members of a legacy department that the caller can read, from the caller's own read of the current API", async () => {
    const company = stack.directory.company;
    const positions = new Expect(company);
    const membersOf = (departmentId: string) =>
      company.employees.filter((e) => positions.applicableJobPosition(e.id)?.departmentId === departmentId).map((e) => e.id).sort((a, b) => Number(a) - Number(b));
    const all = await visibleTo(limitedToken, company.employees.map((e) => e.id).slice(0, 100));
    const department = company.departments.find((d) => membersOf(d.id).some((id) => all.has(id)) && membersOf(d.id).some((id) => !all.has(id) && Number(id) <= 100) && membersOf(d.id).length <= 100);
    expect(department).toBeDefined();
    const members = membersOf(department!.id);
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("Department", "legacy { users { id } }"), { r: [{ __typename: "Department", id: department!.id }] }, limited);
    expect(res.errors).toBeUndefined();
    // the department and its members, read with the caller's token: no legacy call, no separate visibility check
    const calls = stack.stats().byRoute;
    expect(Object.keys(calls).filter((r) => r.includes("/api/v3/"))).toEqual([]);
    expect(calls["GET /service-api/employees"]).toBe(1);
    const seen = await visibleTo(limitedToken, members);
    const listed = res.data._entities[0].legacy.users.map((u: any) => u.id);
    expect(listed).toEqual(members.filter((id: string) => seen.has(id)));
    expect(listed.length).toBeLessThan(members.length);
  });

  it("answers a NotFoundError (data), as for an entry that does not exist, to update a time entry of an employee the caller cannot read, and writes nothing", async () => {
    const entries = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=${hidden[0]}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items;
    expect(entries.length).toBeGreaterThan(0);
    const entry = entries[0];
    const res = await stack.gql(
      url,
      `mutation($id: ID!) { updateTimeEntry(id: $id, input: { comment: "not mine" }) { __typename } }`,
      { id: String(entry.id) },
      limited,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.updateTimeEntry).toEqual({ __typename: "NotFoundError" });
    const after = (await legacyGet(stack, `/api/v3/timeentries?layer=notequal,1&ownerId=${hidden[0]}&startsAt=between,${OPEN_WEEK.from},${OPEN_WEEK.to}`)).data.items[0];
    expect(after).toEqual(entry);
  });

  it("refuses with a ForbiddenError (data) to update the legacy user of an employee the caller cannot read", async () => {
    stack.resetStats();
    const res = await stack.gql(url, `mutation($id: ID!) { updateLegacyUser(id: $id, input: { quote: "x" }) { __typename } }`, { id: hidden[0] }, limited);
    expect(res.data.updateLegacyUser).toEqual({ __typename: "ForbiddenError" });
    expect(stack.stats().byRoute["PUT /api/v3/users/{id}"]).toBeUndefined();
  });
});

describe("forward mode, work contracts", () => {
  it("answers FORBIDDEN for a work contract referenced with others whose owner the caller cannot read", async () => {
    const contract = (await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=${hidden[0]},${visible[0]}`)).items as any[];
    const mine = contract.filter((c) => String(c.ownerId) === visible[0]);
    const theirs = contract.find((c) => String(c.ownerId) === hidden[0])!;
    const res = await stack.gql(url, entitiesQuery("WorkContract", "id"), { r: representations("WorkContract", [...mine.map((c) => c.id), theirs.id]) }, limited);
    expect(res.data._entities).toEqual([...mine.map((c) => ({ id: String(c.id) })), null]);
    expect(res.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([["FORBIDDEN", ["_entities", mine.length]]]);
  });

  it("answers FORBIDDEN for workContract(id) when the caller cannot read its owner", async () => {
    const theirs = (await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=${hidden[0]}`)).items[0];
    const res = await stack.gql(url, `query($id: ID!) { workContract(id: $id) { id } }`, { id: String(theirs.id) }, limited);
    expect(res.data.workContract).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("forward mode, data of no employee", () => {
  it("refuses an axis-section update without credentials with UNAUTHENTICATED, and writes nothing", async () => {
    stack.resetStats();
    const res = await stack.gql(url, `mutation { updateAxisSection(id: "1", input: { description: "anonymous" }) { __typename } }`);
    expect(res.data.updateAxisSection).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(stack.stats().byRoute["PUT /api/v3/axisSections/{id}"]).toBeUndefined();
  });

  it("serves axis sections to a caller the current API accepts", async () => {
    const res = await stack.gql(url, `{ axisSection(id: "1") { id code } }`, undefined, limited);
    expect(res.errors).toBeUndefined();
    expect(res.data.axisSection.id).toBe("1");
  });

  it("refuses a caller whose token the current API rejects", async () => {
    const res = await stack.gql(url, `{ axisSection(id: "1") { id } }`, undefined, { authorization: "Bearer not-a-token" });
    expect(res.data.axisSection).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
