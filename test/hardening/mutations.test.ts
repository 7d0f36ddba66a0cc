import { describe, expect } from "vitest";
import type { GatewayStack } from "../helpers/gateway-stack.js";
import { directoryToken } from "../helpers/stack.js";
import { corpus, gateway, post, repeat, type SentRequest } from "./harness.js";

/**
 * Hostile writes through the gateway: many writes in one operation, writes a forward-mode caller
 * may not make, and bad inputs to every write. Each refusal is decided before any upstream call.
 */

const ENTRY = "100095";
const entryWrite = (input: string, id = ENTRY) => `mutation { updateTimeEntry(id: "${id}", input: ${input}) { __typename ... on MutationError { message fields } } }`;
const refusedAsData = (typename: string, field: string) => (answer: SentRequest) => {
  const result = Object.values(answer.body.data)[0] as { __typename: string; fields: string[] };
  expect(answer.body.errors).toBeUndefined();
  expect(result.__typename).toBe(typename);
  expect(result.fields).toContain(field);
};

async function storedEntry(stack: GatewayStack): Promise<any> {
  const res = await fetch(`${stack.directory.url}/api/v3/timeentries/${ENTRY}`, { headers: { authorization: "service application=demo-api-key" } });
  return ((await res.json()) as { data: any }).data;
}

describe("hostile corpus: mutations (service mode)", () => {
  corpus("mutations", [
    {
      name: "one time-entry write",
      send: gateway(entryWrite(`{ comment: "corpus" }`)),
      status: 200,
      maxUpstreamCalls: 2,
      check: (a) => expect(a.body.data.updateTimeEntry.__typename).toBe("TimeEntry"),
    },
    {
      name: "two aliased writes to one entry both apply",
      send: gateway(`mutation { a: updateTimeEntry(id: "${ENTRY}", input: { duration: "03:15:00" }) { __typename }
        b: updateTimeEntry(id: "${ENTRY}", input: { comment: "after the duration" }) { __typename } }`),
      status: 200,
      // each write reads the entry again under its lease (docs/decisions.md#writes-are-serialised-per-record)
      maxUpstreamCalls: 4,
      check: async (_a, stack) => {
        const stored = await storedEntry(stack);
        expect(stored.duration).toBe("03:15:00");
        expect(stored.comment.content).toBe("after the duration");
      },
    },
    {
      // refused by the gateway's operation limits before planning (planning 100 mutation fields
      // would hold its event loop for about a second)
      name: "100 aliased time-entry writes",
      send: gateway(`mutation { ${repeat(100, (i) => `w${i}: updateTimeEntry(id: "${ENTRY}", input: { comment: "w${i}" }) { __typename }`)} }`),
      // GRAPHQL_MAX_MUTATION_FIELDS, checked by the gateway before it plans anything
      status: 400,
      code: "OPERATION_LIMIT_EXCEEDED",
    },
    {
      name: "20 aliased webhook test deliveries",
      send: gateway(`mutation { ${repeat(20, (i) => `d${i}: triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename }`)} }`),
      // GRAPHQL_MAX_MUTATION_FIELDS, checked by the gateway before it plans anything
      status: 400,
      code: "OPERATION_LIMIT_EXCEEDED",
    },
    {
      name: "11 writes hidden in a fragment",
      send: gateway(`mutation { ...W } fragment W on Mutation { ${repeat(11, (i) => `a${i}: updateAxisSection(id: "2", input: { description: "${i}" }) { __typename }`)} }`),
      // GRAPHQL_MAX_MUTATION_FIELDS, checked by the gateway before it plans anything
      status: 400,
      code: "OPERATION_LIMIT_EXCEEDED",
    },
    { name: "a time-entry id that is not a legacy id", send: gateway(entryWrite(`{ comment: "x" }`, "abc")), status: 200, check: refusedAsData("NotFoundError", "id") },
    { name: "a negative time-entry id", send: gateway(entryWrite(`{ comment: "x" }`, "-5")), status: 200, check: refusedAsData("NotFoundError", "id") },
    {
      name: "a duration that is not one",
      send: gateway(entryWrite(`{ duration: "three hours" }`)),
      status: 200,
      check: refusedAsData("InvalidInputError", "duration"),
    },
    {
      name: "an impossible startsAt date",
      send: gateway(`mutation($s: LocalDateTime) { updateTimeEntry(id: "${ENTRY}", input: { startsAt: $s }) { __typename ... on MutationError { fields } } }`, { s: "2026-02-30T08:00:00" }),
      status: 200,
      check: refusedAsData("InvalidInputError", "startsAt"),
    },
    {
      name: "a 5000-character comment",
      send: gateway(entryWrite(`{ comment: "${"x".repeat(5000)}" }`)),
      status: 200,
      check: refusedAsData("InvalidInputError", "comment"),
    },
    { name: "an input that changes nothing", send: gateway(entryWrite(`{}`)), status: 200, check: (a) => expect(a.body.data.updateTimeEntry.__typename).toBe("InvalidInputError") },
    {
      name: "an axis section with no names",
      send: gateway(`mutation { updateAxisSection(id: "2", input: { names: [] }) { __typename ... on MutationError { fields } } }`),
      status: 200,
      check: refusedAsData("InvalidInputError", "names"),
    },
    {
      name: "an axis-section id that is not one",
      send: gateway(`mutation { updateAxisSection(id: "1e3", input: { description: "x" }) { __typename ... on MutationError { fields } } }`),
      status: 200,
      check: refusedAsData("NotFoundError", "id"),
    },
    {
      name: "a legacy-user manager id that is not an id",
      send: gateway(`mutation { updateLegacyUser(id: "12", input: { managerId: "../1" }) { __typename ... on MutationError { fields } } }`),
      status: 200,
      check: refusedAsData("InvalidInputError", "managerId"),
    },
    {
      name: "a legacy user of an id that is not one",
      send: gateway(`mutation { updateLegacyUser(id: "12; DROP", input: { quote: "x" }) { __typename ... on MutationError { fields } } }`),
      status: 200,
      check: refusedAsData("NotFoundError", "id"),
    },
    {
      name: "an empty webhook endpoint id",
      send: gateway(`mutation { triggerWebhookTestDelivery(webhookEndpointId: "") { __typename ... on MutationError { fields } } }`),
      status: 200,
      check: refusedAsData("InvalidInputError", "webhookEndpointId"),
    },
  ]);
});

