import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markCompanyChanged } from "../../directory/current/derived.js";
import type { Department } from "../../directory/data/model.js";
import { adaptiveLoader, singleReadLoader } from "../../subgraphs/shared/upstream/index.js";
import { COLD_REFERENCES, startStack, type Stack } from "../helpers/stack.js";
import { apiCalls, ENTITIES_QUERY, query, representations } from "./helpers.js";

/**
 * The adaptive reference loader against its two alternatives, for 1, 10 and 200 keys: k single
 * reads, or the whole collection (ceil(N / 100) calls). The demo's department tree (32) fits one
 * page; a second directory gets a tree of 450 departments (5 pages), more than the generator
 * makes, so that the choice between the two is a real one.
 */

const BIG_TREE = 450;

let demo: Stack;
let big: Stack;

beforeAll(async () => {
  // 200 single reads in one session is the alternative measured here, beyond the default call budget
  const env = { DIRECTORY_CALL_BUDGET: "1000" };
  [demo, big] = await Promise.all([startStack({ subgraphs: ["organisation"], env: { ...COLD_REFERENCES, ...env } }), startStack({ subgraphs: ["organisation"], env: { ...COLD_REFERENCES, ...env } })]);
  // added before the first request reaches the directory, so that its indexes include them
  const departments = big.directory.company.departments;
  const parents = departments.filter((d) => d.level === 2 && !d.isArchived);
  for (let n = departments.length + 1; n <= BIG_TREE; n++) {
    const parent = parents[n % parents.length]!;
    const squad: Department = {
      ...parent,
      id: String(n),
      name: `Squad ${n}`,
      remoteId: `SQ-${n}`,
      parentId: parent.id,
      level: parent.level + 1,
      managerId: null,
      isArchived: false,
    };
    departments.push(squad);
  }
  markCompanyChanged(big.directory.company);
});

afterAll(async () => {
  await Promise.all([demo?.close(), big?.close()]);
});

type Strategy = "single reads" | "whole collection" | "adaptive (this subgraph)";

/** Upstream calls of one strategy resolving `ids` in one batch. */
async function measure(stack: Stack, strategy: Strategy, ids: readonly string[]): Promise<{ calls: number; found: number }> {
  stack.resetStats();
  let found: number;
  if (strategy === "adaptive (this subgraph)") {
    const data = await query(stack, ENTITIES_QUERY, { r: representations("Department", ids) });
    found = data._entities.filter((e: unknown) => e !== null).length;
  } else {
    const session = stack.upstream.session();
    const loader =
      strategy === "single reads"
        ? singleReadLoader<Department>(session, (id) => `/departments/${encodeURIComponent(id)}`)
        : adaptiveLoader<Department>(session, { list: "/departments" });
    found = (await loader.loadMany(ids)).filter((e) => e !== null && !(e instanceof Error)).length;
  }
  return { calls: apiCalls(stack).total, found };
}

const spread = (k: number, n: number) => Array.from({ length: k }, (_, i) => String(1 + Math.floor((i * n) / k)));

describe.each([
  ["the demo tree (32 departments, 1 page)", () => demo, 32],
  [`a tree of ${BIG_TREE} departments (5 pages)`, () => big, BIG_TREE],
])("references into %s", (_, stackOf, size) => {
  const results: Record<string, Record<Strategy, number>> = {};

  for (const [label, ids] of [
    ["1 key", ["5"]],
    ["2 keys far apart", ["3", String(size - 1)]],
    ["10 keys", spread(10, size)],
    ["200 keys", Array.from({ length: 200 }, (_, i) => String(1 + ((i * 7) % Math.max(size, 200))))],
  ] as const) {
    it(`${label}: the adaptive loader costs no more than the cheaper alternative plus one`, async () => {
      const stack = stackOf();
      const single = await measure(stack, "single reads", ids);
      const whole = await measure(stack, "whole collection", ids);
      const adaptive = await measure(stack, "adaptive (this subgraph)", ids);
      results[label] = { "single reads": single.calls, "whole collection": whole.calls, "adaptive (this subgraph)": adaptive.calls };

      // the three agree on what exists
      expect(adaptive.found).toBe(whole.found);
      expect(single.found).toBe(whole.found);
      expect(single.calls).toBe(new Set(ids).size);
      expect(whole.calls).toBe(Math.ceil(size / 100));
      expect(adaptive.calls).toBeLessThanOrEqual(Math.min(single.calls + 1, whole.calls));
      if (ids.length === 1) expect(adaptive.calls).toBe(1);
    });
  }

  afterAll(() => {
    console.log(`upstream calls for ${size} departments:\n${JSON.stringify(results, null, 1)}`);
  });
});
