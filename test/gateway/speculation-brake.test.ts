import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../gateway/config.js";
import { startGateway, type RunningGateway } from "../../gateway/gateway.js";
import { LOAD_HYSTERESIS, LOAD_STALE_MS, SpeculationBrake } from "../../gateway/speculation-brake.js";
import { LOAD_HEADER, OPERATION_HEADER } from "../../platform/headers.js";
import { LOAD_WINDOW_MS } from "../../platform/load.js";
import { processMetrics } from "../../platform/metrics.js";
import { counterValue } from "../../harness/prometheus.js";
import { startStack, type Stack } from "../../harness/stack.js";
import { loadOperations, operationNamed, pickDemoData, variablesOf } from "../../harness/operations.js";
import { startExtraGateway, useGatewayStack } from "../helpers/gateway-stack.js";
import { measureRounds } from "../helpers/rounds.js";

/**
 * The brake on what the gateway asks ahead (gateway/speculation-brake.ts, docs/graph.md#query-plans):
 * each subgraph says its load on its answers to the gateway (platform/load.ts), and the gateway
 * asks a subgraph that says it is saturated no announcement and no split part, so its operations
 * cost that subgraph what the plan without them costs, with the same answers and calls.
 */

describe("the brake's rule", () => {
  const clock = { now: 0 };
  /** the gateway's own load, as its meter would say it */
  let own = 0;
  const brake = () => new SpeculationBrake(90, () => own, () => clock.now);

  it("holds from the limit on, until the load is LOAD_HYSTERESIS points below it", () => {
    const b = brake();
    b.report("people", "89");
    expect(b.holds("people", "split")).toBe(false);
    b.report("people", "90");
    expect(b.holds("people", "split")).toBe(true);
    expect(b.holds("organisation", "announcement")).toBe(false);
    b.report("people", String(90 - LOAD_HYSTERESIS + 1));
    expect(b.holds("people", "split")).toBe(true);
    b.report("people", String(90 - LOAD_HYSTERESIS));
    expect(b.holds("people", "split")).toBe(false);
    b.report("people", "85");
    expect(b.holds("people", "split")).toBe(false);
  });

  it("lets go of a subgraph that has said nothing for LOAD_STALE_MS", () => {
    const b = brake();
    b.report("people", "100");
    clock.now += LOAD_STALE_MS - 1;
    expect(b.holds("people", "split")).toBe(true);
    clock.now += 1;
    expect(b.holds("people", "split")).toBe(false);
    // and judges its next load afresh: below the limit is not held, even within the hysteresis
    b.report("people", "85");
    expect(b.holds("people", "split")).toBe(false);
  });

  it("ignores what is not a whole percent, and never holds when off", () => {
    const b = brake();
    for (const bad of [null, "", "abc", "101", "-1", "95.5", "1e2", " 95", "0x5f", "9999"]) {
      b.report("people", bad);
      expect(b.holds("people", "split"), String(bad)).toBe(false);
    }
    own = 100;
    const off = new SpeculationBrake(null, () => own, () => clock.now);
    off.report("people", "100");
    expect(off.holds("people", "split")).toBe(false);
    own = 0;
  });

  it("holds what the gateway would ask of every subgraph while the gateway itself is saturated, with the same hysteresis", async () => {
    const b = brake();
    const before = await counterValue(processMetrics().speculationHeld, { subgraph: "organisation", kind: "announcement", by: "gateway" });
    b.report("people", "10");
    own = 89;
    expect(b.holds("people", "split")).toBe(false);
    own = 90;
    expect(b.holds("people", "split")).toBe(true);
    expect(b.holds("organisation", "announcement")).toBe(true);
    expect(b.holds("legacy-time", "announcement")).toBe(true);
    own = 90 - LOAD_HYSTERESIS + 1;
    expect(b.holds("people", "split")).toBe(true);
    own = 90 - LOAD_HYSTERESIS;
    expect(b.holds("people", "split")).toBe(false);
    own = 85;
    expect(b.holds("organisation", "announcement")).toBe(false);
    expect(await counterValue(processMetrics().speculationHeld, { subgraph: "organisation", kind: "announcement", by: "gateway" })).toBe(before + 1);
    // a subgraph that says it is saturated is held whatever the gateway's load, and counted as its own
    b.report("people", "95");
    expect(b.holds("people", "split")).toBe(true);
    expect(b.holds("organisation", "split")).toBe(false);
    own = 0;
  });
});

