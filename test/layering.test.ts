import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The layering of the README's Layout, held by the build: `platform/` ← `contract/` ←
 * `subgraphs/shared/` ← `subgraphs/<name>/`, each layer importing only those below it; one
 * subgraph imports nothing of another; the gateway and the directory import nothing of
 * `subgraphs/` (nor of each other), and may import `contract/` (the directory's REST shapes),
 * which imports `platform/` at most. No two files import each other.
 * Imports are read with the TypeScript compiler (import and `import type`, `export … from`,
 * `import()`, `import("…")` types, `import x = require()`), not with a pattern over the text.
 */

const LAYERED = ["platform", "contract", "subgraphs", "gateway", "directory"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier a file names. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The layer of a path from the repository root: `platform`, `subgraphs/shared`, `subgraphs/people`, `gateway`, … */
function layer(path: string): string {
  const [top, next] = path.split("/");
  return top === "subgraphs" && next !== undefined ? `subgraphs/${next}` : top!;
}

/** Why an import from one layer of another breaks the layering, or null when it does not. */
function breach(from: string, to: string): string | null {
  if (from === to || !LAYERED.includes(to.split("/")[0]!)) return null;
  if (from === "platform") return "platform/ imports nothing above it";
  if (to === "platform") return null;
  if (from === "contract") return "contract/ imports only platform/";
  if (to === "contract") return null;
  if (from === "subgraphs/shared") return "subgraphs/shared/ imports only platform/";
  if (from.startsWith("subgraphs/")) return to === "subgraphs/shared" ? null : "a subgraph imports only platform/ and subgraphs/shared/, nothing of another";
  return `${from}/ imports nothing of ${to.startsWith("subgraphs/") ? "subgraphs" : to}/`;
}

/** Every relative import of the layered folders, as `from -> to` paths from the repository root. */
function imports(): Array<{ file: string; target: string }> {
  return LAYERED.flatMap((dir) => sources(dir)).flatMap((file) =>
    specifiers(file)
      .filter((s) => s.startsWith("."))
      .map((s) => ({ file, target: normalize(join(dirname(file), s)).split("\\").join("/") })),
  );
}

/** The source file an import's target names: `./client.js` is `client.ts`. */
function sourceOf(target: string): string {
  return target.replace(/\.(m|c)?js$/, ".$1ts");
}

/** Every pair of files that import each other, each pair once, as `a <-> b`. */
function twoFileCycles(edges: Array<{ file: string; target: string }>): string[] {
  const targets = new Map<string, Set<string>>();
  for (const { file, target } of edges) targets.set(file, (targets.get(file) ?? new Set()).add(sourceOf(target)));
  return [...targets].flatMap(([file, to]) => [...to].filter((other) => other > file && targets.get(other)?.has(file)).map((other) => `${file} <-> ${other}`));
}

describe("layering", () => {
  const all = imports();

  it("reads the imports it is to judge, `import type` among them", () => {
    const has = (file: string, target: string) => all.some((i) => i.file === file && i.target === target);
    expect(all.length).toBeGreaterThan(500);
    expect(has("gateway/company.ts", "platform/own-types.js")).toBe(true);
    // `import type { UpstreamCallEvent } from "./types.js"`
    expect(has("subgraphs/shared/upstream/observe.ts", "subgraphs/shared/upstream/types.js")).toBe(true);
    expect(has("directory/current/openapi.ts", "contract/rest-shapes.js")).toBe(true);
  });

  it("platform ← contract ← subgraphs/shared ← subgraphs/<name>; the gateway and the directory import nothing of subgraphs/", () => {
    const breaches = all.flatMap(({ file, target }) => {
      const why = breach(layer(file), layer(target));
      return why === null ? [] : [`${file} -> ${target}: ${why}`];
    });
    expect(breaches).toEqual([]);
  });

  it("no two files import each other", () => {
    expect(twoFileCycles(all)).toEqual([]);
  });

  it("finds a two-file circle, `import type` and `.js` specifiers alike", () => {
    const edges = [
      { file: "platform/a.ts", target: "platform/b.js" },
      { file: "platform/b.ts", target: "platform/a.js" },
      { file: "platform/b.ts", target: "platform/c.js" },
      { file: "platform/c.ts", target: "platform/d.js" },
    ];
    expect(twoFileCycles(edges)).toEqual(["platform/a.ts <-> platform/b.ts"]);
  });

  it("tells a breach from a layered import", () => {
    expect(breach("gateway", "subgraphs/shared")).not.toBeNull();
    expect(breach("directory", "subgraphs/people")).not.toBeNull();
    expect(breach("directory", "gateway")).not.toBeNull();
    expect(breach("platform", "subgraphs/shared")).not.toBeNull();
    expect(breach("subgraphs/shared", "subgraphs/people")).not.toBeNull();
    expect(breach("subgraphs/people", "subgraphs/organisation")).not.toBeNull();
    expect(breach("subgraphs/people", "gateway")).not.toBeNull();
    expect(breach("subgraphs/people", "subgraphs/shared")).toBeNull();
    expect(breach("subgraphs/people", "platform")).toBeNull();
    expect(breach("subgraphs/shared", "platform")).toBeNull();
    expect(breach("gateway", "platform")).toBeNull();
    expect(breach("gateway", "schema")).toBeNull();
    expect(breach("platform", "contract")).not.toBeNull();
    expect(breach("contract", "subgraphs/shared")).not.toBeNull();
    expect(breach("contract", "directory")).not.toBeNull();
    expect(breach("contract", "platform")).toBeNull();
    expect(breach("directory", "contract")).toBeNull();
    expect(breach("subgraphs/shared", "contract")).toBeNull();
    expect(breach("subgraphs/people", "contract")).toBeNull();
    expect(breach("gateway", "contract")).toBeNull();
  });
});
