import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { measureRounds } from "../helpers/rounds.js";
import type { GraphQLResponse } from "../helpers/stack.js";

/**
 * The prefetches of docs/performance.md#batching-rules and #query-plans, through the gateway in forward
 * mode (each caller's own token, so the directory's visibility rules apply per caller):
 * - `include=embedded` priming the loaders: an employee page's positions and employments, an
 *   establishment's legal entity; a partial or missing embed is read by the loader as without it;
 * - organisation's reference lists, read by the plan's entity fetch in the operation's second
 *   round, and not at all while they are held (reference-cache.ts, as shipped).
 * Each: only for what the operation selects, flat calls at first: 10 and first: 100, refused
 * inputs at no call. `demo-limited` sees establishment 1 only.
 */

const stack = useGatewayStack({ env: { DIRECTORY_AUTH: "forward" } });
let full: Record<string, string>;
let limited: Record<string, string>;

beforeAll(async () => {
  full = { authorization: `Bearer ${await stack.token("demo-client")}` };
  limited = { authorization: `Bearer ${await stack.token("demo-limited")}` };
});
afterEach(() => {
  stack.directory.faults.clear();
});

/** The upstream calls of one operation (tokens left out), and its answer, which must have no errors. */
async function calls(run: () => Promise<GraphQLResponse>): Promise<{ data: any; byRoute: Record<string, number> }> {
  await run(); // plan and token
  stack.resetStats();
  const response = await run();
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const byRoute = Object.fromEntries(Object.entries(stack.stats().byRoute).filter(([route]) => !route.includes("/connect/token")));
  return { data: response.data, byRoute };
}

const POSITIONS = (first: number) => `{ employees(first: ${first}) { nodes { id
  applicableJobPosition { id jobTitle startsOn manager { id } department { id } }
  applicableEmployment { id startsOn endsOn status } } } }`;

describe("an employee page's embedded positions and employments", () => {
  it("prime the loaders: one call at first: 10 and at first: 100", async () => {
    for (const first of [10, 100]) {
      const { data, byRoute } = await calls(() => stack.query(POSITIONS(first), {}, full));
      expect(byRoute).toEqual({ "GET /service-api/employees": 1 });
      expect(data.employees.nodes).toHaveLength(first);
      expect(data.employees.nodes.filter((n: any) => n.applicableJobPosition?.jobTitle).length).toBeGreaterThan(first / 2);
    }
  });

  it("answer what the loaders read when the embeds are partial or missing, at one call per list", async () => {
    const { data: whole } = await calls(() => stack.query(POSITIONS(100), {}, full));
    for (const fault of [{ partialEmbedRate: 1 }, { missingEmbedRate: 1 }]) {
      stack.directory.faults.set(fault);
      const { data, byRoute } = await calls(() => stack.query(POSITIONS(100), {}, full));
      expect(data, JSON.stringify(fault)).toEqual(whole);
      expect(byRoute).toEqual({ "GET /service-api/employees": 1, "GET /service-api/job-positions": 1, "GET /service-api/employments": 1 });
    }
  });

  it("are asked only for what the operation reads of them beyond their id", async () => {
    const { byRoute } = await calls(() => stack.query(`{ employees(first: 10) { nodes { id applicableJobPosition { id } applicableEmployment { id } } } }`, {}, full));
    expect(byRoute).toEqual({ "GET /service-api/employees": 1 });
    stack.resetStats();
    const seen: string[] = [];
    const { subscribe, unsubscribe } = await import("node:diagnostics_channel");
    const listener = (m: unknown) => seen.push((m as { request: { url?: string } }).request.url ?? "");
    subscribe("http.server.request.start", listener);
    try {
      await stack.query(`{ employees(first: 10) { nodes { id applicableJobPosition { id } } } }`, {}, full);
    } finally {
      unsubscribe("http.server.request.start", listener);
    }
    expect(seen.filter((u) => u.startsWith("/service-api/employees")).every((u) => !u.includes("embedded"))).toBe(true);
  });

  it("leave out what the caller may not see: a limited caller's answer is the one the loaders give it", async () => {
    const { data } = await calls(() => stack.query(POSITIONS(100), {}, limited));
    stack.directory.faults.set({ missingEmbedRate: 1 });
    const { data: read } = await calls(() => stack.query(POSITIONS(100), {}, limited));
    expect(data).toEqual(read);
    stack.directory.faults.clear();
    const { data: all } = await calls(() => stack.query(POSITIONS(100), {}, full));
    expect(data).not.toEqual(all);
  });

  it("a department's members embed theirs too", async () => {
    const source = `query($d: ID!) { department(id: $d) { employees(first: 50) { nodes { id applicableJobPosition { jobTitle manager { id } } } } } }`;
    const department = stack.directory.company.departments.find((d) => stack.directory.company.jobPositions.filter((p) => p.departmentId === d.id).length > 5)!;
    const { byRoute } = await calls(() => stack.query(source, { d: department.id }, full));
    expect(byRoute["GET /service-api/job-positions"]).toBeUndefined();
  });
});

