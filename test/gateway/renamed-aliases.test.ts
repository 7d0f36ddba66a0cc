import { readFile } from "node:fs/promises";
import { parse, validate } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { upstreamCalls, type GraphQLResponse } from "../helpers/stack.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf, type Demo } from "../helpers/operations.js";
import { apiSchema } from "../schema/contracts.js";

/**
 * The names before 0.1.0's renames, back as deprecated aliases (CHANGELOG.md, "The renames, and why"):
 * through the gateway each answers what its new name answers, filters and sorts as it does, at the
 * same upstream calls; an old and a new name given together is refused before any call; and the
 * operations of `operations/` as they were before 0.1.0 still run.
 */

const stack = useGatewayStack();
let demo: Demo;

beforeAll(() => {
  demo = pickDemoData(stack.directory.company);
});

async function run(source: string, variables: Record<string, unknown> = {}): Promise<{ response: GraphQLResponse; calls: number }> {
  stack.resetStats();
  const response = await stack.query(source, variables);
  return { response, calls: upstreamCalls(stack.stats()) };
}

/** Runs the operation under its new names and under its old ones: the same data (old names read back as new ones), the same calls. */
async function expectSameAnswer(now: string, before: string, renames: Record<string, string>, variables: Record<string, unknown> = {}) {
  const a = await run(now, variables);
  const b = await run(before, variables);
  expect(a.response.errors, JSON.stringify(a.response.errors)).toBeUndefined();
  expect(b.response.errors, JSON.stringify(b.response.errors)).toBeUndefined();
  let renamed = JSON.stringify(b.response.data);
  for (const [old, now] of Object.entries(renames)) renamed = renamed.replaceAll(`"${old}":`, `"${now}":`);
  expect(JSON.parse(renamed)).toEqual(a.response.data);
  expect(b.calls).toBe(a.calls);
  return a.response.data;
}

