import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { END, RESULTS, resultsBlock, sha256, SUBSCRIPTIONS, withResults } from "../../bench/results.js";

/**
 * The benchmark's figures are the last `npm run bench` output, never typed by hand: bench/run.ts
 * writes them between the markers of bench/results.md with their SHA-256 in the start marker, and
 * this test fails when the text between the markers was edited without a run, or copied elsewhere.
 */
describe("the benchmark's figures in bench/results.md", () => {
  const results = readFileSync(RESULTS, "utf8");

  it("are between the bench markers, once", () => {
    expect(results.match(/<!-- bench:start /g)).toHaveLength(1);
    expect(results.split(END)).toHaveLength(2);
    expect(resultsBlock(results)?.block).toMatch(/^### Benchmark \(Node v/);
  });

  it("of subscriptions are what the last `npm run bench:subscriptions` wrote, in their own block", () => {
    const written = resultsBlock(results, SUBSCRIPTIONS)!;
    expect(written.block).toMatch(/^### Subscriptions \(Node v/);
    expect(sha256(written.block)).toBe(written.recorded);
  });

  it("are what the last run wrote: the block's hash is the one the run recorded", () => {
    const written = resultsBlock(results)!;
    expect(sha256(written.block)).toBe(written.recorded);
  });

  it("are in no other page: the README and docs/ cite bench/results.md", () => {
    for (const page of ["README.md", ...readdirSync(new URL("../../docs", import.meta.url)).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)]) {
      const text = readFileSync(new URL(`../../${page}`, import.meta.url), "utf8");
      expect(text).not.toContain("bench:start");
      expect(text).not.toMatch(/^### Benchmark \(Node v/m);
    }
  });

  it("are the only figures of the reading under the block: every ratio or percentage it names is one of the block's", () => {
    const after = results.slice(results.indexOf(END) + END.length);
    const reading = after.slice(0, after.search(/^## /m));
    const block = resultsBlock(results)!.block;
    const figures = [...reading.matchAll(/\d+(?:\.\d+)? ?%|\d+\.\d+/g)].map((m) => m[0]);
    expect(figures.length).toBeGreaterThan(0);
    const inBlock = (figure: string) => new RegExp(`(?<![\\d.])${figure.replace(/[.%]/g, "\\$&")}(?![\\d])`).test(block);
    expect(figures.filter((figure) => !inBlock(figure))).toEqual([]);
  });

  it("are written between the markers, the page around them kept, and an edited figure is seen", () => {
    const page = `# Benchmark\n\nprose\n\n<!-- bench:start (written by npm run bench: do not edit) sha256:${"0".repeat(64)} -->\n\nold\n\n${END}\n\nreading\n`;
    const written = withResults(page, "### Benchmark (Node v20)\n\n| a | 1 |\n");
    expect(written.startsWith("# Benchmark\n\nprose\n\n")).toBe(true);
    expect(written.endsWith(`${END}\n\nreading\n`)).toBe(true);
    const block = resultsBlock(written)!;
    expect(block.block).toBe("### Benchmark (Node v20)\n\n| a | 1 |");
    expect(block.recorded).toBe(sha256(block.block));
    expect(sha256(block.block.replace("| 1 |", "| 2 |"))).not.toBe(block.recorded);
    expect(() => withResults("no markers", "x")).toThrow(/lacks the markers/);
  });
});
