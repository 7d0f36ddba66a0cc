import { describe } from "vitest";
import { corpus, gateway, post, send } from "./harness.js";

describe("hostile corpus: transport", () => {
  corpus("transport", [
    { name: "a plain operation still works", send: gateway(`{ employee(id: "1") { id } }`), status: 200, maxUpstreamCalls: 2 },
    { name: "a syntax error", send: gateway(`{ employee(id: "1") { id }`), status: 400, code: "GRAPHQL_PARSE_FAILED" },
    { name: "not JSON", send: (s) => post(s.gateway.url, "{not json", {}), status: 400 },
    { name: "GET with a mutation", send: (s) => send(`${s.gateway.url}?query=${encodeURIComponent("mutation { __typename }")}`, { headers: { "apollo-require-preflight": "1" } }), status: 405 },
  ]);
});
