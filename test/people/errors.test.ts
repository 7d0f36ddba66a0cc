import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { cursorScope, encodeCursor } from "../../subgraphs/shared/graphql/index.js";
import { apiCalls, query, send } from "./helpers.js";

/** Errors: upstream failures become the codes of docs/graph.md#error-codes; bad arguments are refused before any call. */

// a Retry-After is not waited for, and a hanging call gives up quickly
const stack = useStack({
  subgraphs: ["people"],
  env: { DIRECTORY_RETRIES: "1", DIRECTORY_TIMEOUT_MS: "300", DIRECTORY_MAX_RETRY_AFTER_S: "0" },
});

beforeAll(async () => {
  await query(stack, `{ employee(id: "1") { id } }`);
});

async function setFaults(faults: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${stack.directory.url}/_admin/faults`, {
    method: faults ? "PUT" : "DELETE",
    headers: { "content-type": "application/json" },
    ...(faults ? { body: JSON.stringify(faults) } : {}),
  });
  expect(res.ok).toBe(true);
}

describe("upstream failures", () => {
  afterEach(() => setFaults(null));

  it("an upstream 503 makes the field null with UPSTREAM_UNAVAILABLE naming the failed call", async () => {
    await setFaults({ errorRate: 1, errorStatus: 503 });
    const response = await send(stack, `{ employee(id: "2") { id givenName } }`);
    expect(response.data).toEqual({ employee: null });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.path).toEqual(["employee"]);
    expect(response.errors![0]!.extensions).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      upstream: { method: "GET", path: "/employees", status: 503 },
    });
  });

  it("an upstream that does not answer in time makes the field null with UPSTREAM_UNAVAILABLE", async () => {
    await setFaults({ hangRate: 1 });
    const response = await send(stack, `{ employee(id: "3") { id } }`);
    expect(response.data).toEqual({ employee: null });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.extensions).toMatchObject({ code: "UPSTREAM_UNAVAILABLE", upstream: { method: "GET", path: "/employees" } });
  });

  it("an upstream 429 is RATE_LIMITED with retryAfter, on the field whose call it refused", async () => {
    // one call per second: the employee is read, its personal record is refused
    await setFaults({ rateLimitRequests: 1, rateLimitWindowSeconds: 1 });
    const response = await send(stack, `{ employee(id: "6") { id personalRecord { id } } }`);
    expect(response.data).toEqual({ employee: { id: "6", personalRecord: null } });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.path).toEqual(["employee", "personalRecord"]);
    expect(response.errors![0]!.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: 1,
      upstream: { path: "/employee-personal-records", status: 429 },
    });
  });

  it("a cursor whose REST page the upstream rejects is BAD_USER_INPUT naming the call", async () => {
    // well-formed for the facade, but the REST page cursor inside it was never issued by the directory
    const forged = encodeCursor({ p: "forged-page", s: 0 }, { signer: stack.upstream.cursors, scope: cursorScope("/employments", {}) });
    const response = await send(stack, `query($after: String) { employments(first: 2, after: $after) { nodes { id } } }`, { after: forged });
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      upstream: { method: "GET", path: "/employments", status: 400 },
    });
  });

  it("once the upstream is back, the same read answers", async () => {
    await setFaults({ errorRate: 1, errorStatus: 503 });
    expect((await send(stack, `{ employee(id: "4") { id } }`)).errors?.[0]?.extensions?.code).toBe("UPSTREAM_UNAVAILABLE");
    await setFaults(null);
    expect(await query(stack, `{ employee(id: "4") { id } }`)).toEqual({ employee: { id: "4" } });
  });
});

describe("bad arguments are refused before any upstream call", () => {
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["more than 100 ids", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) } }],
    ["an empty id list", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { ids: [] } }],
    ["an empty id", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { departmentIds: [""] } }],
    ["a range that ends before it starts", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { applicableEmploymentStartsOnBetween: { from: "2024-02-01", to: "2024-01-01" } } }],
    ["a search without a word", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { search: " - . " } }],
    ["an email shorter than 3 characters", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { emails: ["a@"] } }],
    ["a null where the filter has no null literal", `query($f: EmploymentFilter) { employments(filter: $f) { nodes { id } } }`, { f: { remoteIds: [null] } }],
    ["a value with a comma", `query($f: JobPositionFilter) { jobPositions(filter: $f) { nodes { id } } }`, { f: { departmentIds: ["1,2"] } }],
    ["a country code that is not alpha-3", `query($f: EmployeePersonalRecordFilter) { employeePersonalRecords(filter: $f) { nodes { id } } }`, { f: { nationalitiesCountryCodes: ["fr"] } }],
    ["a key sorted on twice", `{ employees(sort: [FAMILY_NAME_ASC, FAMILY_NAME_DESC]) { nodes { id } } }`, {}],
    ["a value property without a condition", `query($f: EmployeeAttributeFilter) { employeeAttributes(filter: $f) { nodes { id } } }`, { f: { valueProperties: [{ property: "size" }] } }],
    ["a value property with an empty path segment", `query($f: EmployeeAttributeFilter) { employeeAttributes(filter: $f) { nodes { id } } }`, { f: { valueProperties: [{ property: "a..b", equals: 1 }] } }],
    ["first: 101", `{ employees(first: 101) { nodes { id } } }`, {}],
    ["first: -1", `{ probationaryPeriods(first: -1) { nodes { id } } }`, {}],
    ["a cursor that is not one", `{ employments(after: "bm90IGEgY3Vyc29y") { nodes { id } } }`, {}],
    ["a date that is not one", `query($f: EmployeeFilter) { employees(filter: $f) { nodes { id } } }`, { f: { applicableEmploymentStartsOn: "2024-02-30" } }],
  ];

  it.each(cases)("%s is BAD_USER_INPUT", async (_name, source, variables) => {
    stack.resetStats();
    const response = await send(stack, source, variables);
    expect(response.errors?.[0]?.extensions?.code, JSON.stringify(response.errors)).toBe("BAD_USER_INPUT");
    expect(apiCalls(stack).total).toBe(0);
  });

  it("first: 101 on an edge is BAD_USER_INPUT before any upstream call, its parent's included", async () => {
    stack.resetStats();
    const response = await send(stack, `{ employee(id: "5") { id directReports(first: 101) { nodes { id } } } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.errors?.[0]?.message).toBe("directReports.first must be between 0 and 100, got 101");
    expect(stack.stats().total).toBe(0);
  });

  it("more than 100 definition ids on Employee.attributes is BAD_USER_INPUT", async () => {
    const response = await send(stack, `query($d: [ID!]) { employee(id: "5") { attributes(definitionIds: $d) { id } } }`, {
      d: Array.from({ length: 101 }, (_, i) => `def.${i}`),
    });
    expect(response.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(response.errors?.[0]?.message).toBe("attributes.definitionIds takes at most 100 entries, got 101");
  });
});

