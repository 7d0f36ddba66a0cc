import { describe, expect, it } from "vitest";
import { processMetrics } from "../../platform/metrics.js";
import { useGatewayStack } from "../helpers/gateway-stack.js";
import { loadOperations, operationNamed, pickDemoData } from "../helpers/operations.js";

/**
 * A stampede of identical cold operations is shared whatever the machine's load
 * (docs/performance.md#identical-operations-in-flight). On a loaded machine the gateway reads 40
 * requests sent at once over seconds, so some of them reach their first subgraph fetch after the
 * first operation's has answered: sharing fetch by fetch, they sent it again (13 upstream calls for
 * 40 in one run, 100 in another). Here the late ones are made late on purpose: the first operation
 * is sent alone, and the others once its first subgraph fetch has answered, while it still waits
 * for the directory (1.5 s a request) in its later rounds. Each identical operation that arrives
 * while the first is in flight is answered with its answer, at no call.
 */

const LATENCY_MS = 1500;

async function peopleFetches(): Promise<number> {
  const metric = await processMetrics().registry.getSingleMetric("gateway_subgraph_fetches_total")?.get();
  return (metric?.values ?? []).filter((v) => v.labels.subgraph === "people").reduce((sum, v) => sum + v.value, 0);
}

describe("identical operations arriving while the first is in flight", () => {
  const stack = useGatewayStack();

  it("40 identical cold EmployeeProfile cost the upstream calls of one, the late ones included", async () => {
    const profile = operationNamed(loadOperations(), "EmployeeProfile");
    const demo = pickDemoData(stack.directory.company);
    const [aloneId, crowdId] = demo.profile.directReportIds;
    // one cold operation alone: what one costs
    stack.resetStats();
    const alone = await stack.query(profile.source, { id: aloneId });
    expect(alone.errors).toBeUndefined();
    const one = stack.stats().total;

    stack.directory.faults.set({ latencyMs: LATENCY_MS });
    try {
      stack.resetStats();
      const before = await peopleFetches();
      const started = performance.now();
      const first = stack.query(profile.source, { id: crowdId });
      let firstAnswered = false;
      void first.then(() => (firstAnswered = true));
      while ((await peopleFetches()) === before) await new Promise((r) => setTimeout(r, 5));
      const late = Array.from({ length: 39 }, () => stack.query(profile.source, { id: crowdId }));
      // the test means something only if the late ones were sent before the first was answered
      expect(firstAnswered).toBe(false);
      const answers = await Promise.all([first, ...late]);
      const calls = stack.stats().total;
      console.log(`40 identical cold EmployeeProfile, 39 sent after the first's people fetch: ${calls} upstream calls (one alone: ${one}) in ${Math.round(performance.now() - started)} ms`);
      for (const answer of answers) {
        expect(answer.errors).toBeUndefined();
        expect(answer.data).toEqual(answers[0]!.data);
      }
      expect(answers[0]!.data.employee.id).toBe(crowdId);
      expect(calls).toBeLessThanOrEqual(one);
    } finally {
      stack.directory.faults.clear();
    }
  }, 60_000);
});
