import { describe, expect } from "vitest";
import { DEFAULT_OPERATION_LIMITS as LIMITS, type LimitName } from "../../platform/limits.js";
import { corpus, gateway, post, repeat, type HostileCase, type SentRequest } from "./harness.js";

/**
 * Shapes and sizes of operations: each limit refuses its hostile case before validation, planning
 * and any upstream call, with OPERATION_LIMIT_EXCEEDED naming the limit and its maximum; the
 * legitimate but expensive shapes next to them still answer, with bounded upstream calls.
 */

function refused(limit: LimitName) {
  return (answer: SentRequest) => {
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit, value: LIMITS[limit] });
    expect(answer.body.data).toBeUndefined();
  };
}

function limitCase(name: string, limit: LimitName, query: string, variables?: Record<string, unknown>): HostileCase {
  return { name, send: gateway(query, variables), status: 400, code: "OPERATION_LIMIT_EXCEEDED", check: refused(limit) };
}

/** `manager { manager { … id } }` n levels deep under `employee(id: "10")` */
function managerChain(n: number): string {
  return `{ employee(id: "10") { ${"manager { ".repeat(n)}id${" }".repeat(n)} } }`;
}

/** n concurrent POSTs of the same operation; the answer of the first, after all have answered */
function burst(n: number, query: string): (s: Parameters<HostileCase["send"]>[0]) => Promise<SentRequest> {
  return async (s) => {
    const answers = await Promise.all(Array.from({ length: n }, () => post(s.gateway.url, { query })));
    for (const a of answers) expect(a.status).toBe(answers[0]!.status);
    return answers[0]!;
  };
}

const employeeFields = "id givenName familyName";