describe("a subgraph's load", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ subgraphs: ["people"] });
  });
  afterAll(async () => {
    await stack?.close();
  });
  const ask = (headers: Record<string, string>) =>
    fetch(stack.subgraphs.people!.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query: "{ __typename }" }) });

  it("is said to the gateway's operations only, as a whole percent that follows how busy the process is", async () => {
    const client = await ask({});
    expect(client.headers.get(LOAD_HEADER)).toBeNull();
    await ask({ [OPERATION_HEADER]: "op-1" });
    // idle for two windows: the next answer closes a window that was mostly waiting
    await new Promise((r) => setTimeout(r, LOAD_WINDOW_MS * 2));
    const idle = (await ask({ [OPERATION_HEADER]: "op-2" })).headers.get(LOAD_HEADER);
    expect(idle).toMatch(/^\d{1,3}$/);
    expect(Number(idle)).toBeLessThan(50);
    // busy for three windows: the next answer closes a window that was mostly running
    const end = performance.now() + LOAD_WINDOW_MS * 3;
    while (performance.now() < end) {
      // the process's event loop is busy
    }
    const busy = (await ask({ [OPERATION_HEADER]: "op-3" })).headers.get(LOAD_HEADER);
    expect(Number(busy)).toBeGreaterThanOrEqual(60);
    expect(Number(busy)).toBeLessThanOrEqual(100);
  });
});

