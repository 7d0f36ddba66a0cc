import "reflect-metadata";
import { readFileSync } from "node:fs";
import { ApolloGateway } from "@apollo/gateway";
import { parse, type GraphQLSchema } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../../gateway/gateway.js";
import { ConfigError } from "../../platform/config.js";
import {
  countFieldMerges,
  countTokens,
  DEFAULT_OPERATION_LIMITS,
  LIMIT_VARIABLES,
  loadOperationLimits,
  measureDocument,
  type LimitName,
} from "../../platform/limits.js";
import { startSubgraphModule } from "../../subgraphs/shared/graphql/subgraph.js";
import type { RunningSubgraph } from "../../subgraphs/shared/graphql/server.js";
import { useCloseAfter } from "../helpers/fixture.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, pickDemoData, variablesOf } from "../helpers/operations.js";
import { loadSubgraphModule, postGraphQL } from "../helpers/stack.js";

/**
 * The operation limits: their settings, the room every operation of `operations/` leaves under
 * each default, and the same limits on a subgraph called directly, which must still accept what
 * the gateway sends it.
 */

const stack = useGatewayStack();
let apiSchema: GraphQLSchema;
const closeAfter = useCloseAfter();

beforeAll(async () => {
  const gateway = new ApolloGateway({ supergraphSdl: readFileSync(new URL("../../schema/supergraph.graphql", import.meta.url), "utf8") });
  apiSchema = (await gateway.load()).schema;
  await gateway.stop();
});

describe("settings", () => {
  it("defaults without variables; each variable sets its limit", () => {
    expect(loadOperationLimits({})).toEqual(DEFAULT_OPERATION_LIMITS);
    for (const [name, variable] of Object.entries(LIMIT_VARIABLES)) {
      expect(loadOperationLimits({ [variable]: "7" })[name as LimitName]).toBe(7);
    }
  });

  it.each([["GRAPHQL_MAX_DEPTH", "deep"], ["GRAPHQL_MAX_ALIASES", "-1"], ["GRAPHQL_MAX_TOKENS", "0"], ["GRAPHQL_MAX_BYTES", "2000000"]])("%s=%s stops with the variable's name", (variable, value) => {
    expect(() => loadOperationLimits({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadOperationLimits({ [variable]: value })).toThrow(variable);
  });
});

describe("every operation of operations/ stays within half of each default", () => {
  it.each(loadOperations().map((o) => [o.name, o] as const))("%s measures at most half of each default limit", async (_name, op) => {
    const variables = variablesOf(pickDemoData(stack.directory.company), op);
    const shape = measureDocument(parse(op.source), apiSchema, variables);
    const measured: Partial<Record<LimitName, number>> = {
      ...shape,
      bytes: op.source.length,
      tokens: countTokens(op.source, 1e9),
      fieldMerges: countFieldMerges(parse(op.source), 1e9),
    };
    for (const [name, value] of Object.entries(measured)) {
      expect(value, name).toBeLessThanOrEqual(DEFAULT_OPERATION_LIMITS[name as LimitName] / 2);
    }
    // and it answers through the gateway under the defaults
    const res = await stack.query(op.source, variables);
    expect(res.status).toBe(200);
    expect(res.errors?.filter((e) => e.extensions?.code === "OPERATION_LIMIT_EXCEEDED") ?? []).toEqual([]);
  });
});

describe("a limit set by its variable", () => {
  let strict: RunningGateway;
  beforeAll(async () => {
    strict = closeAfter(await startExtraGateway(stack, { GRAPHQL_MAX_DEPTH: "3", GRAPHQL_MAX_COST: "150" }));
  });

  it("refuses one level past it, before any upstream call, and names it", async () => {
    stack.resetStats();
    const res = await postGraphQL(strict.url, `{ employee(id: "10") { manager { manager { id } } } }`);
    expect(res.status).toBe(400);
    expect(res.errors![0]!.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "depth", value: 3, actual: 4 });
    expect(stack.stats().total).toBe(0);
  });

  it("accepts the level at it", async () => {
    const res = await postGraphQL(strict.url, `{ employee(id: "10") { manager { id } } }`);
    expect(res.errors).toBeUndefined();
  });

  it("multiplies by the list size: a page of 30 passes, a page of 40 does not", async () => {
    // employees 1 + first × (nodes 1 + 3 fields): 121 for 30, 161 for 40
    const page = (n: number) => `{ employees(first: ${n}) { nodes { id givenName familyName } } }`;
    expect((await postGraphQL(strict.url, page(30))).errors).toBeUndefined();
    expect((await postGraphQL(strict.url, page(40))).errors![0]!.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "cost", value: 150, actual: 161 });
  });

  it("measures a text it accepted before again with each request's variables", async () => {
    // the guard keeps accepted texts parsed; the cost of `first: $n` is the variables'
    const page = `query($n: Int) { employees(first: $n) { nodes { id givenName familyName } } }`;
    expect((await postGraphQL(strict.url, page, { n: 30 })).errors).toBeUndefined();
    stack.resetStats();
    expect((await postGraphQL(strict.url, page, { n: 40 })).errors![0]!.extensions).toMatchObject({ limit: "cost", value: 150, actual: 161 });
    expect(stack.stats().total).toBe(0);
    expect((await postGraphQL(strict.url, page, { n: 30 })).errors).toBeUndefined();
  });
});

