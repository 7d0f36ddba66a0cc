import { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { POSSIBLE_TYPES_FILE } from "../../scripts/client-schema.js";
import { loadOperations, operationNamed, pickDemoData } from "../helpers/operations.js";
import { useGatewayStack, type GatewayStack } from "../helpers/gateway-stack.js";

/**
 * Apollo Client 4 against the gateway (docs/frontends.md#apollo-client): every expected refusal
 * of UpdateTimeEntry is data, read with `... on MutationError { message fields }` — a rule of the
 * legacy interface, and an unknown entry (NotFoundError) or a write the caller may not make
 * (ForbiddenError) alike, in both auth modes: `mutate` resolves, it does not throw. Apollo's
 * cache matches a fragment on an interface only through `possibleTypes`; without it the cache
 * silently drops those fields, with schema/possible-types.json they are kept.
 */

const update = operationNamed(loadOperations(), "UpdateTimeEntry");

async function possibleTypesOfSchema(): Promise<Record<string, string[]>> {
  return (JSON.parse(await readFile(POSSIBLE_TYPES_FILE, "utf8")) as { possibleTypes: Record<string, string[]> }).possibleTypes;
}

function client(stack: GatewayStack, possibleTypes?: Record<string, string[]>, authorization?: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: stack.gateway.url, fetch, headers: authorization ? { authorization } : {} }),
    cache: new InMemoryCache(possibleTypes ? { possibleTypes } : {}),
  });
}

/**
 * The refusal an unknown entry gets, as Apollo Client hands it over (`result`, read back through
 * its cache), and as a client without possibleTypes gets it (`untyped`: its cache drops what
 * `... on MutationError` selects), so that `result` shows the cache kept that part.
 */
async function unknownEntry(stack: GatewayStack, authorization?: string) {
  const variables = { id: "999999999", input: { duration: "02:30:00" } };
  // resolves: a refusal as data is no error Apollo Client throws
  const result = await client(stack, await possibleTypesOfSchema(), authorization).mutate({ mutation: gql(update.source), variables });
  const untyped = await client(stack, undefined, authorization).mutate({ mutation: gql(update.source), variables });
  return { result, stored: (result.data as { updateTimeEntry: object }).updateTimeEntry, untyped: (untyped.data as { updateTimeEntry: object }).updateTimeEntry };
}

describe("Apollo Client and possibleTypes (service mode, through the gateway)", () => {
  const stack = useGatewayStack();

  it("keeps the ... on MutationError fields of a refused write with the generated possibleTypes, and loses them without", async () => {
    const demo = pickDemoData(stack.directory.company);
    const variables = { id: demo.approvedEntry.id, input: { duration: "02:30:00" } };
    const possibleTypes = await possibleTypesOfSchema();

    const typed = await client(stack, possibleTypes).mutate({ mutation: gql(update.source), variables });
    expect(typed.data).toMatchObject({
      updateTimeEntry: { __typename: "TimeEntryValidationError", violatedRule: "TIMESHEET_LOCKED", message: expect.any(String), fields: expect.any(Array) },
    });

    const untyped = await client(stack).mutate({ mutation: gql(update.source), variables });
    expect((untyped.data as { updateTimeEntry: object }).updateTimeEntry).toMatchObject({ __typename: "TimeEntryValidationError" });
    expect((untyped.data as { updateTimeEntry: object }).updateTimeEntry).not.toHaveProperty("message");
  });

  it("an unknown entry is a NotFoundError Apollo Client resolves with, not throws, and its cache keeps the MutationError part", async () => {
    stack.resetStats();
    const { result, stored, untyped } = await unknownEntry(stack);
    expect(result.error).toBeUndefined();
    expect(stored).toEqual({ __typename: "NotFoundError", message: "Time entry 999999999 does not exist.", fields: ["id"] });
    // the same answer through a cache without possibleTypes loses the MutationError part
    expect(untyped).toEqual({ __typename: "NotFoundError" });
    // nothing was written: the entry was only looked for
    expect(Object.keys(stack.stats().byRoute).filter((route) => route.startsWith("PUT"))).toEqual([]);
  });
});

describe("Apollo Client, forward mode with legacy writes for readers", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward", DIRECTORY_FORWARD_LEGACY_WRITES: "readers" } });

  it("an unknown entry is a NotFoundError as data, the caller's own token forwarded", async () => {
    const { result, stored, untyped } = await unknownEntry(stack, `Bearer ${await stack.token("demo-client")}`);
    expect(result.error).toBeUndefined();
    expect(stored).toEqual({ __typename: "NotFoundError", message: "Time entry 999999999 does not exist.", fields: ["id"] });
    expect(untyped).toEqual({ __typename: "NotFoundError" });
  });

  it("an entry of an employee the caller cannot read is a NotFoundError as data, as a nonexistent one is, with no PUT", async () => {
    const demo = pickDemoData(stack.directory.company);
    const apollo = client(stack, await possibleTypesOfSchema(), `Bearer ${await stack.token("demo-limited")}`);
    stack.resetStats();
    const result = await apollo.mutate({ mutation: gql(update.source), variables: { id: demo.limited.outsideEntryId, input: { comment: "not mine" } } });
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({ updateTimeEntry: { __typename: "NotFoundError", message: expect.any(String) } });
    expect(Object.keys(stack.stats().byRoute).filter((route) => route.startsWith("PUT"))).toEqual([]);
  });
});

describe("Apollo Client, forward mode with legacy writes off (the default)", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });

  it("a legacy write is a ForbiddenError as data naming the setting", async () => {
    const apollo = client(stack, await possibleTypesOfSchema(), `Bearer ${await stack.token("demo-client")}`);
    const result = await apollo.mutate({ mutation: gql(update.source), variables: { id: "999999999", input: { duration: "02:30:00" } } });
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({ updateTimeEntry: { __typename: "ForbiddenError", message: expect.stringMatching(/DIRECTORY_FORWARD_LEGACY_WRITES/) } });
  });
});
