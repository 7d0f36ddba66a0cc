import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { POSSIBLE_TYPES_FILE } from "../../scripts/client-schema.js";
import { loadOperations, operationNamed, pickDemoData } from "../helpers/operations.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * Apollo Client 4 against the gateway (docs/frontends.md#apollo-client): a refusal of
 * UpdateTimeEntry is data, read with `... on MutationError { message fields }`. Apollo's cache
 * matches a fragment on an interface only through `possibleTypes`; without it the cache silently
 * drops those fields, with schema/possible-types.json they are kept.
 */

const stack = useGatewayStack();
const update = operationNamed(loadOperations(), "UpdateTimeEntry");

async function client(possibleTypes?: Record<string, string[]>) {
  return new ApolloClient({
    link: new HttpLink({ uri: stack.gateway.url, fetch }),
    cache: new InMemoryCache(possibleTypes ? { possibleTypes } : {}),
  });
}

describe("Apollo Client and possibleTypes", () => {
  it("keeps the ... on MutationError fields of a refused write with the generated possibleTypes, and loses them without", async () => {
    const demo = pickDemoData(stack.directory.company);
    const variables = { id: demo.approvedEntry.id, input: { duration: "02:30:00" } };
    const { possibleTypes } = JSON.parse(await readFile(POSSIBLE_TYPES_FILE, "utf8")) as { possibleTypes: Record<string, string[]> };

    const typed = await (await client(possibleTypes)).mutate({ mutation: gql(update.source), variables });
    expect(typed.data).toMatchObject({
      updateTimeEntry: { __typename: "TimeEntryValidationError", violatedRule: "TIMESHEET_LOCKED", message: expect.any(String), fields: expect.any(Array) },
    });

    const untyped = await (await client()).mutate({ mutation: gql(update.source), variables });
    expect((untyped.data as { updateTimeEntry: object }).updateTimeEntry).toMatchObject({ __typename: "TimeEntryValidationError" });
    expect((untyped.data as { updateTimeEntry: object }).updateTimeEntry).not.toHaveProperty("message");
  });
});