describe("hostile corpus: query shape and cost", () => {
  corpus("query-shape-and-cost", [
    // aliases and root fields: each root field is at least one subgraph fetch
    limitCase("500 aliases of employees(first: 100) stop at the token count", "tokens", `{ ${repeat(500, (i) => `a${i}: employees(first: 100) { nodes { id } }`)} }`),
    limitCase("5 000 aliases (213 KB) stop at the size", "bytes", `{ ${repeat(5000, (i) => `a${i}: employees(first: 100) { nodes { id } }`)} }`),
    limitCase("31 aliased root reads", "aliases", `{ ${repeat(31, (i) => `a${i}: employee(id: "${i + 1}") { id }`)} }`),
    limitCase("31 aliases deep inside one employee", "aliases", `{ employee(id: "1") { ${repeat(31, (i) => `a${i}: id`)} } }`),
    limitCase("16 root fields without aliases, one per entity", "rootFields", `{ ${[
      "employee", "employment", "jobPosition", "employeeAttribute", "employeePersonalRecord", "probationaryPeriod", "legalEntity", "businessEstablishment",
      "department", "employmentTemplate", "occupationCategory", "jobQualification", "taxonomy", "taxonomyLabel", "workContract", "timeEntry",
    ].map((f) => `${f}(id: "1") { id }`).join(" ")} }`),
    { name: "15 aliased root reads, the limit, answer", send: gateway(`{ ${repeat(15, (i) => `e${i}: employee(id: "${i + 1}") { id }`)} }`), status: 200, maxUpstreamCalls: 17 },
    limitCase("6 mutation fields in one operation", "mutationFields", `mutation { ${repeat(6, (i) => `u${i}: updateTimeEntry(id: "100095", input: { duration: "0${i}:30:00" }) { __typename }`)} }`),

    // depth
    limitCase("a manager chain 1 300 deep (13 KB) stops at the token count", "tokens", managerChain(1300)),
    limitCase("a manager chain 20 deep", "depth", managerChain(20)),
    { name: "a manager chain 8 deep answers", send: gateway(managerChain(8)), status: 200, maxUpstreamCalls: 12 },
    {
      name: "introspection nested 20 deep reads no data: outside depth, within tokens",
      send: gateway(`{ __type(name: "Employee") { fields { type ${"{ ofType ".repeat(18)}{ name }${" }".repeat(18)} } } }`),
      status: 200,
    },
    limitCase("introspection nested 1 000 deep stops at the tokens", "tokens", `{ __type(name: "Employee") { fields { type ${"{ ofType ".repeat(1000)}{ name }${" }".repeat(1000)} } } }`),
    {
      name: "8 concurrent 1 300-deep chains leave /health answering",
      send: burst(8, managerChain(1300)),
      status: 400,
      code: "OPERATION_LIMIT_EXCEEDED",
    },
    {
      name: "8 concurrent chains 13 deep (depth 15, the limit) answer and leave /health answering",
      send: burst(8, managerChain(13)),
      status: 200,
      maxUpstreamCalls: 8 * 16,
    },

    // fields per selection, directly and through fragments
    limitCase("2 000 repeated fields (72 KB)", "bytes", `{ employee(id: "1") { ${repeat(2000, () => "givenName familyName id")} } }`),
    limitCase("10 000 fields (30 KB)", "tokens", `{ employee(id: "1") { ${repeat(10000, () => "id")} } }`),
    limitCase("101 repeated fields in one selection", "fieldsPerSelection", `{ employee(id: "1") { ${repeat(101, () => "id")} } }`),
    limitCase(
      "3 spreads of a 40-field fragment collect 120 fields",
      "fieldsPerSelection",
      `{ employee(id: "1") { ...A ...B ...C } } ${["A", "B", "C"].map((f) => `fragment ${f} on Employee { ${repeat(40, () => "id")} }`).join(" ")}`,
    ),
    limitCase(
      "inline fragments collect their fields into the selection",
      "fieldsPerSelection",
      `{ employee(id: "1") { ${repeat(11, () => `... on Employee { ${repeat(10, () => "id")} }`)} } }`,
    ),
    limitCase(
      "a fragment bomb: 30 fragments each spreading the previous twice",
      "fieldsPerSelection",
      `{ employee(id: "1") { ...F29 } } fragment F0 on Employee { id } ${Array.from({ length: 29 }, (_, i) => `fragment F${i + 1} on Employee { ...F${i} ...F${i} }`).join(" ")}`,
    ),
    {
      name: "a fragment cycle is a validation error",
      send: gateway(`{ employee(id: "1") { ...A } } fragment A on Employee { manager { ...B } } fragment B on Employee { manager { ...A } }`),
      status: 400,
      code: "GRAPHQL_VALIDATION_FAILED",
    },
    {
      name: "20 identical fields with sub-selections answer",
      send: gateway(`{ employee(id: "10") { ${repeat(20, () => "manager { id givenName }")} } }`),
      status: 200,
      maxUpstreamCalls: 3,
    },
    {
      name: "8 concurrent documents of 1 900 tokens of nested repeated fields (1.3 s of validation each)",
      send: burst(8, `{ employee(id: "10") { ${repeat(9, () => `manager { ${repeat(9, () => `manager { ${repeat(20, () => "id")} }`)} }`)} } }`),
      status: 400,
      code: "OPERATION_LIMIT_EXCEEDED",
      check: refused("fieldMerges"),
    },
    limitCase("90 identical fields with sub-selections", "fieldMerges", `{ employee(id: "10") { ${repeat(90, () => "manager { id givenName }")} } }`),
    limitCase("manager twice at each of 8 levels", "fieldMerges", `{ employee(id: "10") { ${[...Array(8)].reduce((inner: string) => `manager { ${inner} } manager { ${inner} }`, "id")} } }`),
    {
      name: "a field selected directly and through a fragment answers",
      send: gateway(`{ employee(id: "10") { ...Card manager { id familyName } } } fragment Card on Employee { id manager { givenName manager { id } } }`),
      status: 200,
      maxUpstreamCalls: 4,
    },

    // directives
    limitCase("51 directives", "directives", `{ employee(id: "1") { ${repeat(51, () => "id @include(if: true)")} } }`),
    limitCase("directives counted where a fragment is spread", "directives", `{ employee(id: "1") { ${repeat(6, () => "...D")} } } fragment D on Employee { ${repeat(9, () => "id @skip(if: false)")} }`),

    // cost: list sizes multiply
    limitCase(
      "employees(first: 100) → directReports → directReports → directReports",
      "cost",
      `{ employees(first: 100) { nodes { directReports { nodes { directReports { nodes { directReports { nodes { ${employeeFields} } } } } } } } } }`,
    ),
    limitCase(
      "the list size from a variable counts",
      "cost",
      `query Q($n: Int) { employees(first: $n) { nodes { directReports { nodes { directReports { nodes { directReports { nodes { ${employeeFields} } } } } } } } } }`,
      { n: 100 },
    ),
    {
      name: "the same with first: 2 answers",
      send: gateway(`query Q($n: Int) { employees(first: $n) { nodes { directReports { nodes { directReports { nodes { directReports { nodes { ${employeeFields} } } } } } } } } }`, { n: 2 }),
      status: 200,
      // the page, three levels of direct reports, their counts and the token
      maxUpstreamCalls: 10,
    },
    {
      name: "employees(first: 100) with their managers and departments answers",
      send: gateway(`{ employees(first: 100) { nodes { ${employeeFields} manager { ${employeeFields} } applicableJobPosition { department { name } } } } }`),
      status: 200,
      maxUpstreamCalls: 8,
    },
    limitCase("10 aliased pages of 100 with nested lists", "cost", `{ ${repeat(10, (i) => `p${i}: employees(first: 100) { nodes { directReports { nodes { ${employeeFields} } } employments { nodes { id } } } }`)} }`),

    // token floods
    limitCase("2 001 __typename fields are tokens past the limit", "tokens", `{ ${repeat(2001, () => "__typename")} }`),
    limitCase("a 100 KB comment", "bytes", `# ${"x".repeat(100_000)}\n{ __typename }`),
    limitCase("punctuation flood within the size limit", "tokens", `{ employee(id: "1") { id } } ${"{".repeat(5000)}`),
    limitCase("a 40 KB string argument", "bytes", `{ employee(id: "${"9".repeat(40_000)}") { id } }`),
  ]);
});
