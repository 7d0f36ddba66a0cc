import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RESULTS, resultsBlock } from "../bench/results.js";
import { typescriptSources } from "./helpers/sources.js";

/**
 * Claims of docs/ that follow from the code or from the benchmark's generated block, checked so that
 * they cannot go stale: every span event the code adds is in docs/observability.md, and the price
 * docs/graph.md gives for speculation is the one the last bench run measured.
 */

describe("docs/observability.md", () => {
  it("lists every span event the code adds", () => {
    const code = ["platform", "subgraphs", "gateway"].flatMap(typescriptSources).map((path) => readFileSync(path, "utf8")).join("\n");
    const events = [
      ...[...code.matchAll(/(?:spanEvent|addEvent)\("([^"]+)"/g)].map((m) => m[1]!),
      ...[...code.matchAll(/refusedUpstream\("(\w+)"/g)].map((m) => `upstream.${m[1]!}`),
    ];
    expect(new Set(events).size).toBeGreaterThanOrEqual(8);
    const doc = readFileSync("docs/observability.md", "utf8");
    expect([...new Set(events)].filter((event) => !doc.includes(`\`${event}\``))).toEqual([]);
  });
});

describe("docs/graph.md", () => {
  it("prices speculation at the subgraphs' CPU the last bench run measured, ours against lean", () => {
    const block = resultsBlock(readFileSync(RESULTS, "utf8"))!.block;
    const table = block.split("\n\n").find((part) => part.includes("subgraphs CPU ms/op ×50 ours / lean / Rust"))!;
    const [header, , ...rows] = table.split("\n").map((line) => line.split("|").map((cell) => cell.trim()));
    const column = header!.findIndex((cell) => cell.startsWith("subgraphs CPU ms/op ×50"));
    const requests = header!.findIndex((cell) => cell.startsWith("subgraph requests ours / lean"));
    const row = rows.find((cells) => cells[1] === "EmployeeProfile")!;
    const [ours, lean] = row[column]!.split(" / ");
    const [oursRequests, leanRequests] = row[requests]!.split(" / ");
    const more = ((Number(ours) / Number(lean) - 1) * 100).toFixed(1);
    const doc = readFileSync("docs/graph.md", "utf8").replace(/\s+/g, " ");
    expect(doc).toContain(`(EmployeeProfile: ${oursRequests} subgraph requests instead of ${leanRequests} at rest; at 50 clients, ${ours} ms of the subgraphs process's CPU per operation against ${lean} ms, ${more}% more,`);
  });
});
