import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/layout.md has one line per file of the product folders, `- \`path\`: what it holds.`, under
 * the heading of its top folder and in path order, and no line for a file that does not exist. A
 * failure names the line to add (and after which line) or to remove, so that a file added on one
 * branch and the doc changed on another merge by adding one line.
 */

const PAGE = "docs/layout.md";
const PRODUCT = ["bench", "contract", "directory", "gateway", "harness", "platform", "scripts", "subgraphs"];

/** Every file under `dir`, but what git ignores there: dot folders (`.generated/`, `.build/`, …). */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".") || name === "node_modules") return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

interface Line {
  path: string;
  what: string;
  section: string;
}

/** The file lines of the page: the lines `- \`<product folder>/…\`: …`, with the `## ` heading they are under. */
function lines(text: string): Line[] {
  let section = "";
  const out: Line[] = [];
  for (const line of text.split("\n")) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1]!;
    const entry = /^- `([^`]+)`: ?(.*)$/.exec(line);
    if (entry && PRODUCT.includes(entry[1]!.split("/")[0]!)) out.push({ path: entry[1]!, what: entry[2]!, section });
  }
  return out;
}

/** What to change in the page for the files on disk, one instruction per line to add, move or remove. */
function layoutProblems(text: string, onDisk: string[]): string[] {
  const listed = lines(text);
  const problems: string[] = [];
  const exists = new Set(onDisk);
  const named = new Set(listed.map((line) => line.path));
  for (const line of listed) {
    const top = `${line.path.split("/")[0]}/`;
    if (!exists.has(line.path)) problems.push(`${PAGE}: remove the line of \`${line.path}\` (no such file)`);
    else if (line.section !== top) problems.push(`${PAGE}: move the line of \`${line.path}\` under "## ${top}"`);
    if (!/\S.*\.$/.test(line.what)) problems.push(`${PAGE}: the line of \`${line.path}\` says what the file holds, in a sentence ending with a period`);
  }
  for (const path of [...onDisk].sort()) {
    if (named.has(path)) continue;
    const top = `${path.split("/")[0]}/`;
    const before = listed.filter((line) => line.section === top && line.path.startsWith(top) && exists.has(line.path) && line.path < path).at(-1);
    const where = before ? `after the line of \`${before.path}\`` : `as the first line under "## ${top}"`;
    problems.push(`${PAGE}: add ${where}: - \`${path}\`: <what the file holds>.`);
  }
  for (const top of PRODUCT) {
    const order = listed.filter((line) => line.section === `${top}/`).map((line) => line.path);
    const sorted = [...order].sort();
    const first = order.findIndex((path, i) => path !== sorted[i]);
    if (first >= 0) problems.push(`${PAGE}: under "## ${top}/" the lines are in path order; \`${sorted[first]}\` comes before \`${order[first]}\``);
  }
  return problems;
}

describe("docs/layout.md", () => {
  it("names how to fix each kind of drift", () => {
    const page = "## bench/\n\n- `bench/a.ts`: A.\n- `bench/c.ts`: C\n- `bench/gone.ts`: Gone.\n\n## gateway/\n\n- `bench/b.ts`: B.\n";
    expect(layoutProblems(page, ["bench/a.ts", "bench/b.ts", "bench/c.ts", "bench/d.ts", "gateway/x.ts"])).toEqual([
      `${PAGE}: the line of \`bench/c.ts\` says what the file holds, in a sentence ending with a period`,
      `${PAGE}: remove the line of \`bench/gone.ts\` (no such file)`,
      `${PAGE}: move the line of \`bench/b.ts\` under "## bench/"`,
      `${PAGE}: add after the line of \`bench/c.ts\`: - \`bench/d.ts\`: <what the file holds>.`,
      `${PAGE}: add as the first line under "## gateway/": - \`gateway/x.ts\`: <what the file holds>.`,
    ]);
    expect(layoutProblems("## bench/\n\n- `bench/b.ts`: B.\n- `bench/a.ts`: A.\n", ["bench/a.ts", "bench/b.ts"])).toEqual([
      `${PAGE}: under "## bench/" the lines are in path order; \`bench/a.ts\` comes before \`bench/b.ts\``,
    ]);
  });

  it("has one line for every file of the product folders, and none for a file that does not exist", () => {
    expect(layoutProblems(readFileSync(PAGE, "utf8"), PRODUCT.flatMap(files))).toEqual([]);
  });
});
