import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every link of the README, docs/, bench/results.md and the changelog reaches a page that exists
 * and, with a `#fragment`, a heading of that page (GitHub's anchors: lower case, punctuation
 * dropped, spaces as hyphens, a repeated heading suffixed -1, -2, ...), so that moving a section
 * cannot leave a link behind.
 */

const PAGES = ["README.md", "CHANGELOG.md", "bench/results.md", ...readdirSync("docs").filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** The page's text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe("links between the README and the docs", () => {
  it("computes GitHub's anchors", () => {
    expect([...anchors("# A\n## Signals and drain\n### people (port 4001, `npm run subgraph:people`)\n## Logs\n## Logs\n```sh\n# not a heading\n```\n")]).toEqual([
      "a", "signals-and-drain", "people-port-4001-npm-run-subgraphpeople", "logs", "logs-1",
    ]);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link reaches a page and a heading of it`, () => {
      const broken = links(readFileSync(page, "utf8")).filter((target) => {
        const [path, fragment] = target.split("#") as [string, string | undefined];
        const file = path === "" ? page : normalize(join(dirname(page), path));
        if (!existsSync(file)) return true;
        return fragment !== undefined && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(fragment);
      });
      expect(broken).toEqual([]);
    });
  }
});