describe("EmploymentFilter and EmploymentSort under their names before 0.1.0", () => {
  const list = (filter: string, sort: string) => `{ employments(first: 50, filter: ${filter}, sort: [${sort}, ID_ASC]) { totalCount nodes { id startsOn endsOn } } }`;

  it("startDateBetween and START_DATE_DESC filter and sort as startsOnBetween and STARTS_ON_DESC", async () => {
    const data = await expectSameAnswer(
      list(`{ startsOnBetween: { from: "2015-01-01", to: "2022-12-31" } }`, "STARTS_ON_DESC"),
      list(`{ startDateBetween: { from: "2015-01-01", to: "2022-12-31" } }`, "START_DATE_DESC"),
      {},
    );
    const starts = data.employments.nodes.map((n: { startsOn: string }) => n.startsOn);
    expect(starts.length).toBeGreaterThan(5);
    expect(starts.every((d: string) => d >= "2015-01-01" && d <= "2022-12-31")).toBe(true);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it("endDate: null selects the open-ended employments as endsOn: null does; END_DATE_ASC sorts as ENDS_ON_ASC", async () => {
    const data = await expectSameAnswer(list("{ endsOn: null }", "ENDS_ON_ASC"), list("{ endDate: null }", "END_DATE_ASC"), {});
    expect(data.employments.nodes.length).toBeGreaterThan(0);
    expect(data.employments.nodes.every((n: { endsOn: string | null }) => n.endsOn === null)).toBe(true);
  });

  it("startDate, endDate and endDateBetween filter as startsOn, endsOn and endsOnBetween; START_DATE_ASC and END_DATE_DESC sort", async () => {
    const ended = (await run(list("{ endsOnBetween: { from: \"2000-01-01\" } }", "ENDS_ON_DESC"))).response.data.employments.nodes;
    expect(ended.length).toBeGreaterThan(1);
    const { startsOn, endsOn } = ended[0];
    const same = (filter: string, old: string, sort: string, oldSort: string) => expectSameAnswer(list(filter, sort), list(old, oldSort), {});
    expect((await same(`{ startsOn: "${startsOn}" }`, `{ startDate: "${startsOn}" }`, "STARTS_ON_ASC", "START_DATE_ASC")).employments.nodes.length).toBeGreaterThan(0);
    expect((await same(`{ endsOn: "${endsOn}" }`, `{ endDate: "${endsOn}" }`, "ENDS_ON_DESC", "END_DATE_DESC")).employments.nodes.length).toBeGreaterThan(0);
    const between = await same(`{ endsOnBetween: { to: "${endsOn}" } }`, `{ endDateBetween: { to: "${endsOn}" } }`, "ENDS_ON_DESC", "END_DATE_DESC");
    expect(between.employments.nodes.every((n: { endsOn: string }) => n.endsOn !== null && n.endsOn <= endsOn)).toBe(true);
  });

  it.each([
    ["startDate", "startsOn", `"2020-01-01"`],
    ["startDateBetween", "startsOnBetween", `{ from: "2020-01-01" }`],
    ["endDate", "endsOn", "null"],
    ["endDateBetween", "endsOnBetween", `{ to: "2020-01-01" }`],
  ])("%s and %s given together: BAD_USER_INPUT naming both, no upstream call", async (old, now, value) => {
    const { response, calls } = await run(`{ employments(filter: { ${old}: ${value}, ${now}: ${value} }) { nodes { id } } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.errors?.[0]?.message).toBe(`filter.${old} is the deprecated name of filter.${now}: give only filter.${now}`);
    expect(calls).toBe(0);
  });

  it("an old and a new sort value on the same key are refused as a key named twice, with no upstream call", async () => {
    const { response, calls } = await run("{ employments(sort: [START_DATE_ASC, STARTS_ON_DESC]) { nodes { id } } }");
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(calls).toBe(0);
  });
});

describe("legacy fields under their names before 0.1.0", () => {
  it("AxisSection.endOn answers endsAt", async () => {
    const data = await expectSameAnswer(
      "{ axisSections(first: 100) { nodes { id endsAt } } }",
      "{ axisSections(first: 100) { nodes { id endOn } } }",
      { endOn: "endsAt" },
    );
    expect(data.axisSections.nodes.some((n: { endsAt: string | null }) => n.endsAt !== null)).toBe(true);
  });

  it("WorkContract.trialPeriodEndDate and trialPeriodEndDate2 answer trialPeriodEndsOn and renewedTrialPeriodEndsOn", async () => {
    const data = await expectSameAnswer(
      "{ workContracts(first: 100) { nodes { id trialPeriodEndsOn renewedTrialPeriodEndsOn } } }",
      "{ workContracts(first: 100) { nodes { id trialPeriodEndDate trialPeriodEndDate2 } } }",
      { trialPeriodEndDate: "trialPeriodEndsOn", trialPeriodEndDate2: "renewedTrialPeriodEndsOn" },
    );
    expect(data.workContracts.nodes.some((n: { renewedTrialPeriodEndsOn: string | null }) => n.renewedTrialPeriodEndsOn !== null)).toBe(true);
  });

  it("Employee.legacyProfile answers legacyUser, and LegacyWorkCycle.startsOn and endsOn (LocalDateTime, as before) answer startsAt and endsAt", async () => {
    const employees = `employees(first: 30, sort: [ID_ASC])`;
    const data = await expectSameAnswer(
      `{ ${employees} { nodes { id legacyUser { login workCycles { id startsAt endsAt } } } } }`,
      `{ ${employees} { nodes { id legacyProfile { login workCycles { id startsOn endsOn } } } } }`,
      { legacyProfile: "legacyUser", startsOn: "startsAt", endsOn: "endsAt" },
    );
    const cycles = data.employees.nodes.flatMap((n: any) => n.legacyUser?.workCycles ?? []);
    expect(cycles.length).toBeGreaterThan(0);
    expect(cycles[0].startsAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // both names in one operation: still the one load
    const both = await run(`{ ${employees} { nodes { id legacyUser { login } legacyProfile { login } } } }`);
    const one = await run(`{ ${employees} { nodes { id legacyUser { login } } } }`);
    expect(both.response.errors).toBeUndefined();
    expect(both.calls).toBe(one.calls);
  });

  it("AxisSectionInput.endOn writes as endsAt; both given is refused as data, with no upstream call", async () => {
    const section = (await run("{ axisSections(first: 5) { nodes { id endsAt } } }")).response.data.axisSections.nodes[0];
    const update = (input: string) =>
      run(`mutation($id: ID!) { updateAxisSection(id: $id, input: ${input}) { __typename ... on AxisSection { endsAt endOn } ... on InvalidInputError { message fields } } }`, { id: section.id });
    const written = await update(`{ endOn: "2031-06-30T18:00:00" }`);
    expect(written.response.errors).toBeUndefined();
    expect(written.response.data.updateAxisSection).toEqual({ __typename: "AxisSection", endsAt: "2031-06-30T18:00:00", endOn: "2031-06-30T18:00:00" });
    const withNew = await update(`{ endsAt: "2031-07-31T18:00:00" }`);
    expect(written.calls).toBe(withNew.calls);
    const both = await update(`{ endOn: "2031-06-30T18:00:00", endsAt: "2031-06-30T18:00:00" }`);
    expect(both.response.data.updateAxisSection).toEqual({
      __typename: "InvalidInputError",
      message: "endOn is the deprecated name of endsAt: give only endsAt.",
      fields: ["endOn", "endsAt"],
    });
    expect(both.calls).toBe(0);
  });
});

describe("the names issue 35 made one (deprecated after 0.1.0): each former name answers the new one, at the same calls", () => {
  it("WorkContract.lastModifiedAt answers lastUpdatedAt", async () => {
    const data = await expectSameAnswer(
      "{ workContracts(first: 100) { nodes { id lastUpdatedAt } } }",
      "{ workContracts(first: 100) { nodes { id lastModifiedAt } } }",
      { lastModifiedAt: "lastUpdatedAt" },
    );
    expect(data.workContracts.nodes[0].lastUpdatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("LegacyUser.modifiedAt answers lastUpdatedAt", async () => {
    const data = await expectSameAnswer(
      "{ legacyUsers(first: 50) { nodes { id lastUpdatedAt } } }",
      "{ legacyUsers(first: 50) { nodes { id modifiedAt } } }",
      { modifiedAt: "lastUpdatedAt" },
    );
    expect(data.legacyUsers.nodes.some((n: { lastUpdatedAt: string | null }) => n.lastUpdatedAt !== null)).toBe(true);
  });

  it("TimeEntry.modifiedAt and modifier answer lastUpdatedAt and lastModifier", async () => {
    const entries = `timeEntries(filter: { ownerIds: ["10", "11", "12"] }, first: 100)`;
    const data = await expectSameAnswer(
      `{ ${entries} { nodes { id lastUpdatedAt lastModifier { id } } } }`,
      `{ ${entries} { nodes { id modifiedAt modifier { id } } } }`,
      { modifiedAt: "lastUpdatedAt", modifier: "lastModifier" },
    );
    expect(data.timeEntries.nodes.length).toBeGreaterThan(0);
    expect(data.timeEntries.nodes.some((n: any) => n.lastUpdatedAt !== null && n.lastModifier !== null)).toBe(true);
  });

  it("LegacyDepartment.head answers manager, LegacyEstablishmentAddress.zipCode and city answer postalCode and locality", async () => {
    const departments = await expectSameAnswer(
      "{ departments(first: 50) { nodes { id legacy { manager { id } } } } }",
      "{ departments(first: 50) { nodes { id legacy { head { id } } } } }",
      { head: "manager" },
    );
    expect(departments.departments.nodes.some((n: any) => n.legacy?.manager?.id)).toBe(true);
    const establishments = await expectSameAnswer(
      "{ legacyEstablishments(first: 100) { nodes { id address { postalCode locality } } } }",
      "{ legacyEstablishments(first: 100) { nodes { id address { zipCode city } } } }",
      { zipCode: "postalCode", city: "locality" },
    );
    expect(establishments.legacyEstablishments.nodes.some((n: any) => n.address?.postalCode && n.address?.locality)).toBe(true);
  });

  it("AxisSection.active answers isActive", async () => {
    const data = await expectSameAnswer("{ axisSections(first: 100) { nodes { id isActive } } }", "{ axisSections(first: 100) { nodes { id active } } }", { active: "isActive" });
    const values = new Set(data.axisSections.nodes.map((n: { isActive: boolean }) => n.isActive));
    expect(values).toEqual(new Set([true, false]));
  });

  it("AxisSectionInput.active writes as isActive; both given is refused as data, with no upstream call", async () => {
    const section = (await run("{ axisSections(first: 5) { nodes { id isActive } } }")).response.data.axisSections.nodes[0];
    const update = (input: string) =>
      run(`mutation($id: ID!) { updateAxisSection(id: $id, input: ${input}) { __typename ... on AxisSection { isActive active } ... on InvalidInputError { message fields } } }`, { id: section.id });
    const written = await update(`{ active: ${!section.isActive} }`);
    expect(written.response.errors).toBeUndefined();
    expect(written.response.data.updateAxisSection).toEqual({ __typename: "AxisSection", isActive: !section.isActive, active: !section.isActive });
    const withNew = await update(`{ isActive: ${section.isActive} }`);
    expect(withNew.response.data.updateAxisSection).toEqual({ __typename: "AxisSection", isActive: section.isActive, active: section.isActive });
    expect(written.calls).toBe(withNew.calls);
    const both = await update(`{ active: true, isActive: true }`);
    expect(both.response.data.updateAxisSection).toEqual({
      __typename: "InvalidInputError",
      message: "active is the deprecated name of isActive: give only isActive.",
      fields: ["active", "isActive"],
    });
    expect(both.calls).toBe(0);
  });
});

describe("LegacyUser's names as Employee's, and lastUpdatedSince (issue 35's leftovers): each former name answers, filters and writes as the new one", () => {
  it("LegacyUser.firstName, lastName and mail answer givenName, familyName and email", async () => {
    const data = await expectSameAnswer(
      "{ legacyUsers(first: 50) { nodes { id givenName familyName email } } }",
      "{ legacyUsers(first: 50) { nodes { id firstName lastName mail } } }",
      { firstName: "givenName", lastName: "familyName", mail: "email" },
    );
    expect(data.legacyUsers.nodes.some((n: any) => n.givenName && n.familyName && n.email)).toBe(true);
  });

  it("LegacyUserFilter.mail, mailContains and modifiedSince filter as email, emailContains and lastUpdatedSince; an old and a new name together is a 400 with no upstream call", async () => {
    const users = (await run("{ legacyUsers(first: 50) { nodes { id email lastUpdatedAt } } }")).response.data.legacyUsers.nodes;
    const someone = users.find((u: any) => u.email && u.lastUpdatedAt)!;
    const list = (filter: string) => `{ legacyUsers(first: 50, filter: ${filter}) { nodes { id } } }`;
    const exact = await expectSameAnswer(list(`{ email: "${someone.email}" }`), list(`{ mail: "${someone.email}" }`), {});
    expect(exact.legacyUsers.nodes.map((n: any) => n.id)).toContain(someone.id);
    const part = someone.email.slice(1, 6);
    const partial = await expectSameAnswer(list(`{ emailContains: "${part}" }`), list(`{ mailContains: "${part}" }`), {});
    expect(partial.legacyUsers.nodes.length).toBeGreaterThan(0);
    const since = await expectSameAnswer(list(`{ lastUpdatedSince: "${someone.lastUpdatedAt}" }`), list(`{ modifiedSince: "${someone.lastUpdatedAt}" }`), {});
    expect(since.legacyUsers.nodes.length).toBeLessThan(users.length + 1);
    for (const [filter, message] of [
      [`{ mail: "a@b.c", email: "a@b.c" }`, "filter.mail is the deprecated name of filter.email: give only filter.email"],
      [`{ modifiedSince: "2026-01-01T00:00:00", lastUpdatedSince: "2026-01-01T00:00:00" }`, "filter.modifiedSince is the deprecated name of filter.lastUpdatedSince: give only filter.lastUpdatedSince"],
    ] as const) {
      const both = await run(list(filter));
      expect(both.response.errors?.[0]).toMatchObject({ message, extensions: { code: "BAD_USER_INPUT" } });
      expect(both.calls).toBe(0);
    }
  });

  it("TimeEntryFilter.modifiedSince and Employee.timeEntries(modifiedSince) filter as lastUpdatedSince", async () => {
    const since = "2020-01-01T00:00:00";
    await expectSameAnswer(
      `{ timeEntries(filter: { ownerIds: ["10", "11"], lastUpdatedSince: "${since}" }, first: 100) { nodes { id } } }`,
      `{ timeEntries(filter: { ownerIds: ["10", "11"], modifiedSince: "${since}" }, first: 100) { nodes { id } } }`,
      {},
    );
    const data = await expectSameAnswer(
      `{ employee(id: "10") { timeEntries(from: "2020-01-01", to: "2030-12-31", lastUpdatedSince: "${since}") { id } } }`,
      `{ employee(id: "10") { timeEntries(from: "2020-01-01", to: "2030-12-31", modifiedSince: "${since}") { id } } }`,
      {},
    );
    expect(data.employee.timeEntries.length).toBeGreaterThan(0);
    const both = await run(`{ employee(id: "10") { timeEntries(from: "2020-01-01", to: "2030-12-31", modifiedSince: "${since}", lastUpdatedSince: "${since}") { id } } }`);
    expect(both.response.errors?.[0]).toMatchObject({
      message: "modifiedSince and lastUpdatedSince cannot be given together: modifiedSince is the deprecated name of lastUpdatedSince: give only lastUpdatedSince",
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(both.calls).toBe(0);
    // in a filter too, under an employee as at the root
    const nested = await run(`{ employee(id: "10") { timeEntryConnection(first: 5, filter: { modifiedSince: "${since}", lastUpdatedSince: "${since}" }) { nodes { id } } } }`);
    expect(nested.response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(nested.calls).toBe(0);
  });

  it("LegacyUserInput.firstName, lastName and mail write as givenName, familyName and email; an old and a new name together is refused as data, with no upstream call", async () => {
    const user = (await run(`{ employee(id: "12") { legacyUser { givenName familyName email } } }`)).response.data.employee.legacyUser;
    const update = (input: string) =>
      run(`mutation { updateLegacyUser(id: "12", input: ${input}) { __typename ... on Employee { legacyUser { givenName firstName familyName email mail } } ... on InvalidInputError { message fields } } }`);
    const written = await update(`{ firstName: "Renamed", lastName: "${user.familyName}", mail: "renamed@example.com" }`);
    expect(written.response.errors).toBeUndefined();
    expect(written.response.data.updateLegacyUser).toEqual({
      __typename: "Employee",
      legacyUser: { givenName: "Renamed", firstName: "Renamed", familyName: user.familyName, email: "renamed@example.com", mail: "renamed@example.com" },
    });
    const withNew = await update(`{ givenName: "${user.givenName}", familyName: "${user.familyName}", email: "${user.email}" }`);
    expect(withNew.response.data.updateLegacyUser.legacyUser).toMatchObject({ givenName: user.givenName, email: user.email });
    expect(written.calls).toBe(withNew.calls);
    const both = await update(`{ mail: "a@example.com", email: "a@example.com" }`);
    expect(both.response.data.updateLegacyUser).toEqual({ __typename: "InvalidInputError", message: "mail is the deprecated name of email: give only email.", fields: ["mail", "email"] });
    expect(both.calls).toBe(0);
  });
});

describe("the operations of operations/ as they were before 0.1.0", () => {
  // the fixtures hold the ones that changed since (git show eef09da^:operations/); the others are as they were
  const changed = loadOperations(new URL("./fixtures/operations-before-0.1.0/", import.meta.url));
  const before = loadOperations().map((now) => changed.find((o) => o.name === now.name) ?? now);

  it("validate against the composed supergraph", async () => {
    const schema = apiSchema(await readFile(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8"));
    expect(changed.map((o) => o.name).sort()).toEqual(["EmployeeProfile", "UpdateTimeEntry"]);
    for (const operation of before) expect(validate(schema, parse(operation.source)).map((e) => e.message), operation.name).toEqual([]);
  });

  it("run through the gateway without errors; EmployeeProfile answers under the old names what it answers now", async () => {
    for (const operation of before) {
      const { response } = await run(operation.source, variablesOf(demo, operation));
      expect(response.errors, `${operation.name}: ${JSON.stringify(response.errors)}`).toBeUndefined();
    }
    const profile = (ops: ReturnType<typeof loadOperations>) => ops.find((o) => o.name === "EmployeeProfile")!;
    await expectSameAnswer(profile(loadOperations()).source, profile(before).source, { startDate: "startsOn", endDate: "endsOn" }, variablesOf(demo, profile(before)));
  });
});
