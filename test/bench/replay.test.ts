import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript, type ScriptProcess } from "../../harness/process.js";
import { startStack, type Stack } from "../../harness/stack.js";
import { OPERATION_HEADER } from "../../platform/headers.js";

/**
 * bench/replay.ts, the back end of the benchmark's per-gateway throughput: each distinct subgraph
 * request is sent to the live subgraph once and its answer served from memory from then on, keyed
 * by its body and its caller; what is not a 200 is passed through every time; no load is said.
 */
describe("the benchmark's replay of subgraph answers", () => {
  let stack: Stack;
  let replay: ScriptProcess;
  let url: string;
  beforeAll(async () => {
    stack = await startStack({ subgraphs: ["people"] });
    replay = runScript("bench/replay.ts", { BENCH_REPLAY_TARGETS: JSON.stringify({ people: stack.subgraphs.people!.url }) });
    url = (JSON.parse((await replay.waitFor(/bench-replay (\{.*\})/))[1]!) as Record<string, string>).people!;
  });
  afterAll(async () => {
    await replay?.stop();
    await stack?.close();
  });

  const ask = (query: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", [OPERATION_HEADER]: "op-1", ...headers }, body: JSON.stringify({ query }) });

  it("records an answer once and replays it, per caller; passes through what is not a 200; says no load", async () => {
    const query = '{ employee(id: "10") { id givenName } }';
    const live = await (await fetch(stack.subgraphs.people!.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) })).json();
    stack.resetStats();
    const first = await ask(query);
    const calls = stack.stats().total;
    expect(calls).toBeGreaterThan(0);
    const again = await ask(query);
    expect(await first.json()).toEqual(live);
    expect(await again.json()).toEqual(live);
    expect(stack.stats().total).toBe(calls);
    // another caller is another key
    await (await ask(query, { authorization: "Bearer other" })).text();
    // a request the subgraph refuses is not kept
    const bad = await ask("{ employee(id: ");
    expect(bad.status).toBe(400);
    expect((await ask("{ employee(id: ")).status).toBe(400);
    await replay.stop();
    expect(JSON.parse(replay.stdout().match(/bench-replay served (.*)/)![1]!)).toEqual({ people: { replayed: 1, passed: 4 } });
  });
});
