import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { loadOperations } from "./helpers/operations.js";
import { BUDGETS } from "./helpers/budgets.js";

/**
 * The documented figures of upstream calls come from one place, the calls test/gateway/rounds.test.ts
 * pins (test/helpers/budgets.ts): the README's tour table and the call budget's range
 * (docs/security.md) must say the same, so that a change of a loader that moves a figure fails here
 * until the docs follow.
 */

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const security = readFileSync(new URL("../docs/security.md", import.meta.url), "utf8");
const operations = loadOperations().map((o) => o.name);

it("the tour table's upstream calls are the pinned ones, for every operation of operations/", () => {
  const rows = [...readme.matchAll(/^\| `(\w+)` \| .* \| (\d+) \|$/gm)].map((m) => [m[1]!, Number(m[2])] as const);
  const tour = Object.fromEntries(rows.filter(([name]) => operations.includes(name)));
  expect(tour).toEqual(Object.fromEntries(operations.map((name) => [name, BUDGETS[name]!.calls])));
});

it("the call budget's range of the operations (docs/security.md) is the pinned one", () => {
  const calls = operations.map((name) => BUDGETS[name]!.calls);
  expect(security).toContain(`The operations of \`operations/\` cost ${Math.min(...calls)}–${Math.max(...calls)} calls in all`);
});