describe("a subgraph called directly", () => {
  let people: RunningSubgraph;
  beforeAll(async () => {
    people = await startSubgraphModule(await loadSubgraphModule("people"), {
      upstream: stack.upstream,
      port: 0,
      limits: { ...DEFAULT_OPERATION_LIMITS, depth: 4 },
      production: true,
    });
    closeAfter(people);
  });

  it("refuses what its limits refuse, before any upstream call", async () => {
    stack.resetStats();
    const deep = await postGraphQL(people.url, `{ employee(id: "10") { manager { manager { manager { manager { id } } } } } }`);
    expect(deep.status).toBe(400);
    expect(deep.errors![0]!.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "depth", value: 4 });
    const wide = await postGraphQL(stack.subgraphs.people!.url, `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: employee(id: "${i}") { id }`).join(" ")} }`);
    expect(wide.errors![0]!.extensions).toMatchObject({ code: "OPERATION_LIMIT_EXCEEDED", limit: "aliases" });
    expect(stack.stats().total).toBe(0);
  });

  it("in production, suggests no names in its errors", async () => {
    for (const query of [`{ employe(id: "1") { id } }`, `{ employee(id: "1") { givenNam } }`, `{ employees(sort: [FAMILY_NAME_AS]) { nodes { id } } }`]) {
      const res = await postGraphQL(people.url, query);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res)).not.toMatch(/Did you mean/);
    }
    // the same subgraph outside production does suggest (the check above can fail)
    expect(JSON.stringify(await postGraphQL(stack.subgraphs.people!.url, `{ employe(id: "1") { id } }`))).toMatch(/Did you mean/);
  });

  it("accepts an _entities query as the gateway sends it: 100 representations, a fragment per type", async () => {
    const representations = [
      ...Array.from({ length: 60 }, (_, i) => ({ __typename: "Employee", id: String(i + 1) })),
      ...Array.from({ length: 40 }, (_, i) => ({ __typename: "Department", id: String((i % 5) + 1) })),
    ];
    const res = await postGraphQL(
      stack.subgraphs.people!.url,
      `query($representations: [_Any!]!) { _entities(representations: $representations) {
        ... on Employee { id givenName manager { id familyName } applicableJobPosition { id department { id } } }
        ... on Department { id employees(first: 100) { nodes { id givenName } } }
      } }`,
      { representations },
    );
    expect(res.status).toBe(200);
    expect(res.errors?.filter((e) => e.extensions?.code === "OPERATION_LIMIT_EXCEEDED") ?? []).toEqual([]);
    expect(res.data._entities).toHaveLength(100);
  });
});
