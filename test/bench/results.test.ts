import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { END, README_BLOCK, START, readmeBlock } from "../../bench/results.js";

/**
 * The README's benchmark figures are the last `npm run bench` output (bench/results.md), never
 * typed by hand: bench/run.ts writes both, and this test fails when one was edited without the other.
 */
describe("the README's benchmark block", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

  it("is between the bench markers, once", () => {
    expect(readme.split(START).length).toBe(2);
    expect(readme.split(END).length).toBe(2);
    expect(readmeBlock(readme)).not.toBeNull();
  });

  it("is bench/results.md as the last run wrote it", () => {
    expect(existsSync(README_BLOCK)).toBe(true);
    expect(readmeBlock(readme)).toBe(readFileSync(README_BLOCK, "utf8").trim());
  });
});
