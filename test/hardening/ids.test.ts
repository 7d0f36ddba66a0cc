import { describe, expect } from "vitest";
import { corpus, gateway, type SentRequest } from "./harness.js";

/**
 * Ids: the current API's ids are letters, digits, `.`, `_`, `:` and `-` (at most 128), the legacy
 * API's are integers; anything else is BAD_USER_INPUT naming the argument, before any upstream
 * call, in arguments, in lists, in variables and on nested fields alike.
 */

const message = (pattern: RegExp) => (answer: SentRequest) => expect(answer.body.errors[0].message).toMatch(pattern);
const employee = (id: string) => gateway(`query($id: ID!) { employee(id: $id) { id givenName } }`, { id });

describe("hostile corpus: ids", () => {
  corpus("ids", [
    { name: "an id with ..", send: gateway(`{ employee(id: "../employees") { id givenName } }`), status: 400, code: "BAD_USER_INPUT", check: message(/employee\.id: the id must be/) },
    { name: "a 10 000-character id", send: employee("9".repeat(10_000)), status: 400, code: "BAD_USER_INPUT", check: message(/at most 128 characters/) },
    { name: "an id with CRLF", send: employee("1\r\nx-injected: 1"), status: 400, code: "BAD_USER_INPUT" },
    { name: "an id with NUL", send: employee("1\u0000"), status: 400, code: "BAD_USER_INPUT" },
    { name: "an empty id", send: employee(""), status: 400, code: "BAD_USER_INPUT", check: message(/must not be empty/) },
    { name: "an id with a space", send: employee("1 2"), status: 400, code: "BAD_USER_INPUT" },
    { name: "a percent-encoded traversal", send: gateway(`{ department(id: "%2e%2e") { id name } }`), status: 400, code: "BAD_USER_INPUT" },
    { name: "an id with a slash on an organisation read", send: gateway(`{ legalEntity(id: "1/2") { id } }`), status: 400, code: "BAD_USER_INPUT" },
    {
      name: "one bad id in a filter list",
      send: gateway(`{ employees(filter: { ids: ["1", "2\\n"] }) { nodes { id } } }`),
      status: 400,
      code: "BAD_USER_INPUT",
      check: message(/employees\.filter\.ids/),
    },
    {
      name: "101 ids in a filter list",
      send: gateway(`query($ids: [ID!]) { employees(filter: { ids: $ids }) { nodes { id } } }`, { ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) }),
      status: 400,
      code: "BAD_USER_INPUT",
    },
    { name: "a bad id on a nested field", send: gateway(`{ employee(id: "10") { attributes(definitionIds: ["a/b"]) { id } } }`), status: 400, code: "BAD_USER_INPUT" },
    // refused by legacy-time (the gateway's id rule is the current API's), answered as the gateway answers its own refusals: 400, no data (docs/graph.md#argument-refusals)
    { name: "a legacy id that is not an integer", send: gateway(`{ timeEntry(id: "abc") { id } }`), status: 400, code: "BAD_USER_INPUT", check: message(/integer >= 1/) },
    { name: "a legacy id with a fraction", send: gateway(`{ workContract(id: "1.5") { id } }`), status: 400, code: "BAD_USER_INPUT" },
    { name: "a non-integer axis section id in a filter", send: gateway(`{ axisSections(filter: { ids: ["x"] }) { nodes { id } } }`), status: 400, code: "BAD_USER_INPUT" },
    {
      name: "a well-formed id that does not exist is null",
      send: employee("999999"),
      status: 200,
      maxUpstreamCalls: 2,
      check: (a) => {
        expect(a.body.errors).toBeUndefined();
        expect(a.body.data).toEqual({ employee: null });
      },
    },
    { name: "a dotted definition id is accepted", send: gateway(`{ employee(id: "10") { attributes(definitionIds: ["contract.size"]) { id } } }`), status: 200, maxUpstreamCalls: 3 },
  ]);
});
