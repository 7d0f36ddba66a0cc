import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { typescriptSources } from "./helpers/sources.js";

/**
 * Claims of docs/ that follow from the code or from the benchmark's generated block, checked so that
 * they cannot go stale: every span event the code adds is in docs/observability.md.
 */

describe("docs/observability.md", () => {
  it("lists every span event the code adds", () => {
    const code = ["platform", "subgraphs", "gateway"].flatMap(typescriptSources).map((path) => readFileSync(path, "utf8")).join("\n");
    const events = [
      ...[...code.matchAll(/(?:spanEvent|addEvent)\("([^"]+)"/g)].map((m) => m[1]!),
      ...[...code.matchAll(/refusedUpstream\("(\w+)"/g)].map((m) => `upstream.${m[1]!}`),
    ];
    expect(new Set(events).size).toBeGreaterThanOrEqual(7);
    const doc = readFileSync("docs/observability.md", "utf8");
    expect([...new Set(events)].filter((event) => !doc.includes(`\`${event}\``))).toEqual([]);
  });
});