/** the caller's token, fetched by the first forward case (whose budget counts that call) */
let token = "";

describe("hostile corpus: mutations (forward mode, legacy writes not allowed)", () => {
  corpus(
    "mutations-forward",
    [
      {
        name: "the webhook test delivery with the caller's own token",
        send: async (stack) => {
          token = await directoryToken(stack.directory.url, "demo-client");
          return post(stack.gateway.url, { query: `mutation { triggerWebhookTestDelivery(webhookEndpointId: "1") { __typename } }` }, { authorization: `Bearer ${token}` });
        },
        status: 200,
        // the token's request, the gateway's check of a token it has not seen (docs/security.md#unverified-tokens), the delivery
        maxUpstreamCalls: 3,
        check: (a) => expect(a.body.data.triggerWebhookTestDelivery.__typename).toBe("WebhookDelivery"),
      },
      ...[
        ["a time-entry write", entryWrite(`{ comment: "forward" }`)],
        ["a legacy-user write", `mutation { updateLegacyUser(id: "12", input: { quote: "forward" }) { __typename ... on MutationError { message fields } } }`],
        ["an axis-section write", `mutation { updateAxisSection(id: "2", input: { description: "forward" }) { __typename ... on MutationError { message fields } } }`],
        ["a write with a bad input", entryWrite(`{ duration: "nonsense" }`)],
      ].map(([name, query]) => ({
        name: `${name} of a caller who sees everyone`,
        send: (stack: GatewayStack) => post(stack.gateway.url, { query }, { authorization: `Bearer ${token}` }),
        status: 200,
        // a refusal of the write, as data (docs/graph.md#mutations)
        check: (a: SentRequest) => {
          const result = Object.values(a.body.data)[0] as { __typename: string; message: string };
          expect(a.body.errors).toBeUndefined();
          expect(result.__typename).toBe("ForbiddenError");
          expect(result.message).toMatch(/DIRECTORY_FORWARD_LEGACY_WRITES/);
        },
      })),
      { name: "a write without credentials", send: gateway(entryWrite(`{ comment: "anonymous" }`)), status: 401, code: "UNAUTHENTICATED" },
    ],
    { env: { DIRECTORY_AUTH: "forward" } },
  );
});
