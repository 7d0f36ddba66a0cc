import { describe, expect } from "vitest";
import type { GatewayStack } from "../helpers/gateway-stack.js";
import { corpus, post, type SentRequest } from "./harness.js";

/**
 * Requests sent straight to a subgraph, past the gateway: `_entities` floods and malformed
 * representations, operations that would spend more than the call budget, the deadline header,
 * and the subgraph secret. The stack runs with a subgraph secret and a call budget of 10.
 */

const SECRET = "corpus-subgraph-secret-0123456789";
const BUDGET = 10;
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee { id givenName } } }`;
const reps = (ids: unknown[]) => ids.map((id) => ({ __typename: "Employee", id }));

function people(body: unknown, headers: Record<string, string> = {}) {
  return (s: GatewayStack) => post(s.subgraphs.people!.url, body, { "x-subgraph-secret": SECRET, ...headers });
}

/** runs `send` with directory faults on, then clears them */
function withFaults(faults: Record<string, number>, send: (s: GatewayStack) => Promise<SentRequest>) {
  return async (s: GatewayStack) => {
    s.directory.faults.set(faults);
    try {
      return await send(s);
    } finally {
      s.directory.faults.clear();
    }
  };
}

const entityErrors = (answer: SentRequest) => answer.body.errors.map((e: { path: unknown[]; extensions: { code: string } }) => [e.path, e.extensions.code]);

describe("hostile corpus: direct subgraph requests", () => {
  corpus(
    "direct-subgraph",
    [
      { name: "no subgraph secret", send: (s) => post(s.subgraphs.people!.url, { query: "{ employee(id: \"1\") { id } }" }), status: 403, code: "FORBIDDEN" },
      { name: "a wrong subgraph secret", send: people({ query: "{ employee(id: \"1\") { id } }" }, { "x-subgraph-secret": "guess" }), status: 403, code: "FORBIDDEN" },
      {
        name: "10 000 representations",
        send: people({ query: ENTITIES, variables: { r: reps(Array.from({ length: 10_000 }, (_, i) => String(i + 1))) } }),
        status: 200,
        code: "BAD_USER_INPUT",
        check: (a) => expect(a.body.errors[0].message).toBe("_entities takes at most 1000 representations, got 10000"),
      },
      {
        name: "1 001 representations",
        send: people({ query: ENTITIES, variables: { r: reps(Array.from({ length: 1001 }, (_, i) => String(i + 1))) } }),
        status: 200,
        code: "BAD_USER_INPUT",
      },
      {
        name: "300 representations, as a gateway sends them, resolve",
        send: people({ query: ENTITIES, variables: { r: reps(Array.from({ length: 300 }, (_, i) => String(i + 1))) } }),
        status: 200,
        maxUpstreamCalls: 4,
        check: (a) => {
          expect(a.body.errors).toBeUndefined();
          expect(a.body.data._entities).toHaveLength(300);
          expect(a.body.data._entities[0]).toMatchObject({ id: "1" });
        },
      },
      {
        name: "one representation without id nulls only itself",
        send: people({ query: ENTITIES, variables: { r: [{ __typename: "Employee", id: "1" }, { __typename: "Employee" }, { __typename: "Employee", id: "2" }] } }),
        status: 200,
        code: "BAD_USER_INPUT",
        maxUpstreamCalls: 2,
        check: (a) => {
          expect(a.body.data._entities[0]).toMatchObject({ id: "1" });
          expect(a.body.data._entities[1]).toBeNull();
          expect(a.body.data._entities[2]).toMatchObject({ id: "2" });
          expect(entityErrors(a)).toEqual([[["_entities", 1], "BAD_USER_INPUT"]]);
        },
      },
      {
        name: "representations that are not objects, of unknown types, with numeric or traversing ids",
        send: people({ query: ENTITIES, variables: { r: ["x", { __typename: "Nope", id: "1" }, { __typename: "Employee", id: 5 }, { __typename: "Employee", id: "../x" }, { __typename: "Employee", id: "3" }] } }),
        status: 200,
        code: "BAD_USER_INPUT",
        maxUpstreamCalls: 2,
        check: (a) => {
          expect(a.body.data._entities.slice(0, 4)).toEqual([null, null, null, null]);
          expect(a.body.data._entities[4]).toMatchObject({ id: "3" });
          expect(entityErrors(a).map((e: [unknown[]]) => e[0])).toEqual([0, 1, 2, 3].map((i) => ["_entities", i]));
        },
      },
      {
        name: "every representation malformed: no upstream call",
        send: people({ query: ENTITIES, variables: { r: [{ __typename: "Employee", id: "" }, { __typename: "Employee", id: null }] } }),
        status: 200,
        code: "BAD_USER_INPUT",
      },
      {
        name: "an operation that needs more calls than the budget stops at it",
        // a non-null root field's error answers before its siblings settle: wait for their calls, so they are counted here
        send: async (s) => {
          const answer = await people({ query: `{ ${Array.from({ length: 14 }, (_, i) => `e${i}: employees(first: 1, filter: { ids: ["${i + 1}"] }) { nodes { id } }`).join(" ")} }` })(s);
          await new Promise((r) => setTimeout(r, 500));
          return answer;
        },
        status: 200,
        code: "UPSTREAM_BUDGET_EXCEEDED",
        maxUpstreamCalls: BUDGET,
        check: (a) => {
          expect(a.body.errors[0].extensions.limit).toBe(BUDGET);
          expect(a.body.errors[0].message).toContain(`more than ${BUDGET} calls`);
        },
      },
      {
        name: "a bad argument deep in an operation sent straight to the subgraph",
        send: people({ query: `{ employee(id: "1") { directReports(first: 2) { nodes { directReports(first: 2) { nodes { directReports(first: 101) { nodes { id } } } } } } } }` }),
        status: 200,
        code: "BAD_USER_INPUT",
      },
      {
        name: "the deadline header bounds a request against a hung upstream",
        send: withFaults({ hangRate: 1 }, people({ query: `{ employee(id: "1") { id givenName } }` }, { "x-deadline-ms": "400" })),
        status: 200,
        code: "DEADLINE_EXCEEDED",
        maxUpstreamCalls: 3,
        check: (a) => expect(a.body.data).toEqual({ employee: null }),
      },
      {
        name: "a deadline header that is not a number is ignored",
        send: people({ query: `{ employee(id: "1") { id givenName } }` }, { "x-deadline-ms": "soon" }),
        status: 200,
        maxUpstreamCalls: 2,
        check: (a) => expect(a.body.data.employee.id).toBe("1"),
      },
      {
        name: "a time-entry range refused through _entities on legacy-time",
        send: (s) =>
          post(
            s.subgraphs["legacy-time"]!.url,
            { query: `query($r: [_Any!]!) { _entities(representations: $r) { ... on Employee { timeEntries(from: "2026-06-14", to: "2026-06-01") { id } } } }`, variables: { r: reps(["10"]) } },
            { "x-subgraph-secret": SECRET },
          ),
        status: 200,
        code: "BAD_USER_INPUT",
      },
    ],
    { secret: SECRET, env: { DIRECTORY_CALL_BUDGET: String(BUDGET) } },
  );
});
