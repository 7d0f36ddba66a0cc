import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query, startRecordingStack, type RecordingStack } from "./helpers.js";

/**
 * The REST requests the people subgraph sends, read through a recording proxy in front of the
 * directory: `totalCount` only when selected, `embedded` only for attribute definitions, and the
 * REST filter names of the interface.
 */

let stack: RecordingStack;

beforeAll(async () => {
  stack = await startRecordingStack();
  await query(stack, `{ employee(id: "1") { id } }`);
});
afterAll(() => stack?.close());

/** The current-API GETs made by one operation, as decoded `path?query` strings. */
async function requests(source: string, variables?: Record<string, unknown>): Promise<{ data: any; urls: string[] }> {
  stack.clearUrls();
  const data = await query(stack, source, variables);
  return { data, urls: stack.urls().filter((u) => u.startsWith("GET /service-api/")).map((u) => u.slice(4)) };
}

const params = (url: string) => new URL(url, "http://x").searchParams;
/** what a list read includes beside `links`, which every list read asks (it may follow `next`) */
const included = (url: string) => (params(url).get("include") ?? "").split(",").filter((v) => v !== "" && v !== "links").join(",");

describe("totalCount", () => {
  it("is asked of the upstream, and answered, when the operation selects it", async () => {
    const { data, urls } = await requests(`{ employees(first: 1, filter: { ids: ["3", "4", "5"] }) { totalCount nodes { id } } }`);
    expect(data.employees.totalCount).toBe(3);
    expect(urls).toHaveLength(1);
    expect(included(urls[0]!)).toBe("totalCount");
  });

  it("is not asked when the operation does not select it", async () => {
    const { urls } = await requests(`{ employees(first: 1, filter: { ids: ["3", "4", "5"] }) { nodes { id } } }`);
    expect(urls).toHaveLength(1);
    expect(included(urls[0]!)).toBe("");
  });

  it("is asked through a fragment too", async () => {
    const { data, urls } = await requests(`{ employments(first: 2) { ...counted } } fragment counted on EmploymentConnection { totalCount }`);
    expect(data.employments.totalCount).toBe(stack.directory.company.employments.length);
    expect(included(urls[0]!)).toBe("totalCount");
  });

  it("on a one-parent edge follows the selection as well", async () => {
    const counted = await requests(`{ employee(id: "14") { directReports(first: 1) { totalCount } } }`);
    const plain = await requests(`{ employee(id: "14") { directReports(first: 1) { nodes { id } } } }`);
    const reportsCall = (urls: string[]) => urls.find((u) => params(u).has("applicableJobPosition.manager.id"))!;
    expect(counted.data.employee.directReports.totalCount).toBeGreaterThan(1);
    expect(included(reportsCall(counted.urls))).toBe("totalCount");
    expect(included(reportsCall(plain.urls))).toBe("");
  });
});

describe("include=embedded", () => {
  it("is asked on the attribute list when definition details are read", async () => {
    const { urls } = await requests(`{ employee(id: "2") { attributes { definition { name } } } }`);
    const call = urls.find((u) => u.startsWith("/service-api/employee-attributes"))!;
    expect(included(call)).toBe("embedded");
    expect(params(call).get("employee.id")).toBe("2");
  });

  it("is not asked when only the definition's id is read", async () => {
    const { urls } = await requests(`{ employee(id: "2") { attributes { definition { id } } } }`);
    expect(included(urls.find((u) => u.startsWith("/service-api/employee-attributes"))!)).toBe("");
  });

  it("is asked of no other list, nor of the employee list when no embedded resource is read beyond its id", async () => {
    const { urls } = await requests(`{ employees(first: 30) { totalCount nodes { id manager { id } applicableEmployment { id } applicableJobPosition { id }
      employments { nodes { jobPositions { nodes { id } } } } jobPositions { nodes { id } } personalRecord { id } probationaryPeriods { id } directReports { totalCount } } } }`);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(params(url).get("include") ?? "").not.toContain("embedded");
  });
});

describe("REST parameters", () => {
  it("an employee's job positions are one list by employment.employee.id", async () => {
    const { urls } = await requests(`{ employee(id: "14") { jobPositions { nodes { id } } } }`);
    const calls = urls.filter((u) => u.startsWith("/service-api/job-positions"));
    expect(calls).toHaveLength(1);
    expect(params(calls[0]!).get("employment.employee.id")).toBe("14");
  });

  it("date ranges are sent as <from>--<to> with .. for an open bound", async () => {
    const { urls } = await requests(`{ a: employees(filter: { applicableEmploymentStartsOnBetween: { from: "2020-01-01" } }) { nodes { id } }
      b: probationaryPeriods(filter: { endsOnBetween: { to: "2021-01-31" } }) { nodes { id } } }`);
    const employees = urls.find((u) => u.startsWith("/service-api/employees"))!;
    const periods = urls.find((u) => u.startsWith("/service-api/probationary-periods"))!;
    expect(params(employees).get("applicableEmployment.startsOn.between")).toBe("2020-01-01--..");
    expect(params(periods).get("endsOn.between")).toBe("..--2021-01-31");
  });

  it("list filters and sorts are comma-joined REST values", async () => {
    const { urls } = await requests(`{ employees(filter: { status: [ACTIVE, UPCOMING], emails: [null, "x@y.example"] }, sort: [FAMILY_NAME_DESC, ID_ASC]) { nodes { id } } }`);
    const p = params(urls[0]!);
    expect(p.get("status")).toBe("active,upcoming");
    expect(p.get("email")).toBe("null,x@y.example");
    expect(p.get("sort")).toBe("-familyName,id");
  });

  it("attribute value filters are sent as JSON", async () => {
    const { urls } = await requests(`{ employeeAttributes(filter: { value: "M", valueNot: 3, valueProperties: [{ property: "mode", equals: "remote", notEquals: null }] }) { nodes { id } } }`);
    const p = params(urls[0]!);
    expect(p.get("value")).toBe('"M"');
    expect(p.get("-value")).toBe("3");
    expect(p.get("value.mode")).toBe('"remote"');
    expect(p.get("-value.mode")).toBe("null");
  });
});