const ORGANISATION = (first: number) => `{ employees(first: ${first}) { nodes { id applicableJobPosition {
  department { name } businessEstablishment { name legalEntity { legalName } } } } } }`;

describe("organisation's reference lists", () => {
  it("are read after the page, with the establishments' legal entities embedded: the same calls at first: 10 and 100", async () => {
    for (const first of [10, 100]) {
      const run = () => stack.query(ORGANISATION(first), {}, full);
      const { byRoute } = await calls(run);
      expect(byRoute).toEqual({ "GET /service-api/employees": 1, "GET /service-api/departments": 1, "GET /service-api/business-establishments": 1 });
      const { waves } = await measureRounds(stack.directory, run);
      // the plan's entity fetch to organisation waits for people's page: no request ahead of it
      expect(waves, JSON.stringify(waves)).toHaveLength(2);
    }
  });

  it("a partial legal entity is read by its loader", async () => {
    const { data: whole } = await calls(() => stack.query(ORGANISATION(100), {}, full));
    stack.directory.faults.set({ partialEmbedRate: 1 });
    const { data, byRoute } = await calls(() => stack.query(ORGANISATION(100), {}, full));
    expect(data).toEqual(whole);
    expect(byRoute["GET /service-api/legal-entities"]).toBe(1);
  });

  it("read nothing the operation does not read beyond an id", async () => {
    const { byRoute } = await calls(() => stack.query(`{ employees(first: 10) { nodes { applicableJobPosition { department { id } businessEstablishment { id } } } } }`, {}, full));
    expect(byRoute).toEqual({ "GET /service-api/employees": 1 });
  });

  it("are not read for a list the operation reads as a root list", async () => {
    const { byRoute } = await calls(() => stack.query(`{ departments(first: 10) { nodes { name } } }`, {}, full));
    expect(byRoute).toEqual({ "GET /service-api/departments": 1 });
  });

  it("answer each caller what it may see", async () => {
    // demo-limited has no establishment scope: its page, and a refusal where it may not read
    const answer = await stack.query(ORGANISATION(100), {}, limited);
    expect(answer.data.employees.nodes.length).toBeGreaterThan(0);
    expect(answer.errors?.map((e) => e.extensions?.code) ?? []).not.toContain("INTERNAL_SERVER_ERROR");
  });

  it("cost no call when an input is refused", async () => {
    await stack.query(ORGANISATION(10), {}, full);
    stack.resetStats();
    const refused = await stack.query(ORGANISATION(101), {}, full);
    expect(refused.errors?.[0]?.extensions?.code).toMatch(/BAD_USER_INPUT|OPERATION_LIMIT_EXCEEDED|GRAPHQL_VALIDATION_FAILED/);
    const bad = await stack.query(`query($d: ID!) { department(id: $d) { name employees(first: 5) { nodes { applicableJobPosition { businessEstablishment { name } } } } } }`, { d: "" }, full);
    expect(bad.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(stack.stats().byRoute).filter((r) => !r.includes("/connect/token"))).toEqual([]);
  });

  it("an org chart of a department that does not exist answers null", async () => {
    const response = await stack.query(
      `query($d: ID!) { department(id: $d) { name employees(first: 5) { nodes { applicableJobPosition { businessEstablishment { name legalEntity { legalName } } } } } } }`,
      { d: "999999" },
      full,
    );
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ department: null });
  });
});
