import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The TypeScript files under `dir`, every level down: what tests that read the code itself walk. */
export function typescriptSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return typescriptSources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}
