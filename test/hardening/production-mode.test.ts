import { describe, expect } from "vitest";
import { corpus, gateway, post, send, type SentRequest } from "./harness.js";

/**
 * NODE_ENV=production: no introspection however it is asked, no "Did you mean" suggestions
 * (they reveal field, argument, type and enum names), masked errors without stack traces or
 * subgraph details, and the limits as everywhere.
 */

const noSuggestion = (answer: SentRequest) => {
  expect(JSON.stringify(answer.body)).not.toMatch(/Did you mean/);
  for (const e of answer.body.errors ?? []) {
    expect(e.extensions).not.toHaveProperty("stacktrace");
    expect(e.extensions).not.toHaveProperty("response");
    expect(e.extensions).not.toHaveProperty("serviceName");
  }
};

describe("hostile corpus: production mode", () => {
  corpus(
    "production-mode",
    [
      { name: "an ordinary operation answers", send: gateway(`{ employee(id: "10") { id givenName manager { id } } }`), status: 200, maxUpstreamCalls: 3 },
      { name: "__typename at the root answers without a subgraph", send: gateway(`{ __typename }`), status: 200 },
      { name: "__schema is refused", send: gateway(`{ __schema { types { name } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "__type is refused", send: gateway(`{ __type(name: "Employee") { fields { name } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "__schema under an alias is refused", send: gateway(`{ s: __schema { queryType { name } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED" },
      { name: "__schema inside a fragment is refused", send: gateway(`{ ...F } fragment F on Query { __schema { types { name } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED" },
      { name: "a misspelled root field gets no suggestion", send: gateway(`{ employe(id: "1") { id } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "a misspelled field gets no suggestion", send: gateway(`{ employee(id: "1") { givenNam } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "a misspelled argument gets no suggestion", send: gateway(`{ employee(ids: "1") { id } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "a misspelled enum literal gets no suggestion", send: gateway(`{ employees(sort: [FAMILY_NAME_AS]) { nodes { id } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "a misspelled enum value in a variable gets no suggestion", send: gateway(`query($s: [EmployeeSort!]) { employees(sort: $s) { nodes { id } } }`, { s: ["FAMILY_NAME_AS"] }), status: 400, code: "BAD_USER_INPUT", check: noSuggestion },
      { name: "a misspelled input field gets no suggestion", send: gateway(`{ employees(filter: { departmentId: ["1"] }) { nodes { id } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      { name: "a misspelled type in a variable definition gets no suggestion", send: gateway(`query($f: EmployeeFiltr) { employees(filter: $f) { nodes { id } } }`), status: 400, code: "GRAPHQL_VALIDATION_FAILED", check: noSuggestion },
      {
        name: "a date the subgraph refuses is BAD_USER_INPUT without the subgraph's URL, body or name",
        send: gateway(`query($from: Date!) { employee(id: "10") { id timeEntries(from: $from, to: "2026-06-14") { id } } }`, { from: "2026-02-30" }),
        status: 400,
        code: "BAD_USER_INPUT",
        maxUpstreamCalls: 2,
        check: noSuggestion,
      },
      { name: "an unknown operationName is a 400", send: (s) => post(s.gateway.url, { query: "query A { __typename }", operationName: "Nope" }), status: 400, code: "BAD_USER_INPUT" },
      { name: "a syntax error has no stack trace", send: gateway(`{ employee(id: "1") { id `), status: 400, code: "GRAPHQL_PARSE_FAILED", check: noSuggestion },
      { name: "the limits hold: depth", send: gateway(`{ employee(id: "1") { ${"manager { ".repeat(30)}id${" }".repeat(30)} } }`), status: 400, code: "OPERATION_LIMIT_EXCEEDED" },
      { name: "the limits hold: aliases", send: gateway(`{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(" ")} }`), status: 400, code: "OPERATION_LIMIT_EXCEEDED" },
      {
        name: "no Sandbox landing page",
        send: (s) => send(s.gateway.url, { headers: { accept: "text/html" } }),
        status: 400,
        check: (a) => expect(String(typeof a.body === "string" ? a.body : JSON.stringify(a.body))).not.toMatch(/<html|sandbox/i),
      },
      { name: "a body over 1 MB is refused", send: (s) => post(s.gateway.url, JSON.stringify({ query: `# ${"x".repeat(1 << 20)}\n{ __typename }` })), status: 413 },
    ],
    { gatewayEnv: { NODE_ENV: "production" } },
  );
});