describe("forward mode", () => {
  const forward = useStack({ subgraphs: ["people"], env: { DIRECTORY_AUTH: "forward" } });

  it("a caller without a token gets UNAUTHENTICATED", async () => {
    const response = await forward.gql(forward.subgraphs.people!.url, `{ employee(id: "1") { id } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("a field the caller has no scope for is null with FORBIDDEN while the rest of the answer stands", async () => {
    const limited = `Bearer ${await forward.token("demo-limited")}`;
    const visible = await forward.gql(forward.subgraphs.people!.url, `{ employees(first: 1) { nodes { id } } }`, {}, { authorization: limited });
    const id = visible.data.employees.nodes[0].id;
    const response = await forward.gql(forward.subgraphs.people!.url, `query($id: ID!) { employee(id: $id) { id personalRecord { id } } }`, { id }, { authorization: limited });
    expect(response.data).toEqual({ employee: { id, personalRecord: null } });
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.path).toEqual(["employee", "personalRecord"]);
    expect(response.errors![0]!.extensions).toMatchObject({ code: "FORBIDDEN", upstream: { path: "/employee-personal-records", status: 403 } });
  });

  it("the caller's own visibility applies: a limited client sees fewer employees", async () => {
    const url = forward.subgraphs.people!.url;
    const source = `{ employees(first: 1) { totalCount } }`;
    const full = await forward.gql(url, source, {}, { authorization: `Bearer ${await forward.token("demo-client")}` });
    const limited = await forward.gql(url, source, {}, { authorization: `Bearer ${await forward.token("demo-limited")}` });
    expect(full.data.employees.totalCount).toBe(300);
    expect(limited.data.employees.totalCount).toBeGreaterThan(0);
    expect(limited.data.employees.totalCount).toBeLessThan(300);
  });
});
