import { readFile, writeFile } from "node:fs/promises";

/**
 * Where the benchmark's figures go: `npm run bench` writes its markdown to bench/results.md and
 * puts the same text in the README between the two markers below, so that no figure of the
 * README's benchmark section is typed by hand; test/bench/results.test.ts checks that the two agree.
 */

export const README_BLOCK = new URL("./results.md", import.meta.url).pathname;
const README = new URL("../README.md", import.meta.url).pathname;
export const START = "<!-- bench:start (written by npm run bench from bench/results.md: do not edit) -->";
export const END = "<!-- bench:end -->";

/** The README's text between the markers, without the newlines that frame it; null without markers. */
export function readmeBlock(readme: string): string | null {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + START.length, end).replace(/^\n+|\n+$/g, "");
}

export async function replaceReadmeBlock(markdown: string): Promise<void> {
  const readme = await readFile(README, "utf8");
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  await writeFile(README, `${readme.slice(0, start + START.length)}\n\n${markdown}\n\n${readme.slice(end)}`);
}
