import { describe, expect } from "vitest";
import type { GatewayStack } from "../helpers/gateway-stack.js";
import { corpus, gateway, post, send, type SentRequest } from "./harness.js";

/**
 * Arguments and cursors: every refusal is BAD_USER_INPUT with its real message and costs no
 * upstream call, wherever the argument sits in the operation; cursors are signed and bound to
 * their list, filter and sort.
 */

/** `{"o":1000000000}`: an offset cursor as a client could make one up */
const FORGED = "eyJvIjoxMDAwMDAwMDAwfQ";

/** the endCursor of `source`'s first page (its calls are not counted: stats are reset after it) */
async function cursorOf(s: GatewayStack, source: string): Promise<string> {
  const res = await s.query(source);
  const connection = Object.values(res.data as Record<string, { pageInfo: { endCursor: string } }>)[0]!;
  s.resetStats();
  return connection.pageInfo.endCursor;
}

/** sends `query` with `$a` set to a cursor taken from `source` */
function withCursorOf(source: string, query: string, alter: (c: string) => string = (c) => c) {
  return async (s: GatewayStack): Promise<SentRequest> => post(s.gateway.url, { query, variables: { a: alter(await cursorOf(s, source)) } });
}

const message = (pattern: RegExp) => (answer: SentRequest) => expect(answer.body.errors[0].message).toMatch(pattern);