describe("through the gateway", () => {
  /**
   * what the subgraphs say; the gateway under test holds at 90, its own load fixed below that (the
   * process's, which the test's client and parallel test files share, held it at random)
   */
  let said = 0;
  const stack = useGatewayStack({ load: () => said, gatewayLoad: () => 0, gatewayEnv: { GATEWAY_SPECULATION_MAX_LOAD: "90" } });
  const demo = () => pickDemoData(stack.directory.company);
  const operations = loadOperations();
  let lean: RunningGateway;
  let unbraked: RunningGateway;
  beforeAll(async () => {
    lean = await startExtraGateway(stack, { GATEWAY_PREFETCH: "none", GATEWAY_SPLIT_ROOT_FETCH: "false" });
    unbraked = await startExtraGateway(stack, { GATEWAY_SPECULATION_MAX_LOAD: "off" });
  });
  afterAll(async () => {
    await Promise.all([lean?.close(), unbraked?.close()]);
  });
  afterEach(() => {
    stack.directory.faults.clear();
  });

  /** The requests each subgraph received while `run` ran, by subgraph, and its answer. */
  async function requests<T>(run: () => Promise<T>): Promise<{ answer: T; bySubgraph: Record<string, number> }> {
    const ports = new Map(Object.entries(stack.subgraphs).map(([name, s]) => [String(s!.port), name]));
    const bySubgraph: Record<string, number> = {};
    const listener = (message: unknown) => {
      const host = (message as { request: { headers: { host?: string } } }).request.headers.host ?? "";
      const name = ports.get(host.split(":").pop()!);
      if (name) bySubgraph[name] = (bySubgraph[name] ?? 0) + 1;
    };
    subscribe("http.server.request.start", listener);
    try {
      return { answer: await run(), bySubgraph };
    } finally {
      unsubscribe("http.server.request.start", listener);
    }
  }

  const held = () => counterValue(processMetrics().speculationHeld);

  it.each(["EmployeeProfile", "OrgChart"])("%s: a saturated subgraph is asked what the lean plan asks it, for the same answer, calls and rounds", async (name) => {
    const op = operationNamed(operations, name);
    const variables = variablesOf(demo(), op);
    const via = (url: string) => () => stack.gql(url, op.source, variables);
    said = 95;
    await via(stack.gateway.url)(); // the plan, and the subgraphs' first word
    const before = await held();
    const braked = await requests(via(stack.gateway.url));
    const plain = await requests(via(lean.url));
    const free = await requests(via(unbraked.url));
    expect(braked.answer.errors).toBeUndefined();
    expect(braked.answer.data).toEqual(plain.answer.data);
    expect(braked.answer.data).toEqual(free.answer.data);
    expect(braked.bySubgraph).toEqual(plain.bySubgraph);
    const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    expect(total(free.bySubgraph)).toBeGreaterThan(total(plain.bySubgraph));
    expect(await held()).toBeGreaterThan(before);
    stack.resetStats();
    await via(stack.gateway.url)();
    const calls = stack.stats().total;
    stack.resetStats();
    await via(lean.url)();
    expect(calls).toBe(stack.stats().total);
    const rounds = (await measureRounds(stack.directory, via(stack.gateway.url))).waves.length;
    expect(rounds).toBe((await measureRounds(stack.directory, via(lean.url))).waves.length);

    // a subgraph that is no longer saturated is asked ahead again, from its next answer on
    said = 10;
    await via(stack.gateway.url)();
    const released = await requests(via(stack.gateway.url));
    expect(released.answer.data).toEqual(free.answer.data);
    expect(released.bySubgraph).toEqual(free.bySubgraph);
    expect((await measureRounds(stack.directory, via(stack.gateway.url))).waves.length).toBeLessThan(rounds);
  });

  it("a root lookup's next fetch, held, goes with its stage's other fetches to that subgraph: OrgChart asks people once, as Hive-Rust does", async () => {
    const op = operationNamed(operations, "OrgChart");
    const variables = variablesOf(demo(), op);
    const via = (url: string) => () => stack.gql(url, op.source, variables);
    said = 95;
    await via(stack.gateway.url)();
    const before = await counterValue(processMetrics().speculationHeld, { subgraph: "people", kind: "lookup", by: "subgraph" });
    const braked = await requests(via(stack.gateway.url));
    const free = await requests(via(unbraked.url));
    expect(braked.answer.data).toEqual(free.answer.data);
    // free: the members' fetch is sent with the department's, the department manager's after it
    expect(free.bySubgraph.people).toBe(2);
    expect(braked.bySubgraph.people).toBe(1);
    expect(await counterValue(processMetrics().speculationHeld, { subgraph: "people", kind: "lookup", by: "subgraph" })).toBe(before + 1);
  });

  it("a saturated gateway asks no subgraph ahead: each is asked what the lean plan asks it, until the gateway's load is down", async () => {
    const op = operationNamed(operations, "EmployeeProfile");
    const variables = variablesOf(demo(), op);
    const via = (url: string) => () => stack.gql(url, op.source, variables);
    said = 10;
    let own = 95;
    const gateway = await startGateway(loadGatewayConfig(stack.gatewayEnv), undefined, () => own);
    try {
      await via(gateway.url)();
      const before = await counterValue(processMetrics().speculationHeld, { by: "gateway" });
      const braked = await requests(via(gateway.url));
      const plain = await requests(via(lean.url));
      expect(braked.answer.errors).toBeUndefined();
      expect(braked.answer.data).toEqual(plain.answer.data);
      expect(braked.bySubgraph).toEqual(plain.bySubgraph);
      expect(await counterValue(processMetrics().speculationHeld, { by: "gateway" })).toBeGreaterThan(before);
      own = 50;
      const released = await requests(via(gateway.url));
      const free = await requests(via(unbraked.url));
      expect(released.answer.data).toEqual(free.answer.data);
      expect(released.bySubgraph).toEqual(free.bySubgraph);
      expect(Object.values(released.bySubgraph).reduce((a, b) => a + b, 0)).toBeGreaterThan(Object.values(plain.bySubgraph).reduce((a, b) => a + b, 0));
    } finally {
      await gateway.close();
    }
  });

  it("a held split part reports nothing of its own: a failing root fetch's errors, once, as without the split", async () => {
    const op = operationNamed(operations, "EmployeeProfile");
    const variables = variablesOf(demo(), op);
    said = 95;
    await stack.gql(stack.gateway.url, op.source, variables);
    stack.directory.faults.set({ errorRate: 1 });
    const braked = await stack.gql(stack.gateway.url, op.source, variables);
    const plain = await stack.gql(lean.url, op.source, variables);
    expect(braked.data).toEqual(plain.data);
    expect(braked.errors?.map((e) => [e.path, e.extensions?.code])).toEqual(plain.errors?.map((e) => [e.path, e.extensions?.code]));
    expect(braked.errors?.length).toBeGreaterThan(0);
  });
});
