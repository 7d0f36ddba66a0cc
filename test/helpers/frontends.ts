import { generate } from "@graphql-codegen/cli";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { codegenConfig } from "../../codegen.js";
import { API_SCHEMA_FILE } from "../../scripts/client-schema.js";

/**
 * The frontend tools as a frontend build runs them (docs/frontends.md), for the tests of
 * test/frontends/ and of the trusted documents they write: relay-compiler (a static binary
 * shipped in its npm package, so the same under every Node version) and graphql-codegen's client
 * preset with the repository's codegen.ts.
 */

const run = promisify(execFile);
const relayCompiler = createRequire(import.meta.url)("relay-compiler") as string;
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The Relay config the guide documents, with the compiler's output in the temp dir. */
export function relayConfig(extra: Record<string, unknown> = {}) {
  return {
    src: "./src",
    schema: fileURLToPath(API_SCHEMA_FILE),
    language: "typescript",
    artifactDirectory: "./src/__generated__",
    schemaConfig: { nodeInterfaceIdField: "nodeId", nodeInterfaceIdVariableName: "nodeId" },
    ...extra,
  };
}

export const RELAY_SOURCES: Record<string, string> = {
  "EmployeeCard.ts": `import { graphql } from "relay-runtime";
export const fragment = graphql\`fragment EmployeeCard_employee on Employee @refetchable(queryName: "EmployeeCardRefetchQuery") { id givenName familyName }\`;`,
  "DepartmentCard.ts": `import { graphql } from "relay-runtime";
export const fragment = graphql\`fragment DepartmentCard_department on Department @refetchable(queryName: "DepartmentCardRefetchQuery") { id name }\`;`,
  "App.ts": `import { graphql } from "relay-runtime";
export const query = graphql\`query AppQuery($id: ID!) { employee(id: $id) { ...EmployeeCard_employee } department(id: $id) { ...DepartmentCard_department } }\`;`,
};

/** Writes the sources and the config (with its empty persisted-queries file, if any) into `dir` and runs relay-compiler there. */
export async function compileRelay(dir: string, config: Record<string, unknown>): Promise<void> {
  await mkdir(join(dir, "src", "__generated__"), { recursive: true });
  for (const [file, text] of Object.entries(RELAY_SOURCES)) await writeFile(join(dir, "src", file), text);
  await writeFile(join(dir, "relay.config.json"), JSON.stringify(config, null, 2));
  // the compiler adds to its persisted-queries file and wants it there, as a project commits it
  const persist = config.persistConfig as { file?: string } | undefined;
  if (persist?.file) await writeFile(join(dir, persist.file), "{}\n");
  await run(relayCompiler, [], { cwd: dir });
}

/** The client preset's output for operations/ in a temp dir; the caller removes `dir`. */
export async function runCodegen(): Promise<string> {
  await mkdir(join(REPO_ROOT, ".generated"), { recursive: true });
  const out = await mkdtemp(join(REPO_ROOT, ".generated", "codegen-"));
  await generate({ ...codegenConfig(join(out, "gql")), cwd: REPO_ROOT, silent: true }, true);
  return out;
}