describe("hostile corpus: arguments and cursors", () => {
  corpus("arguments-and-cursors", [
    {
      name: "a forged offset cursor on employeeAttributes",
      send: gateway(`{ employeeAttributes(after: "${FORGED}") { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/after is not a cursor/),
    },
    {
      name: "the forged cursor under five aliases",
      send: gateway(`{ ${[1, 2, 3, 4, 5].map((i) => `a${i}: employeeAttributes(after: "${FORGED}") { nodes { id } }`).join(" ")} }`),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "a cursor whose signature was altered",
      send: withCursorOf(`{ employees(first: 2) { pageInfo { endCursor } } }`, `query($a: String) { employees(first: 2, after: $a) { nodes { id } } }`, (c) =>
        c.slice(0, -2) + (c.endsWith("AA") ? "BB" : "AA"),
      ),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "a cursor whose payload was altered (signature kept)",
      send: withCursorOf(`{ employees(first: 2) { pageInfo { endCursor } } }`, `query($a: String) { employees(first: 2, after: $a) { nodes { id } } }`, (c) => {
        const [payload, signature] = c.split(".");
        const value = JSON.parse(Buffer.from(payload!, "base64url").toString());
        return `${Buffer.from(JSON.stringify({ ...value, s: 99 })).toString("base64url")}.${signature}`;
      }),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "a cursor of employees on employments",
      send: withCursorOf(`{ employees(first: 2) { pageInfo { endCursor } } }`, `query($a: String) { employments(first: 2, after: $a) { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/another list, filter or sort/),
    },
    {
      name: "a cursor of another filter",
      send: withCursorOf(
        `{ employees(first: 2, filter: { departmentIds: ["5"] }) { pageInfo { endCursor } } }`,
        `query($a: String) { employees(first: 2, after: $a) { nodes { id } } }`,
      ),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/another list, filter or sort/),
    },
    {
      name: "a cursor of another sort",
      send: withCursorOf(
        `{ employees(first: 2, sort: [FAMILY_NAME_ASC]) { pageInfo { endCursor } } }`,
        `query($a: String) { employees(first: 2, sort: [ID_DESC], after: $a) { nodes { id } } }`,
      ),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "a made-up cursor on a nested connection is refused before its parent is read",
      send: gateway(`{ employee(id: "1") { directReports(after: "${FORGED}") { nodes { id } } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "a genuine cursor still pages",
      send: withCursorOf(`{ employees(first: 2) { pageInfo { endCursor } } }`, `query($a: String) { employees(first: 2, after: $a) { nodes { id } } }`),
      status: 200,
      maxUpstreamCalls: 2,
      check: (a) => expect(a.body.data.employees.nodes).toHaveLength(2),
    },
    // one kind of bad argument answers one way, whichever check finds it (docs/graph.md#argument-refusals)
    {
      name: "garbage as after, refused by its shape at the gateway",
      send: gateway(`{ employees(after: "garbage") { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: (a) => {
        expect(a.body).not.toHaveProperty("data");
        message(/after is not a cursor/)(a);
      },
    },
    {
      name: "the same cursor refused by the subgraph, sent as a GET, answers the same 400",
      send: async (s) => {
        const c = await cursorOf(s, `{ employees(first: 2) { pageInfo { endCursor } } }`);
        const forged = c.slice(0, -2) + (c.endsWith("AA") ? "BB" : "AA");
        const query = `query($a: String) { employees(first: 2, after: $a) { nodes { id } } }`;
        const url = new URL(s.gateway.url);
        url.searchParams.set("query", query);
        url.searchParams.set("variables", JSON.stringify({ a: forged }));
        const viaGet = await send(url.href, { method: "GET", headers: { "apollo-require-preflight": "true" } });
        expect(viaGet.status).toBe(400);
        expect(viaGet.body).not.toHaveProperty("data");
        expect(viaGet.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
        return viaGet;
      },
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "first: 500, refused at the gateway",
      send: gateway(`{ employees(first: 500) { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: (a) => expect(a.body).not.toHaveProperty("data"),
    },
    {
      name: "a well-shaped cursor with a forged signature beside a valid root field: refused whole, as the gateway refuses",
      send: withCursorOf(`{ employees(first: 2) { pageInfo { endCursor } } }`, `query($a: String) { me: employee(id: "1") { id } employees(first: 2, after: $a) { nodes { id } } }`, (c) =>
        c.slice(0, -2) + (c.endsWith("AA") ? "BB" : "AA"),
      ),
      status: 400,
      code: "BAD_USER_INPUT",
      check: (a) => {
        expect(a.body).not.toHaveProperty("data");
        message(/after is not a cursor/)(a);
      },
    },
    { name: "first: 101 on a root list", send: gateway(`{ employees(first: 101) { nodes { id } } }`), status: 400, code: "BAD_USER_INPUT", check: message(/first must be between 0 and 100/) },
    { name: "first: -1 on a nested list", send: gateway(`{ employee(id: "1") { directReports(first: -1) { nodes { id } } } }`), status: 400, code: "BAD_USER_INPUT" },
    { name: "axisSections(first: 101)", send: gateway(`{ axisSections(first: 101) { nodes { id } } }`), status: 400, code: "BAD_USER_INPUT" },
    {
      name: "an impossible date in the operation",
      send: gateway(`{ employees(filter: { applicableEmploymentStartsOn: "2024-13-45" }) { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/must be a calendar date as YYYY-MM-DD, got "2024-13-45"/),
    },
    {
      name: "an impossible date in a variable of a nested legacy field",
      send: gateway(`query($f: Date!) { employee(id: "10") { timeEntries(from: $f, to: "2026-06-01") { id } } }`, { f: "2026-13-01" }),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "timeEntries with from after to, before the people fetch",
      send: gateway(`{ employee(id: "10") { timeEntries(from: "2026-06-14", to: "2026-06-08") { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/must be on or before/),
    },
    {
      name: "timeEntryConnection with a date-time carrying an offset, before the people fetch",
      send: gateway(`{ employee(id: "10") { timeEntryConnection(filter: { startsAt: { from: "2026-06-01T00:00:00+02:00" } }) { totalCount } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/without offset/),
    },
    {
      name: "101 definition ids on a nested field",
      send: gateway(`query($d: [ID!]) { employee(id: "10") { attributes(definitionIds: $d) { id } } }`, { d: Array.from({ length: 101 }, (_, i) => `d${i}`) }),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/at most 100 entries, got 101/),
    },
    {
      name: "a date range that ends before it starts",
      send: gateway(`{ employees(filter: { applicableEmploymentStartsOnBetween: { from: "2026-02-01", to: "2026-01-01" } }) { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    {
      name: "employees(first: 100) with deep references stays within the call budget",
      send: gateway(
        `{ employees(first: 100) { nodes { id manager { givenName manager { givenName } } applicableJobPosition { department { name parent { name } } businessEstablishment { name } }
           applicableEmployment { legalEntity { legalName } } attributes { id } legacyUser { displayName } applicableWorkContract { id } } } }`,
      ),
      status: 200,
      maxUpstreamCalls: 40,
      check: (a) => {
        expect(a.body.errors).toBeUndefined();
        expect(a.body.data.employees.nodes).toHaveLength(100);
      },
    },
  ]);
});
