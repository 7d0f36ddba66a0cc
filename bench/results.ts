import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";

/**
 * Where the benchmark's figures go: `npm run bench` writes its markdown into bench/results.md,
 * between the two markers below, and puts the SHA-256 of what it wrote in the first one, so that no
 * figure is typed by hand: test/bench/results.test.ts fails when the text between the markers is
 * not what the last run wrote. The prose around the markers is the page's own, edited by hand.
 */

export const RESULTS = new URL("./results.md", import.meta.url).pathname;

/** A block of figures between its two markers, written by one command. */
export interface Section {
  startText: string;
  start: RegExp;
  end: string;
}

function section(name: string, command: string): Section {
  const startText = `<!-- ${name}:start (written by ${command}: do not edit) sha256:`;
  const escaped = startText.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return { startText, start: new RegExp(`${escaped}([0-9a-f]{64}) -->`), end: `<!-- ${name}:end -->` };
}

/** `npm run bench`'s figures */
export const MAIN = section("bench", "npm run bench");
/** `npm run bench:subscriptions`'s figures (bench/subscriptions.ts) */
export const SUBSCRIPTIONS = section("bench:subscriptions", "npm run bench:subscriptions");
export const END = MAIN.end;

/** The markdown as it goes between the markers: without the newlines that frame it. */
function trimmed(markdown: string): string {
  return markdown.replace(/^\n+|\n+$/g, "");
}

export function sha256(block: string): string {
  return createHash("sha256").update(trimmed(block)).digest("hex");
}

/** The text between the markers and the hash its start marker records; null without markers. */
export function resultsBlock(text: string, where: Section = MAIN): { block: string; recorded: string } | null {
  const start = where.start.exec(text);
  const end = text.indexOf(where.end);
  if (start === null || end < start.index) return null;
  return { block: trimmed(text.slice(start.index + start[0].length, end)), recorded: start[1]! };
}

/** `text` with `markdown` between its markers, and the start marker recording its hash. */
export function withResults(text: string, markdown: string, where: Section = MAIN): string {
  const start = where.start.exec(text);
  const end = text.indexOf(where.end);
  if (start === null || end < start.index) throw new Error(`bench/results.md lacks the markers ${where.startText}… -->, ${where.end}`);
  const block = trimmed(markdown);
  return `${text.slice(0, start.index)}${where.startText}${sha256(block)} -->\n\n${block}\n\n${text.slice(end)}`;
}

export async function writeResults(markdown: string, path = RESULTS, where: Section = MAIN): Promise<void> {
  await writeFile(path, withResults(await readFile(path, "utf8"), markdown, where));
}
